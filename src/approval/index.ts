/**
 * Approvals (docs/approval.md): an in-toto Statement v1 of every input and every decision, in a
 * DSSE envelope signed by one or more approvers; verified offline against keys the verifier trusts,
 * and against the statement the files give now. Browser-safe: keys and files are the caller's
 * (`agentflow/keys` reads PEM keys under Node).
 *
 * @packageDocumentation
 */
export type * from "./types.js";
export { APPROVER_EXTENSION_KIND, PAYLOAD_TYPE, PREDICATE_TYPE, STATEMENT_TYPE } from "./types.js";
export type { ApprovalReason, ApprovalReasonCode } from "./reason-data.js";
export type {
  ApprovalReasonData,
  ClaimProblem,
  DecisionChange,
  StatementProblemKind,
} from "./reason-data.js";
export { APPROVAL_REASON_CODES } from "./reason-data.js";
export { ApprovalError, ApprovalFormatError } from "./errors.js";
export { APPROVAL_PREDICATE_SCHEMA } from "./predicate-schema.js";
export { decodeBase64, encodeBase64, pae, parseEnvelope } from "./dsse.js";
export type { StatementFile, StatementInput } from "./statement.js";
export { createStatement } from "./statement.js";
export type { SubjectNameOf } from "./decision.js";
export { processApproval, taskApproval } from "./decision.js";
export { statementProblems } from "./check.js";
export { compareStatements } from "./drift.js";
export type { SignApprovalOptions } from "./sign.js";
export { createApproval, signApproval } from "./sign.js";
export type { VerifiedSigner, VerifyOptions, VerifyResult } from "./verify.js";
export { verifyApproval } from "./verify.js";
export type { ReadApproval } from "./read.js";
export { readApproval } from "./read.js";
export type { TaskChange } from "./changed.js";
export { changedTasks } from "./changed.js";
