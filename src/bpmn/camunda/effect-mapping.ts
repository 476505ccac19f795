/**
 * The organisation's tool-effect mapping (`GateOptions.toolEffects`, `"toolEffects"` in
 * agentflow.config.json): keys are a job type or an element template id; a value is an effect, or
 * an object keyed by the value of the connector's operation selector input (`"GET"`), with `"*"`
 * for any other value and `"$input"` naming the selector where agentflow's defaults know none.
 */
import type { ToolEffect } from "../../model/index.js";
import { defaultEffectOf } from "./effect-defaults.js";

/** Every tool effect, in order of how much they demand (the last two need a gate). */
export const TOOL_EFFECTS: readonly ToolEffect[] = Object.freeze([
  "read",
  "propose",
  "notify",
  "write-reversible",
  "write-irreversible",
  "external-commitment",
]);

/** An effect, or effects by the selector input's value (`"$input"`: the input; `"*"`: others). */
export type ToolEffectRule = ToolEffect | Readonly<Record<string, string>>;

/** The mapping: template id or job type → rule. */
export type ToolEffectsMapping = Readonly<Record<string, ToolEffectRule>>;

/** The key that names the selector input in an object rule. */
export const SELECTOR_KEY = "$input";

const isEffect = (value: unknown): value is ToolEffect =>
  (TOOL_EFFECTS as readonly unknown[]).includes(value);

const shown = (value: unknown): string => {
  if (typeof value === "string") return `'${value}'`;
  // JSON.stringify gives undefined for undefined and functions, whatever its type says.
  const json = JSON.stringify(value) as string | undefined;
  return json ?? typeof value;
};

const EXPECTED = `expected ${TOOL_EFFECTS.join(", ")}`;

/**
 * Two values that the selector compares as one (case and surrounding spaces aside, as old HTTP
 * templates write `get`): the first in the object would decide, so the order of its keys, which
 * neither the config's digest nor a reader sees, would decide the effect.
 */
function sameValueProblems(where: string, entries: readonly [string, unknown][]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const [value] of entries) {
    if (value === SELECTOR_KEY || value === "*") continue;
    const same = value.trim().toLowerCase();
    const first = seen.get(same);
    if (first === undefined) seen.set(same, value);
    else {
      out.push(
        `${where}: ${JSON.stringify(first)} and ${JSON.stringify(value)} are one value to the selector (compared without case and surrounding spaces); keep one`,
      );
    }
  }
  return out;
}

function ruleProblems(where: string, key: string, rule: unknown): string[] {
  if (typeof rule === "string") {
    return isEffect(rule) ? [] : [`${where}: unknown effect ${shown(rule)} (${EXPECTED})`];
  }
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    return [`${where}: must be an effect or an object of effects by the selector's value`];
  }
  const out: string[] = [];
  const entries = Object.entries(rule as Record<string, unknown>);
  for (const [value, effect] of entries) {
    const at = `${where}[${JSON.stringify(value)}]`;
    if (value === SELECTOR_KEY) {
      if (typeof effect !== "string" || effect.trim() === "") {
        out.push(`${at}: must name the input the values select on (a zeebe:input target)`);
      }
    } else if (!isEffect(effect)) {
      out.push(`${at}: unknown effect ${shown(effect)} (${EXPECTED})`);
    }
  }
  out.push(...sameValueProblems(where, entries));
  const selects = entries.some(([value]) => value !== SELECTOR_KEY && value !== "*");
  const named = Object.hasOwn(rule, SELECTOR_KEY) || defaultEffectOf(key)?.selector !== undefined;
  if (selects && !named) {
    out.push(
      `${where}: agentflow knows no operation selector for ${shown(key)}; name the input with "${SELECTOR_KEY}"`,
    );
  }
  return out;
}

/**
 * Every problem with a mapping, one line each naming the key, or `[]` when it is valid.
 *
 * @example
 * ```ts
 * import { toolEffectsProblems } from "agentflow/bpmn";
 *
 * toolEffectsProblems({ "io.camunda:http-json:1": { GET: "read", "*": "write-irreversible" } }); // → []
 * toolEffectsProblems({ "io.camunda:slack:1": "sends" });
 * // → ["toolEffects[\"io.camunda:slack:1\"]: unknown effect 'sends' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)"]
 * ```
 */
export function toolEffectsProblems(mapping: unknown): string[] {
  if (typeof mapping !== "object" || mapping === null || Array.isArray(mapping)) {
    return ["toolEffects: must be an object keyed by job type or element template id"];
  }
  const out: string[] = [];
  for (const [key, rule] of Object.entries(mapping as Record<string, unknown>)) {
    const where = `toolEffects[${JSON.stringify(key)}]`;
    if (key.trim() === "") out.push(`${where}: the key must be a job type or template id`);
    else out.push(...ruleProblems(where, key, rule));
  }
  return out;
}
