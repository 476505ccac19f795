/**
 * The effect a template id or job type gives an element by its operation selector: the
 * organisation's mapping (an effect, or effects by the selector's value with `"*"` for any
 * other) and agentflow's defaults (cases on inputs, else the most demanding effect). A selector
 * is read as every field is (`fieldSource`): from the last mapping that gives it, its own or one
 * to an object holding it, so a later `operation` object replaces an earlier `operation.type`.
 */
import type { ToolEffect } from "../../model/index.js";
import { defaultEffectOf, matchesValue } from "./effect-defaults.js";
import type { ToolEffectRule } from "./effect-mapping.js";
import { SELECTOR_KEY, TOOL_EFFECTS } from "./effect-mapping.js";
import type { ActivityEffect } from "./types.js";
import { staticText } from "./static-text.js";
import { fieldSource } from "./zeebe.js";

const isEffect = (value: unknown): value is ToolEffect =>
  (TOOL_EFFECTS as readonly unknown[]).includes(value);

/**
 * The mappings a selector reads (`[target, source]`, in order): the element's input mappings, or
 * for an inbound connector its properties.
 */
export type Mappings = readonly (readonly [string, string])[];

/** A listener's job reads the element's variables at run time: none of them is fixed for it. */
export const NO_VALUES: Mappings = Object.freeze([]);

/** What a selector input holds, as the connector reads it. */
export interface Selected {
  /** The text: static, or one FEEL string literal decoded; absent when known only at run time. */
  readonly value?: string;
  /** What the effect key and the reasons show: the text, or what was written. */
  readonly shown: string;
}

/**
 * The selector `input` as the engine builds it (`fieldSource`: the last mapping that gives it,
 * its own or one to an object holding it), or `undefined` when no mapping gives it. FEEL other
 * than one string literal, or an object that cannot be split, is known only at run time.
 */
export function selected(mappings: Mappings, input: string): Selected | undefined {
  const found = fieldSource(mappings, input);
  if (found === undefined) return undefined;
  if (found.field === undefined) return { shown: `? (${found.input} is ${found.source.trim()})` };
  const value = staticText(found.field);
  return value === undefined ? { shown: found.field } : { value, shown: value };
}

export function fromMapping(values: Mappings, key: string, rule: ToolEffectRule): ActivityEffect {
  if (typeof rule === "string") return { effect: rule, source: "config", key };
  const selector = rule[SELECTOR_KEY] ?? defaultEffectOf(key)?.selector ?? "";
  const found = selected(values, selector);
  const value = found?.value;
  if (value !== undefined) {
    const lower = value.trim().toLowerCase();
    for (const [written, effect] of Object.entries(rule)) {
      if (written === SELECTOR_KEY || written === "*") continue;
      if (written.trim().toLowerCase() === lower && isEffect(effect)) {
        return { effect, source: "config", key: `${key} ${selector}=${value.trim()}` };
      }
    }
  }
  const fallback = rule["*"];
  if (isEffect(fallback))
    return { effect: fallback, source: "config", key: `${key} ${selector}=*` };
  const shown = found === undefined ? "no value" : `'${found.shown}'`;
  const reason = `the toolEffects mapping for '${key}' has no entry for ${selector} (${shown}) and no "*"`;
  return { source: "unknown", key, reason };
}

export function fromDefaults(values: Mappings, key: string): ActivityEffect | undefined {
  const entry = defaultEffectOf(key);
  if (entry === undefined) return undefined;
  for (const { when, effect } of entry.cases) {
    const inputs = Object.entries(when);
    const all = inputs.every(([input, patterns]) => {
      const value = selected(values, input)?.value;
      return value !== undefined && patterns.some((p) => matchesValue(value, p));
    });
    if (!all) continue;
    const shown = inputs.map(([input]) => `${input}=${selected(values, input)?.value ?? ""}`);
    return { effect, source: "default", key: `${key} ${shown.join(" ")}` };
  }
  const selector = entry.selector;
  const suffix =
    selector === undefined ? "" : ` ${selector}=${selected(values, selector)?.shown ?? "(absent)"}`;
  return { effect: entry.otherwise, source: "default", key: `${key}${suffix}` };
}
