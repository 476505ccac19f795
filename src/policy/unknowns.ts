/**
 * A subject's facts copied by the fact model (fact-types.ts): only the documented names, so that
 * a rule, its message and a finding's `data` see exactly the model, and every `null` that means
 * unknown found on the way. An unknown level, effect or authorization is a slot the evaluator
 * fills with each value it can take; an unknown `tools` or `models` list cannot be enumerated,
 * nor can a `budget` (or a limit of it) that the subject's `unread` says could not be read, nor
 * a node's `model` beside a workflow's `models` that is unknown.
 * The walk follows the model's types, whose depth is fixed (a process, its agent tasks, their
 * tools), not the input's.
 */
import type { PolicySubject } from "./facts.js";
import type { FactType, Field, OpaqueKind, UnknownKind } from "./fact-types.js";
import { SUBJECT_TYPES } from "./fact-types.js";

/** Where one unknown sits in the copy: the object and its key. */
export interface Slot {
  readonly container: Record<string, unknown>;
  readonly key: string;
}

/** A subject's facts as rules see them, with the unknowns in them. */
export interface Projection {
  /** The copy (own, mutable by the evaluator while it tries values, then restored). */
  readonly facts: Record<string, unknown>;
  /** The slots of each kind of unknown, in document order. */
  readonly slots: ReadonlyMap<UnknownKind, readonly Slot[]>;
  /** Lists that are unknown (`null`) somewhere in the facts. */
  readonly opaque: ReadonlySet<OpaqueKind>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a value of `type` can hold an unknown (memoised per type object: the model is fixed). */
const unknownsIn = new WeakMap<FactType, boolean>();
function holdsUnknowns(type: FactType): boolean {
  const known = unknownsIn.get(type);
  if (known !== undefined) return known;
  // The model's types nest a few levels and never refer back to themselves.
  const holds =
    type.kind === "list"
      ? holdsUnknowns(type.item)
      : type.kind === "map"
        ? holdsUnknowns(type.value)
        : type.kind === "object"
          ? Object.values(type.fields).some(
              (f) => f.unknown !== undefined || f.opaque !== undefined || holdsUnknowns(f.type),
            )
          : type.kind === "any";
  unknownsIn.set(type, holds);
  return holds;
}

/**
 * The subject (an agent task, a workflow) whose fields are being copied: the names its `unread`
 * lists, and its facts, beside which a fact of its parts may be unknown (`unknownBeside`).
 */
interface Owner {
  readonly unread: ReadonlySet<unknown>;
  readonly facts: Readonly<Record<string, unknown>>;
}

/** Whether a null `field` of `owner`'s facts is the unknown `field.opaque` there. */
function opaqueIn(field: Field, owner: Owner): boolean {
  if (field.opaque === undefined) return false;
  if (field.unread !== undefined && !owner.unread.has(field.unread)) return false;
  if (field.unknownBeside === undefined) return true;
  // A missing fact beside it is not known either: unknown, failing closed.
  const beside = Object.hasOwn(owner.facts, field.unknownBeside)
    ? owner.facts[field.unknownBeside]
    : null;
  return beside === null || beside === undefined;
}

/** Copies `facts` of `subject` by the model and finds the unknowns in them. */
export function project(facts: unknown, subject: PolicySubject): Projection {
  const slots = new Map<UnknownKind, Slot[]>();
  const opaque = new Set<OpaqueKind>();

  const copy = (value: unknown, type: FactType, owner: Owner): unknown => {
    if (type.kind === "list") {
      // A list whose items hold no unknown (an agent task's downstream gates, by the thousand
      // in a large process) is shared, not copied: nothing in it is ever filled in.
      if (!holdsUnknowns(type.item)) return value;
      return Array.isArray(value)
        ? value.map((item: unknown) => copy(item, type.item, owner))
        : value;
    }
    if (type.kind === "map") {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = copy(item, type.value, owner);
      return out;
    }
    if (type.kind !== "object" || !isRecord(value)) return value;
    // An object with an `unread` list is a subject of its own (a process's agent task).
    const own = Object.hasOwn(type.fields, "unread") ? value.unread : undefined;
    const here: Owner = Object.hasOwn(type.fields, "unread")
      ? { unread: Array.isArray(own) ? new Set<unknown>(own) : owner.unread, facts: value }
      : owner;
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(type.fields)) {
      // A missing fact stays missing: reading it is a FEEL warning, which leaves `when` undecided.
      if (!Object.hasOwn(value, name)) continue;
      const item = value[name];
      out[name] = copy(item, field.type, here);
      if (item !== null) continue;
      const unknownHere =
        field.unknownWhen === undefined || (value[field.unknownWhen] ?? null) !== null;
      if (field.unknown !== undefined && unknownHere) {
        const list = slots.get(field.unknown) ?? [];
        list.push({ container: out, key: name });
        slots.set(field.unknown, list);
      }
      if (field.opaque !== undefined && opaqueIn(field, here)) opaque.add(field.opaque);
    }
    return out;
  };

  const copied = copy(facts, SUBJECT_TYPES[subject], { unread: new Set(), facts: {} });
  return { facts: isRecord(copied) ? copied : {}, slots, opaque };
}
