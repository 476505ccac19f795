/**
 * A decision's findings worded for the person drawing the process: where a message names an
 * element by its id, it names it by its name instead, with the id beside a name that several
 * elements share, and by the id alone when the element has no name. A modeller generates ids
 * (`Activity_0x8k2lm`) that nobody reads; the designer knows the task as "Assess credit risk".
 *
 * The wording stays the rule's: each message is worded again from the rule's own template
 * (`meta.messages`, the one whose interpolation gives the message as it was), each placeholder
 * showing a label where its value is an element id (or a list or path of them), at any depth of
 * `data`. `data` and `target` keep the ids, for machines. A message no template gives (a parse
 * problem's, one a host worded itself) is left as it is.
 */
import type { Diagnostic } from "../model/index.js";
import { WAIVER_FINDINGS } from "../policy/waiver-meta.js";
import type { RuleMeta } from "../rules/index.js";
import { interpolate } from "../rules/internal.js";
import type { GateDecision } from "./decision.js";
import type { CompiledGateOptions } from "./gate-options.js";
import type { ModdleObject } from "./moddle.js";
import { setupOf } from "./evaluate-setup.js";

/** The moddle properties that hold named elements, walked from the definitions. */
const CHILDREN = ["rootElements", "flowElements", "participants", "laneSets", "lanes"] as const;

const isObject = (value: unknown): value is ModdleObject =>
  typeof value === "object" && value !== null;

/**
 * The label of every element of `definitions` with an id: its name when no other element has
 * that name, `name (id)` when one does, the id when it has none (or a blank one). Iterative.
 */
export function elementLabels(definitions: ModdleObject): ReadonlyMap<string, string> {
  const named: [id: string, name: string | undefined][] = [];
  const stack: unknown[] = [definitions];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (!isObject(item)) continue;
    const { id, name } = item;
    if (typeof id === "string") {
      const trimmed = typeof name === "string" ? name.trim() : "";
      named.push([id, trimmed === "" ? undefined : trimmed]);
    }
    for (const key of CHILDREN) {
      const children = item[key];
      if (Array.isArray(children)) for (const child of children) stack.push(child);
    }
  }
  const uses = new Map<string, number>();
  for (const [, name] of named) if (name !== undefined) uses.set(name, (uses.get(name) ?? 0) + 1);
  const labels = new Map<string, string>();
  for (const [id, name] of named) {
    const label = name === undefined ? id : (uses.get(name) ?? 0) > 1 ? `${name} (${id})` : name;
    labels.set(id, label);
  }
  return labels;
}

const PATH_STEP = " → ";

/**
 * A data value with its element ids as labels: an id, a list of ids, or a path of ids joined by
 * arrows (as the gate rules write a bypass path); anything else as it is.
 */
function labelled(value: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") {
    const label = labels.get(value);
    if (label !== undefined) return label;
    if (!value.includes(PATH_STEP)) return value;
    const steps = value.split(PATH_STEP);
    return steps.every((s) => labels.has(s))
      ? steps.map((s) => labels.get(s) ?? s).join(PATH_STEP)
      : value;
  }
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) {
    return value.every((v) => labels.has(v)) ? value.map((v) => labels.get(v) ?? v) : value;
  }
  return value;
}

/**
 * One finding worded with labels, when a template of its meta gives its message; else itself.
 * Every placeholder's value is labelled where it is, nested ones too: a pack names its agent
 * task as `{{element.id}}` inside the subject's facts, its path as a top-level `{{bypassPath}}`,
 * and both are the same diagram's elements.
 */
function named(
  diagnostic: Diagnostic,
  meta: RuleMeta | undefined,
  labels: ReadonlyMap<string, string>,
): Diagnostic {
  if (meta === undefined) return diagnostic;
  const { data } = diagnostic;
  const template = Object.values(meta.messages).find(
    (t) => interpolate(t, data) === diagnostic.message,
  );
  if (template === undefined) return diagnostic;
  const shown = (value: unknown): unknown => labelled(value, labels);
  const message = interpolate(template, data, shown);
  const remediation =
    meta.remediation !== undefined && diagnostic.remediation === interpolate(meta.remediation, data)
      ? interpolate(meta.remediation, data, shown)
      : diagnostic.remediation;
  if (message === diagnostic.message && remediation === diagnostic.remediation) return diagnostic;
  return { ...diagnostic, message, ...(remediation === undefined ? {} : { remediation }) };
}

/**
 * The metas by code, per options object (the options of a modeller never change): the rules',
 * and the waivers' own findings', which name the waived element and its process too.
 */
const metas = new WeakMap<CompiledGateOptions, ReadonlyMap<string, RuleMeta>>();

function metasOf(options: CompiledGateOptions): ReadonlyMap<string, RuleMeta> {
  let byCode = metas.get(options);
  if (byCode === undefined) {
    byCode = new Map([
      ...Object.values(WAIVER_FINDINGS).map((meta) => [meta.code, meta] as const),
      ...setupOf(options).rules.map(({ rule }) => [rule.meta.code, rule.meta] as const),
    ]);
    metas.set(options, byCode);
  }
  return byCode;
}

/**
 * `decision` with its findings' messages naming elements by their labels
 * ({@link elementLabels}); everything else, and every `data`, as it was. `options` are those the
 * decision was evaluated with, their packs compiled (`compiledOptions`), which name the rules.
 */
export function namedDecision(
  decision: GateDecision,
  definitions: ModdleObject,
  options: CompiledGateOptions,
): GateDecision {
  const labels = elementLabels(definitions);
  const byCode = metasOf(options);
  const name = (d: Diagnostic): Diagnostic => named(d, byCode.get(d.code), labels);
  return {
    ...decision,
    blocking: decision.blocking.map(name),
    warnings: decision.warnings.map(name),
  };
}
