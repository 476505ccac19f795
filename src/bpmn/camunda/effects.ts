/**
 * Each element's own effect, fail closed, from in order: a valid `btv:toolEffect` on the element,
 * the organisation's mapping (template id, then job type), agentflow's defaults (template id,
 * then job type; then the element's nature: a user task, an engine-evaluated script or decision,
 * a pass-through element read), else unknown. What a template id decides must be borne out by
 * the job type the element runs, else the effect is unknown (`corroborated`); so must a gateway
 * marker, else only `btv:toolEffect` or the mapping decides (`unborneGateway`). Then each other
 * job the engine runs for the element (its listeners, its inbound connector) is looked up by its
 * type, and the most demanding effect wins. A tool is its root element and everything its
 * sequence flows lead to in the container: its effect is the most demanding of those, unless the
 * root's own `btv:toolEffect` states the effect of the tool as a whole (tool-effects.ts). The
 * mapping's and the defaults' reading of operation selectors is selectors.ts's; what a REST GET
 * proves, http-method.ts's.
 */
import type { ToolEffect } from "../../model/index.js";
import { defaultEffectOf, statesEffect } from "./effect-defaults.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import { TOOL_EFFECTS } from "./effect-mapping.js";
import { GATEWAY_JOB_TYPES, GATEWAY_PROPERTY } from "./gateways.js";
import { httpReadChecked } from "./http-method.js";
import type { Mappings } from "./selectors.js";
import { fromDefaults, fromMapping, NO_VALUES, selected } from "./selectors.js";
import type { ActivityEffect, CamundaActivity, CamundaJob } from "./types.js";

const isEffect = (value: unknown): value is ToolEffect =>
  (TOOL_EFFECTS as readonly unknown[]).includes(value);

const isFeel = (value: string): boolean => value.trimStart().startsWith("=");

/** The element's input mappings as a list of fields. */
const mappingsOf = (activity: CamundaActivity): Mappings => activity.inputMappings;

function keysOf(activity: CamundaActivity): string[] {
  const out: string[] = [];
  if (activity.templateId !== undefined) out.push(activity.templateId);
  if (activity.jobType !== undefined) out.push(activity.jobType);
  return out;
}

const READ_NATURES = new Set(["user-task", "engine", "pass-through", "event-sub-process"]);

function unknownReason(activity: CamundaActivity): string {
  const { nature, jobType, templateId } = activity;
  const template = templateId === undefined ? "" : ` (template '${templateId}')`;
  if (nature === "gateway") {
    return `a gateway tool (${activity.properties[GATEWAY_PROPERTY] ?? ""}) whose tools the remote server lists at run time`;
  }
  if (nature === "call-activity") return "a call activity: the process it calls is not read";
  if (nature === "sub-process") return "a sub-process: its inner elements are not read";
  if (jobType !== undefined) {
    return `no btv:toolEffect, toolEffects mapping or agentflow default covers job type '${jobType}'${template}`;
  }
  return `a ${activity.elementType} agentflow knows no effect for${template}`;
}

/** What the element runs, as the reasons say it. */
const runsText = (jobType: string | undefined): string =>
  jobType === undefined
    ? "the element has no job type"
    : isFeel(jobType)
      ? `the element's job type is the FEEL expression '${jobType}', known only at run time`
      : `the element's job type is '${jobType}'`;

/**
 * True when the element carries the gateway marker but its job type does not bear it out (its
 * nature is then not `gateway`): Camunda's agent would treat it as a gateway, yet what runs is
 * whatever its job type is, and the marker says nothing of that. So no default and no nature
 * decides its effect: only a `btv:toolEffect` or the organisation's mapping.
 */
function unborneGateway(activity: CamundaActivity): boolean {
  return Object.hasOwn(activity.properties, GATEWAY_PROPERTY) && activity.nature !== "gateway";
}

function unborneGatewayReason(activity: CamundaActivity): string {
  const marker = activity.properties[GATEWAY_PROPERTY] ?? "";
  const known = Object.hasOwn(GATEWAY_JOB_TYPES, marker) ? GATEWAY_JOB_TYPES[marker] : undefined;
  const runs =
    known === undefined
      ? `no connector of Camunda is a '${marker}' gateway`
      : `the ${marker} connector runs ${known.map((t) => `'${t}'`).join(" or ")}`;
  return `the gateway marker ${GATEWAY_PROPERTY}=${marker} is not borne out (${runs}, but ${runsText(activity.jobType)}): it is no gateway and delegates to nothing, and the marker does not say what it does`;
}

/**
 * The effect found by template id or job type, if what the element runs bears it out. A template
 * id is a label the modeller keeps; the job type says which connector runs, and its inputs what
 * that connector does. So a template agentflow knows decides only for an element that runs the
 * template's own job type: without a job type (a call activity, a sub-process, a task), with a
 * FEEL one, or with another, the effect is unknown. And when the template makes the element
 * `read`, agentflow's default for the job type, reading the inputs the connector decides by,
 * must not find more (a GitHub `getRepo` whose `method` is `delete`). Only a `read` claim needs
 * the job type's word: a template may know more of an API than the REST method does (an SMS
 * sent by POST notifies). The key is then the job type: a mapping of the template would meet
 * the same disagreement, one of the job type decides. The organisation's mapping of a template
 * agentflow has no default for is the organisation's word on it.
 */
