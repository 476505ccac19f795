/**
 * Why an approval does not hold, as data (`code`, `subject`, `data`) with its wording. Every
 * message of every reason is written here and nowhere else, so the CLI, the report and the
 * modeller say the same thing, and a message can change without touching the checks.
 */
import { CONTENT_HASH_PATTERN, SHA256_PATTERN, TIME_PATTERN } from "./internal.js";
import { APPROVAL_REASON_CODES } from "./reason-data.js";
import type {
  ApprovalReason,
  ApprovalReasonCode,
  ApprovalReasonData,
  ClaimProblem,
  StatementProblemKind,
} from "./reason-data.js";
import type { SubjectKind } from "./types.js";

/** A digest shortened for a message: 12 hex digits (after any `sha256:`), then `…`. */
export function shortDigest(digest: string): string {
  const prefix = digest.startsWith("sha256:") ? "sha256:" : "";
  const hex = digest.slice(prefix.length);
  return hex.length > 12 ? `${prefix}${hex.slice(0, 12)}…` : digest;
}

const KIND_WORDS: Readonly<Record<SubjectKind, string>> = {
  process: "a process",
  workflow: "a workflow",
  tool: "a tool contract",
  config: "the config",
  policy: "a policy pack",
  plugin: "a plugin",
};

const DURATION_UNITS: readonly (readonly [string, number])[] = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
];

/** `30d`, `12h`, `90s`: the largest unit that divides the duration exactly, else milliseconds. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of DURATION_UNITS) {
    if (ms > 0 && ms % size === 0) return `${String(ms / size)}${unit}`;
  }
  return `${String(ms)}ms`;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: "an object",
  array: "a list",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [SHA256_PATTERN]: "64 lowercase hex digits",
  [CONTENT_HASH_PATTERN]: '"sha256:" and 64 lowercase hex digits',
  [TIME_PATTERN]: "an ISO 8601 UTC time (2026-01-31T09:30:00Z)",
};

const PROBLEM_WORDS: Readonly<Record<StatementProblemKind, (detail: string) => string>> = {
  required: () => "missing",
  additionalProperties: () => "not a field of the statement's schema",
  type: (d) => `must be ${TYPE_WORDS[d] ?? d}`,
  const: (d) => `must be ${d}`,
  enum: (d) => `must be one of ${d}`,
  pattern: (d) => `must be ${PATTERN_WORDS[d] ?? `text matching ${d}`}`,
  minItems: (d) => `must hold at least ${d} item${d === "1" ? "" : "s"}`,
  minLength: () => "must not be empty",
  minimum: (d) => `must be at least ${d}`,
  schema: (d) => d,
  time: (d) => `"${d}" is not a time`,
  "process-not-subject": () => "names no subject of kind process",
  "config-not-subject": (d) => `names "${d}", which is not a subject of kind config`,
  "name-not-subject": (d) => `names "${d}", which is not a subject`,
  "processes-unsorted": (d) => `out of order: processes must be sorted by name (after "${d}")`,
  "process-duplicate": (d) => `names the process "${d}" again`,
  "tasks-unsorted": (d) => `out of order: agent tasks must be sorted by element id (after "${d}")`,
  "task-duplicate": (d) => `names the agent task "${d}" again`,
};

/** `/predicate/processes/0/name` as `predicate.processes[0].name`, as the envelope's messages read. */
function pointerPath(pointer: string): string {
  let path = "";
  for (const token of pointer.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    path += /^(0|[1-9][0-9]*)$/.test(key) ? `[${key}]` : path === "" ? key : `.${key}`;
  }
  return path;
}

