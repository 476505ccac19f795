/**
 * The approval reasons as data: their codes, their shape, and the data each carries by code,
 * which is what a caller (the CLI's JSON and SARIF, the report) reads instead of parsing
 * messages. The words are in reasons.ts; the errors and checks that carry reasons import this
 * file, not the wording.
 */
import type { SubjectKind } from "./types.js";

/** Every reason code, in the order the checks run. */
export const APPROVAL_REASON_CODES = [
  "ENVELOPE_PAYLOAD_TYPE",
  "STATEMENT_INVALID",
  "SUBJECTS_UNSORTED",
  "SUBJECT_DUPLICATE",
  "PROCESS_BLOCKED",
  "SIGNATURE_UNTRUSTED",
  "SIGNATURE_INVALID",
  "CLAIM_INVALID",
  "ROLE_NOT_GRANTED",
  "KEY_REPEATED",
  "THRESHOLD_NOT_MET",
  "ROLE_MISSING",
  "APPROVAL_EXPIRED",
  "VERSION_CHANGED",
  "RULESET_CHANGED",
  "SUBJECT_CHANGED",
  "SUBJECT_REMOVED",
  "SUBJECT_UNUSED",
  "SUBJECT_ADDED",
  "DECISION_CHANGED",
] as const;

/** One of {@link APPROVAL_REASON_CODES}. */
export type ApprovalReasonCode = (typeof APPROVAL_REASON_CODES)[number];

/**
 * Why an approval does not hold. `subject` names the input (or process) concerned when there is
 * one; `data` holds the values the message words (signature `index` counts from 0 there, from 1
 * in the message).
 */
export interface ApprovalReason {
  readonly code: ApprovalReasonCode;
  readonly subject?: string;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What a statement's shape problem is: an Ajv keyword, or one of the checks past the schema. */
export type StatementProblemKind =
  | "required"
  | "additionalProperties"
  | "type"
  | "const"
  | "enum"
  | "pattern"
  | "minItems"
  | "minLength"
  | "minimum"
  | "schema"
  | "time"
  | "process-not-subject"
  | "config-not-subject"
  | "name-not-subject"
  | "processes-unsorted"
  | "process-duplicate"
  | "tasks-unsorted"
  | "task-duplicate";

/** Why a signature's approver claim does not count. */
export type ClaimProblem = "missing" | "signature" | "role" | "time" | "future" | "control";

/** What in a decision changed. */
export type DecisionChange =
  | "process-added"
  | "process-removed"
  | "process-field"
  | "task-added"
  | "task-removed"
  | "task-field"
  | "dependency-added"
  | "dependency-removed"
  | "dependency-field";

/** The data each code carries. */
export interface ApprovalReasonData {
  readonly ENVELOPE_PAYLOAD_TYPE: { readonly payloadType: string; readonly expected: string };
  readonly STATEMENT_INVALID: {
    readonly pointer: string;
    readonly problem: StatementProblemKind;
    readonly detail?: string | number;
  };
  readonly SUBJECTS_UNSORTED: {
    readonly name: string;
    readonly index: number;
    readonly previous: string;
  };
  readonly SUBJECT_DUPLICATE: {
    readonly name: string;
    readonly index: number;
    readonly first: number;
  };
  readonly PROCESS_BLOCKED: { readonly process: string };
  readonly SIGNATURE_UNTRUSTED: { readonly index: number; readonly keyid: string };
  readonly SIGNATURE_INVALID: { readonly index: number; readonly keyid: string };
  readonly CLAIM_INVALID: {
    readonly index: number;
    readonly keyid: string;
    readonly problem: ClaimProblem;
    readonly value?: string;
  };
  readonly ROLE_NOT_GRANTED: {
    readonly index: number;
    readonly keyid: string;
    readonly role: string;
    readonly granted: readonly string[];
  };
  readonly KEY_REPEATED: {
    readonly index: number;
    readonly keyid: string;
    readonly first: number;
  };
  readonly THRESHOLD_NOT_MET: { readonly threshold: number; readonly verified: number };
  readonly ROLE_MISSING: { readonly role: string };
  readonly APPROVAL_EXPIRED: {
    readonly time: string;
    readonly maxAgeMs: number;
    /** `null` when the time cannot be read. */
    readonly ageMs: number | null;
  };
  readonly VERSION_CHANGED: { readonly approved: string; readonly running: string };
  readonly RULESET_CHANGED: {
    readonly field: "digest" | "preset";
    readonly approved: string;
    readonly current: string;
  };
  readonly SUBJECT_CHANGED: {
    readonly name: string;
    readonly field: "sha256" | "kind";
    readonly approved: string;
    readonly current: string;
  };
  readonly SUBJECT_REMOVED: {
    readonly name: string;
    readonly kind: SubjectKind;
    readonly sha256: string;
  };
  /** An approved file still there that the decisions no longer read (its lookup changed). */
  readonly SUBJECT_UNUSED: {
    readonly name: string;
    readonly kind: SubjectKind;
    /** The approved sha256 and that of the file's bytes now (hex). */
    readonly sha256: string;
    readonly current: string;
  };
  readonly SUBJECT_ADDED: {
    readonly name: string;
    readonly kind: SubjectKind;
    readonly sha256: string;
    /** The refs the current decisions resolve to this file. */
    readonly refs: readonly string[];
  };
  readonly DECISION_CHANGED: {
    readonly process: string;
    readonly change: DecisionChange;
    readonly elementId?: string;
    /** `tool tool:pay@1.0.0` for a dependency change. */
    readonly dependency?: string;
    readonly field?: string;
    readonly approved?: unknown;
    readonly current?: unknown;
  };
}
