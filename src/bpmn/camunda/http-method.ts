/**
 * What a REST call's `GET` proves: less than its `method` says. Servers behind many frameworks
 * take the method from an override header (`X-HTTP-Method-Override`, `X-HTTP-Method`,
 * `X-Method-Override`), so a `GET` carrying `X-HTTP-Method-Override: DELETE` deletes; and a `GET`
 * whose URL the model chooses, server and all (`=fromAi(toolCall.url, …)`), can reach any
 * endpoint, one that acts on a `GET` among them. A `read` that agentflow's defaults gave a REST
 * call by its method is kept only when neither is so: an override takes its method's effect, a
 * header map that cannot be read may hold one (the most demanding effect, as for any selector
 * known only at run time), and a URL whose server the model chooses leaves the effect unknown.
 */
import { defaultEffectOf, matchesValue } from "./effect-defaults.js";
import { feelContextEntries } from "./feel-context.js";
import type { Mappings } from "./selectors.js";
import { staticText } from "./static-text.js";
import type { ActivityEffect } from "./types.js";
import { fieldSource } from "./zeebe.js";

/** The method override headers, in lower case (HTTP header names are case-insensitive). */
const OVERRIDES = ["x-http-method-override", "x-http-method", "x-method-override"];

/** The methods agentflow's REST defaults read as `read`. */
const READ_METHODS = ["get", "head", "options"];

/** The `fromAi(…)` call that hands a value to the model. */
const FROM_AI = /\bfromAi\s*\(/;

/** A URL literal that names its scheme and server in full: what follows can change neither. */
const FIXED_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+[/?#]/i;

const LEADING_LITERAL = /^=\s*("(?:[^"\\]|\\.)*")/s;

/**
 * The method override a REST call's `headers` carry, as `[header, method]` (`method` absent when
 * it is known only at run time); `"unread"` when the headers are FEEL this reader cannot split,
 * so they may hold one; `undefined` when they hold none.
 */
function methodOverride(
  mappings: Mappings,
): readonly [string, string | undefined] | "unread" | undefined {
  const found = fieldSource(mappings, "headers");
  if (found === undefined) return undefined;
  const field = found.field?.trim();
  if (field === undefined) return "unread";
  if (!field.startsWith("=")) return field === "" ? undefined : "unread";
  const entries = feelContextEntries(field.slice(1));
  if (entries === undefined) return "unread";
  for (const [key, value] of entries) {
    if (!OVERRIDES.includes(key.trim().toLowerCase())) continue;
    return [key, staticText(`=${value.trim()}`)?.trim()];
  }
  return undefined;
}

/**
 * True when the model chooses the server a REST call's URL names: `fromAi` in the URL, unless it
 * starts with a string literal that names the scheme and server in full.
 */
function modelChosenOrigin(mappings: Mappings): boolean {
  const found = fieldSource(mappings, "url");
  if (found === undefined) return false;
  const text = (found.field ?? found.source).trim();
  if (!FROM_AI.test(text)) return false;
  const literal = LEADING_LITERAL.exec(text)?.[1];
  const head = literal === undefined ? undefined : staticText(`=${literal}`);
  return head === undefined || !FIXED_ORIGIN.test(head.trim());
}

/**
 * The effect of a REST call agentflow's defaults read as `read` by its method, once its method
 * override header and the URL's server are read; any other effect as it is.
 */
export function httpReadChecked(mappings: Mappings, found: ActivityEffect): ActivityEffect {
  if (found.source !== "default" || found.effect !== "read" || found.key === undefined) {
    return found;
  }
  const at = found.key.indexOf(" method=");
  const key = at < 0 ? found.key : found.key.slice(0, at);
  const entry = at < 0 ? undefined : defaultEffectOf(key);
  if (entry?.selector !== "method") return found;
  if (modelChosenOrigin(mappings)) {
    return {
      source: "unknown",
      key,
      reason:
        "the model chooses the server of its URL (fromAi in url): a GET may reach any endpoint, one that acts on it among them",
    };
  }
  const override = methodOverride(mappings);
  if (override === undefined) return found;
  if (override === "unread") {
    return { effect: entry.otherwise, source: "default", key: `${found.key} headers=?` };
  }
  const [header, method] = override;
  const reads = method !== undefined && READ_METHODS.some((m) => matchesValue(method, m));
  return {
    effect: reads ? "read" : entry.otherwise,
    source: "default",
    key: `${found.key} ${header}=${method ?? "?"}`,
  };
}
