/**
 * The two ways an approval call fails instead of answering: the input is not an approval at all
 * (malformed: the CLI exits 2), or the library refuses to sign (with the reasons as data).
 */
import type { ApprovalReason } from "./reason-data.js";

/** An envelope, statement or claim that cannot be read; the message says what and where. */
export class ApprovalFormatError extends Error {
  override readonly name = "ApprovalFormatError";
}

/** A refusal to sign, with every reason (the same reasons `verifyApproval` reports). */
export class ApprovalError extends Error {
  override readonly name = "ApprovalError";
  readonly reasons: readonly ApprovalReason[];

  constructor(reasons: readonly ApprovalReason[]) {
    super(reasons.map((r) => r.message).join("\n"));
    this.reasons = reasons;
  }
}