/** A value in a decision change: `none` for null, digests shortened, lists in brackets. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (typeof value === "string")
    return /^(sha256:)?[0-9a-f]{64}$/.test(value) ? shortDigest(value) : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

const signature = (d: { readonly index: number; readonly keyid: string }): string =>
  `signature ${String(d.index + 1)} (${d.keyid === "" ? "no key id" : `key ${shortDigest(d.keyid)}`})`;

const CLAIM_WORDS: Readonly<Record<ClaimProblem, (value: string) => string>> = {
  missing: () => "carries no approver claim",
  signature: () => "its approver claim's signature does not verify with the same key",
  role: () => "its approver claim names no role",
  time: (v) => `its approver claim's time "${v}" is not an ISO 8601 UTC time`,
  future: (v) => `its approver claim's time ${v} is later than now`,
  control: () => "its approver claim's role or ticket holds a control character",
};

function decisionMessage(d: ApprovalReasonData["DECISION_CHANGED"]): string {
  const task = d.elementId === undefined ? "" : `agent task ${d.elementId}`;
  switch (d.change) {
    case "process-added":
      return `${d.process}: a decision added since the approval`;
    case "process-removed":
      return `${d.process}: its decision removed since the approval`;
    case "process-field":
      // The verdict in the words every gate output uses.
      if (d.field === "allowed") {
        return `${d.process}: promotion ${d.current === true ? "ALLOWED" : "BLOCKED"} now, approved ${d.approved === true ? "ALLOWED" : "BLOCKED"}`;
      }
      return `${d.process}: ${d.field ?? ""} ${shown(d.current)}, approved ${shown(d.approved)}`;
    case "task-added":
      return `${d.process}: ${task} added since the approval`;
    case "task-removed":
      return `${d.process}: ${task} removed since the approval`;
    case "task-field":
      return `${d.process}: ${task}: ${d.field ?? ""} ${shown(d.current)}, approved ${shown(d.approved)}`;
    case "dependency-added":
      return `${d.process}: ${task}: ${d.dependency ?? ""} added since the approval`;
    case "dependency-removed":
      return `${d.process}: ${task}: ${d.dependency ?? ""} removed since the approval`;
    case "dependency-field":
      return `${d.process}: ${task}: ${d.dependency ?? ""}: ${d.field ?? ""} ${shown(d.current)}, approved ${shown(d.approved)}`;
  }
}

const MESSAGES: {
  readonly [C in ApprovalReasonCode]: (data: ApprovalReasonData[C]) => string;
} = {
  ENVELOPE_PAYLOAD_TYPE: (d) => `envelope: payload type "${d.payloadType}" is not ${d.expected}`,
  STATEMENT_INVALID: (d) =>
    `statement${d.pointer === "" ? "" : ` ${pointerPath(d.pointer)}`}: ${PROBLEM_WORDS[d.problem](String(d.detail ?? ""))}`,
  SUBJECTS_UNSORTED: (d) =>
    `${d.name}: subject ${String(d.index + 1)} is out of order: subjects must be sorted by name (after ${d.previous})`,
  SUBJECT_DUPLICATE: (d) =>
    `${d.name}: named by subjects ${String(d.first + 1)} and ${String(d.index + 1)}`,
  PROCESS_BLOCKED: (d) =>
    `${d.process}: approved as promotion BLOCKED; a blocked promotion cannot be approved`,
  SIGNATURE_UNTRUSTED: (d) => `${signature(d)}: not from a trusted key`,
  SIGNATURE_INVALID: (d) => `${signature(d)}: does not verify with the trusted key`,
  CLAIM_INVALID: (d) => `${signature(d)}: ${CLAIM_WORDS[d.problem](d.value ?? "")}`,
  ROLE_NOT_GRANTED: (d) =>
    `${signature(d)}: role ${d.role} is not granted to this key (${d.granted.length === 0 ? "no role granted" : `granted: ${d.granted.join(", ")}`})`,
  KEY_REPEATED: (d) =>
    `${signature(d)}: the same key as signature ${String(d.first + 1)}, counted once`,
  THRESHOLD_NOT_MET: (d) =>
    `${String(d.threshold)} distinct trusted signature${d.threshold === 1 ? "" : "s"} needed, ${String(d.verified)} verified`,
  ROLE_MISSING: (d) => `role ${d.role}: no trusted signer`,
  APPROVAL_EXPIRED: (d) =>
    d.ageMs === null
      ? `approved at "${d.time}", which is not a time: --max-age ${formatDuration(d.maxAgeMs)} cannot be checked`
      : d.ageMs < 0
        ? `approved ${d.time}, later than now: --max-age ${formatDuration(d.maxAgeMs)} cannot be counted from a time to come`
        : `approved ${d.time}, older than --max-age ${formatDuration(d.maxAgeMs)}`,
  VERSION_CHANGED: (d) => `agentflow ${d.running} runs; ${d.approved} approved`,
  RULESET_CHANGED: (d) =>
    d.field === "digest"
      ? `rule set: digest ${shortDigest(d.current)} differs from the approved ${shortDigest(d.approved)}`
      : `rule set: preset ${d.current}, approved ${d.approved}`,
  SUBJECT_CHANGED: (d) =>
    d.field === "sha256"
      ? `${d.name}: sha256 differs from the approved ${shortDigest(d.approved)}`
      : `${d.name}: now ${KIND_WORDS[d.current as SubjectKind]}, approved as ${KIND_WORDS[d.approved as SubjectKind]}`,
  SUBJECT_REMOVED: (d) =>
    `${d.name}: removed since the approval (approved as ${KIND_WORDS[d.kind]})`,
  SUBJECT_UNUSED: (d) =>
    `${d.name}: ${d.current === d.sha256 ? "unchanged, but" : `sha256 differs from the approved ${shortDigest(d.sha256)}, and`} no longer an input of the decisions (approved as ${KIND_WORDS[d.kind]})`,
  SUBJECT_ADDED: (d) =>
    d.refs.length === 0
      ? `${d.name}: added since the approval (${KIND_WORDS[d.kind]})`
      : `${d.name}: added since the approval (${d.refs.join(", ")} now resolve${d.refs.length === 1 ? "s" : ""} to it)`,
  DECISION_CHANGED: decisionMessage,
};

/** The input (or process) a reason is about, from its data. */
function subjectOf(data: Readonly<Record<string, unknown>>): string | undefined {
  const name = data.name ?? data.process;
  return typeof name === "string" ? name : undefined;
}

/** A reason with its message. */
export function approvalReason<C extends ApprovalReasonCode>(
  code: C,
  data: ApprovalReasonData[C],
): ApprovalReason {
  const message = MESSAGES[code](data);
  const subject = subjectOf(data);
  return subject === undefined ? { code, message, data } : { code, subject, message, data };
}

/** Reasons in a stable order: by subject (none first), then code order, then message. */
export function sortReasons(reasons: readonly ApprovalReason[]): ApprovalReason[] {
  const rank = (code: ApprovalReasonCode): number => APPROVAL_REASON_CODES.indexOf(code);
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...reasons].sort(
    (a, b) =>
      compare(a.subject ?? "", b.subject ?? "") ||
      rank(a.code) - rank(b.code) ||
      compare(a.message, b.message),
  );
}