function corroborated(activity: CamundaActivity, found: ActivityEffect): ActivityEffect {
  const { templateId, jobType } = activity;
  if (templateId === undefined || found.source === "unknown") return found;
  // Found by the job type: then the job type decided, and nothing needs bearing out.
  const key = found.key ?? "";
  if (key !== templateId && !key.startsWith(`${templateId} `)) return found;
  const template = defaultEffectOf(templateId);
  if (template === undefined) return found;
  // A key that is itself a job type is borne out by that job type alone.
  const expected = template.jobType ?? template.key;
  if (jobType !== expected) {
    return {
      source: "unknown",
      ...(jobType === undefined ? {} : { key: jobType }),
      reason: `the template '${templateId}' runs job type '${expected}', but ${runsText(jobType)}: the template does not say what it does`,
    };
  }
  const entry = defaultEffectOf(jobType);
  if (
    found.effect !== "read" ||
    entry === undefined ||
    !statesEffect(entry, (input) => selected(mappingsOf(activity), input) !== undefined)
  ) {
    return found;
  }
  const runs = fromDefaults(mappingsOf(activity), jobType);
  if (runs?.effect === undefined || effectRank(runs.effect) <= effectRank(found.effect))
    return found;
  return {
    source: "unknown",
    key: jobType,
    reason: `the signals disagree: ${found.key} says read, but job type ${runs.key ?? jobType} says ${runs.effect}`,
  };
}

/** The element's own job's effect (see the file comment for the order). */
function ownEffect(activity: CamundaActivity, mapping: ToolEffectsMapping): ActivityEffect {
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
      found = fromMapping(mappingsOf(activity), key, rule);
      break;
    }
  }
  if (found === undefined && unborneGateway(activity)) {
    const key = activity.jobType ?? activity.templateId;
    return {
      source: "unknown",
      ...(key === undefined ? {} : { key }),
      reason: unborneGatewayReason(activity),
    };
  }
  for (const key of keys) found ??= fromDefaults(mappingsOf(activity), key);
  // A REST GET reads only when no override header changes its method and the model does not
  // choose its server.
  if (found !== undefined)
    return httpReadChecked(mappingsOf(activity), corroborated(activity, found));
  if (READ_NATURES.has(activity.nature)) {
    return { effect: "read", source: "default", key: activity.nature };
  }
  return { source: "unknown", reason: unknownReason(activity) };
}

/** A job of the element as the keys and reasons name it: `execution listener (start)`. */
function jobLabel(job: CamundaJob): string {
  if (job.kind === "inbound") return "inbound connector";
  const kind = job.kind === "execution-listener" ? "execution listener" : "task listener";
  return `${kind} (${job.event ?? "no eventType"})`;
}

/**
 * The effect of a job the engine runs for the element besides its own: looked up by its type
 * in the mapping, then the defaults, else unknown. A listener's job gets the element's variables
 * at run time, which the BPMN does not fix for it, so its selector is taken as absent (the
 * default's most demanding effect); an inbound connector selects on the element's properties.
 */
function jobEffect(
  activity: CamundaActivity,
  job: CamundaJob,
  mapping: ToolEffectsMapping,
): ActivityEffect {
  const label = jobLabel(job);
  if (job.expression) {
    return {
      source: "unknown",
      reason: `the ${label}'s job type is the FEEL expression '${job.type}', known only at run time`,
    };
  }
  // An inbound connector's properties are flat names: read as fields all the same.
  const values = job.kind === "inbound" ? Object.entries(activity.properties) : NO_VALUES;
  const rule = Object.hasOwn(mapping, job.type) ? mapping[job.type] : undefined;
  const found =
    rule === undefined ? fromDefaults(values, job.type) : fromMapping(values, job.type, rule);
  if (found === undefined) {
    return {
      source: "unknown",
      key: job.type,
      reason: `no toolEffects mapping or agentflow default covers the ${label}'s job type '${job.type}'`,
    };
  }
  if (found.effect === undefined) return { ...found, reason: `${label}: ${found.reason ?? ""}` };
  return { ...found, key: `${label}: ${found.key ?? job.type}` };
}

/**
 * The element's effect: its own job's (see the file comment for the order), joined by that of
 * every other job the engine runs for it — its execution and task listeners, its inbound
 * connector — the most demanding winning. A `btv:toolEffect` states the element's own job only:
 * a listener is a job of its own, stated by mapping its job type.
 */
export function activityEffect(
  activity: CamundaActivity,
  mapping: ToolEffectsMapping,
): ActivityEffect {
  let out = ownEffect(activity, mapping);
  for (const job of activity.jobs ?? []) {
    const effect = jobEffect(activity, job, mapping);
    if (effectRank(effect.effect) > effectRank(out.effect)) out = effect;
  }
  return out;
}

/** True when the element's valid `btv:toolEffect` states the effect of all it leads to. */
export function statesWhole(activity: CamundaActivity): boolean {
  const btv = activity.btvToolEffect;
  return btv !== undefined && isEffect(btv.trim());
}

/** How demanding an effect is; unknown is the most demanding of all. */
export function effectRank(effect: ToolEffect | undefined): number {
  return effect === undefined ? TOOL_EFFECTS.length : TOOL_EFFECTS.indexOf(effect);
}
