/**
 * Each tool's effect, fail closed, from in order: a valid `btv:toolEffect` on the element, the
 * organisation's mapping (template id, then job type), agentflow's defaults (template id, then
 * job type; then the element's nature: a user task, an engine-evaluated script or decision, a
 * pass-through element read), else unknown. What a template id decides must agree with the job
 * type the element runs, else the effect is unknown (`corroborated`). A tool is its root element and everything its
 * sequence flows lead to in the container: its effect is the most demanding of those, unless the
 * root's own `btv:toolEffect` states the effect of the tool as a whole.
 */
import type { ToolEffect } from "../../model/index.js";
import { defaultEffectOf, matchesValue, statesEffect } from "./effect-defaults.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import { SELECTOR_KEY, TOOL_EFFECTS } from "./effect-mapping.js";
import type { CamundaActivity, ToolEffectSource } from "./types.js";

/** One element's own effect. */
export interface ActivityEffect {
  readonly effect?: ToolEffect;
  readonly source: ToolEffectSource;
  readonly key?: string;
  /** Why it is unknown, when it is. */
  readonly reason?: string;
}

const isEffect = (value: unknown): value is ToolEffect =>
  (TOOL_EFFECTS as readonly unknown[]).includes(value);

const isFeel = (value: string): boolean => value.trimStart().startsWith("=");

function keysOf(activity: CamundaActivity): string[] {
  const out: string[] = [];
  if (activity.templateId !== undefined) out.push(activity.templateId);
  if (activity.jobType !== undefined) out.push(activity.jobType);
  return out;
}

function fromMapping(
  activity: CamundaActivity,
  key: string,
  rule: ToolEffect | Readonly<Record<string, string>>,
): ActivityEffect {
  if (typeof rule === "string") return { effect: rule, source: "config", key };
  const selector = rule[SELECTOR_KEY] ?? defaultEffectOf(key)?.selector ?? "";
  const value = Object.hasOwn(activity.inputs, selector) ? activity.inputs[selector] : undefined;
  if (value !== undefined && !isFeel(value)) {
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
  const shown = value === undefined ? "no value" : `'${value}'`;
  const reason = `the toolEffects mapping for '${key}' has no entry for ${selector} (${shown}) and no "*"`;
  return { source: "unknown", key, reason };
}

function fromDefaults(activity: CamundaActivity, key: string): ActivityEffect | undefined {
  const entry = defaultEffectOf(key);
  if (entry === undefined) return undefined;
  const valueOf = (input: string): string | undefined => {
    const value = Object.hasOwn(activity.inputs, input) ? activity.inputs[input] : undefined;
    return value === undefined || isFeel(value) ? undefined : value;
  };
  for (const { when, effect } of entry.cases) {
    const inputs = Object.entries(when);
    const all = inputs.every(([input, patterns]) => {
      const value = valueOf(input);
      return value !== undefined && patterns.some((p) => matchesValue(value, p));
    });
    if (!all) continue;
    const shown = inputs.map(([input]) => `${input}=${valueOf(input) ?? ""}`).join(" ");
    return { effect, source: "default", key: `${key} ${shown}` };
  }
  const selector = entry.selector;
  const suffix =
    selector === undefined ? "" : ` ${selector}=${activity.inputs[selector] ?? "(absent)"}`;
  return { effect: entry.otherwise, source: "default", key: `${key}${suffix}` };
}

const READ_NATURES = new Set(["user-task", "engine", "pass-through"]);

function unknownReason(activity: CamundaActivity): string {
  const { nature, jobType, templateId } = activity;
  const template = templateId === undefined ? "" : ` (template '${templateId}')`;
  if (nature === "gateway") {
    return `a gateway tool (${activity.properties["io.camunda.agenticai.gateway.type"] ?? ""}) whose tools the remote server lists at run time`;
  }
  if (nature === "call-activity") return "a call activity: the process it calls is not read";
  if (nature === "sub-process") return "a sub-process: its inner elements are not read";
  if (jobType !== undefined) {
    return `no btv:toolEffect, toolEffects mapping or agentflow default covers job type '${jobType}'${template}`;
  }
  return `a ${activity.elementType} agentflow knows no effect for${template}`;
}

/**
 * The effect found by template id or job type, if what the element runs bears it out. A template
 * id is a label the modeller keeps; the job type says which connector runs, and its inputs what
 * that connector does. So the effect is unknown when the template's known job type is not the
 * element's, and when the template makes the element `read` but agentflow's default for the job
 * type, reading the inputs the connector decides by, finds more (a GitHub `getRepo` whose
 * `method` is `delete`). Only a `read` claim needs the job type's word: a template may know more
 * of an API than the REST method does (an SMS sent by POST notifies). The key is then the job
 * type: a mapping of the template would meet the same disagreement, one of the job type decides.
 */
function corroborated(activity: CamundaActivity, found: ActivityEffect): ActivityEffect {
  const { templateId, jobType } = activity;
  if (templateId === undefined || jobType === undefined || found.source === "unknown") return found;
  // Found by the job type: then the job type decided, and nothing needs bearing out.
  const key = found.key ?? "";
  if (key !== templateId && !key.startsWith(`${templateId} `)) return found;
  const expected = defaultEffectOf(templateId)?.jobType;
  if (expected !== undefined && expected !== jobType) {
    return {
      source: "unknown",
      key: jobType,
      reason: `the template '${templateId}' runs job type '${expected}', but the element's job type is '${jobType}': the template does not say what it does`,
    };
  }
  const entry = defaultEffectOf(jobType);
  if (found.effect !== "read" || entry === undefined || !statesEffect(entry, activity.inputs)) {
    return found;
  }
  const runs = fromDefaults(activity, jobType);
  if (runs?.effect === undefined || effectRank(runs.effect) <= effectRank(found.effect))
    return found;
  return {
    source: "unknown",
    key: jobType,
    reason: `the signals disagree: ${found.key} says read, but job type ${runs.key ?? jobType} says ${runs.effect}`,
  };
}

/** The element's own effect (see the file comment for the order). */
export function activityEffect(
  activity: CamundaActivity,
  mapping: ToolEffectsMapping,
): ActivityEffect {
  const btv = activity.btvToolEffect;
  if (btv !== undefined) {
    if (isEffect(btv.trim()))
      return { effect: btv.trim() as ToolEffect, source: "btv", key: "btv:toolEffect" };
    return {
      source: "unknown",
      key: "btv:toolEffect",
      reason: `btv:toolEffect '${btv}' is not an effect`,
    };
  }
  const keys = keysOf(activity);
  let found: ActivityEffect | undefined;
  for (const key of keys) {
    const rule = Object.hasOwn(mapping, key) ? mapping[key] : undefined;
    if (rule !== undefined) {
      found = fromMapping(activity, key, rule);
      break;
    }
  }
  for (const key of keys) found ??= fromDefaults(activity, key);
  if (found !== undefined) return corroborated(activity, found);
  if (activity.nature !== "gateway" && READ_NATURES.has(activity.nature)) {
    return { effect: "read", source: "default", key: activity.nature };
  }
  return { source: "unknown", reason: unknownReason(activity) };
}

/** How demanding an effect is; unknown is the most demanding of all. */
export function effectRank(effect: ToolEffect | undefined): number {
  return effect === undefined ? TOOL_EFFECTS.length : TOOL_EFFECTS.indexOf(effect);
}
