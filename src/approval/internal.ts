/**
 * What the approval's files share and users do not: the payload's bytes, the bytes a signer's
 * claim is signed as, and the fields of a task decision compared by drift.ts and changed.ts.
 */
import { sha256Bytes } from "../model/internal.js";
import { pae } from "./dsse.js";
import { APPROVER_EXTENSION_KIND } from "./types.js";
import type {
  ApprovalStatement,
  ApproverClaim,
  DependencyApproval,
  TaskApproval,
} from "./types.js";

const encoder = new TextEncoder();

/** The payload: the statement's `JSON.stringify`, UTF-8. Its fields' order is createStatement's. */
export function statementBytes(statement: ApprovalStatement): Uint8Array {
  return encoder.encode(JSON.stringify(statement));
}

/**
 * What a claim's signature covers: PAE(extension kind, the UTF-8 JSON of `payloadSha256`, `role`,
 * `ticket` (left out when absent) and `time`, in that order). The payload digest ties the claim
 * to this statement, so a claim cannot be moved onto another envelope.
 */
export function claimBytes(payload: Uint8Array, claim: ApproverClaim): Uint8Array {
  const signed =
    claim.ticket === undefined
      ? { payloadSha256: sha256Bytes(payload), role: claim.role, time: claim.time }
      : {
          payloadSha256: sha256Bytes(payload),
          role: claim.role,
          ticket: claim.ticket,
          time: claim.time,
        };
  return pae(APPROVER_EXTENSION_KIND, encoder.encode(JSON.stringify(signed)));
}

/** A sha256 digest: 64 lowercase hex digits. */
export const SHA256_PATTERN = "^[0-9a-f]{64}$";

/** `sha256:` and 64 lowercase hex digits: a canonical document's content hash. */
export const CONTENT_HASH_PATTERN = "^sha256:[0-9a-f]{64}$";

/** An ISO 8601 UTC time as `Date#toISOString` writes it, with or without milliseconds. */
export const TIME_PATTERN =
  "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$";

/** Whether `time` is an ISO 8601 UTC time of a real instant (`2026-02-30` is not). */
export function isTime(time: string): boolean {
  if (!new RegExp(TIME_PATTERN).test(time)) return false;
  const ms = Date.parse(time);
  // Date.parse rolls 2026-02-30 over to March; the written date must survive the round trip.
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 19) === time.slice(0, 19);
}

/** The fields of a task decision that drift compares, in the order reasons name them. */
export const TASK_FIELDS = [
  "source",
  "ref",
  "declaredLevel",
  "justifiedLevel",
  "effectiveLevel",
  "gate",
  "resolution",
  "workflow",
  "contentHash",
] as const satisfies readonly (keyof TaskApproval)[];

/** The fields of a dependency drift compares (its kind and ref are its key). */
export const DEPENDENCY_FIELDS = [
  "name",
  "contentHash",
  "failure",
] as const satisfies readonly (keyof DependencyApproval)[];

/** `tool tool:pay@1.0.0`: a dependency's key, as messages name it. */
export const dependencyKey = (d: DependencyApproval): string => `${d.kind} ${d.ref}`;

/** A task's dependencies by key; a key resolved twice (two registries) keeps every entry. */
export function dependenciesByKey(task: TaskApproval): Map<string, readonly DependencyApproval[]> {
  const out = new Map<string, DependencyApproval[]>();
  for (const dependency of task.dependencies) {
    const key = dependencyKey(dependency);
    const list = out.get(key);
    if (list === undefined) out.set(key, [dependency]);
    else list.push(dependency);
  }
  return out;
}

/** A field's value of one or more entries: the value itself for one, the list for several. */
export function fieldValue(
  entries: readonly DependencyApproval[],
  field: (typeof DEPENDENCY_FIELDS)[number],
): unknown {
  return entries.length === 1 ? entries[0]?.[field] : entries.map((e) => e[field]);
}

/** Equality of the JSON values a statement holds (order of arrays counts). */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Strict code-unit order, as subjects and processes are sorted. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
