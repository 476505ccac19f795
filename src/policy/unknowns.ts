/**
 * A subject's facts copied by the fact model (fact-types.ts): only the documented names, so that
 * a rule, its message and a finding's `data` see exactly the model, and every `null` that means
 * unknown found on the way. An unknown level, effect or authorization is a slot the evaluator
 * fills with each value it can take; an unknown `tools` or `models` list cannot be enumerated,
 * nor can a `budget` (or a limit of it) that the subject's `unread` says could not be read.
 * The walk follows the model's types, whose depth is fixed (a process, its agent tasks, their
 * tools), not the input's.
 */
import type { PolicySubject } from "./facts.js";
import type { FactType, OpaqueKind, UnknownKind } from "./fact-types.js";
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

/** Copies `facts` of `subject` by the model and finds the unknowns in them. */
export function project(facts: unknown, subject: PolicySubject): Projection {
  const slots = new Map<UnknownKind, Slot[]>();
  const opaque = new Set<OpaqueKind>();

  // `unread` is the list of the subject (an agent task, a workflow) whose fields are copied: the
  // names of its facts whose null means unknown there (its budget's limits included).
  const copy = (value: unknown, type: FactType, unread: ReadonlySet<unknown>): unknown => {
    if (type.kind === "list") {
      // A list whose items hold no unknown (an agent task's downstream gates, by the thousand
      // in a large process) is shared, not copied: nothing in it is ever filled in.
      if (!holdsUnknowns(type.item)) return value;
      return Array.isArray(value)
        ? value.map((item: unknown) => copy(item, type.item, unread))
        : value;
    }
    if (type.kind === "map") {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = copy(item, type.value, unread);
      return out;
    }
    if (type.kind !== "object" || !isRecord(value)) return value;
    const own = Object.hasOwn(type.fields, "unread") ? value.unread : undefined;
    const here = Array.isArray(own) ? new Set<unknown>(own) : unread;
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
      const opaqueHere = field.unread === undefined || here.has(field.unread);
      if (field.opaque !== undefined && opaqueHere) opaque.add(field.opaque);
    }
    return out;
  };

  const copied = copy(facts, SUBJECT_TYPES[subject], new Set());
  return { facts: isRecord(copied) ? copied : {}, slots, opaque };
}
