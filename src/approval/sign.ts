/**
 * Signing: the first approver creates the envelope, later approvers add their signatures to it.
 * Each signature carries its signer's claim (role, ticket, time) signed by the same key, so a
 * claim cannot be moved from one signature (or one approval) to another. The private key stays
 * behind `ApprovalSigner.sign`: a KMS or HSM can sit there.
 */
import { blockedReasons, statementProblems } from "./check.js";
import { compareStatements } from "./drift.js";
import { base64Bytes, encodeBase64, pae } from "./dsse.js";
import { ApprovalError } from "./errors.js";
import { claimBytes, isTime, statementBytes } from "./internal.js";
import type { ApprovalReason } from "./reason-data.js";
import { approvalReason } from "./reasons.js";
import { openEnvelope } from "./read.js";
import { APPROVER_EXTENSION_KIND, PAYLOAD_TYPE } from "./types.js";
import type {
  ApprovalSigner,
  ApprovalStatement,
  ApproverClaim,
  Envelope,
  EnvelopeSignature,
} from "./types.js";

/** Options of {@link signApproval}. */
export interface SignApprovalOptions {
  /**
   * The statement the files give now: signing is refused when the approved one differs from it,
   * so that a second approver signs what the first approved, not something else.
   */
  readonly current?: ApprovalStatement;
  /**
   * Approved subjects `current` leaves out whose files are still there: name → hex sha256 of
   * their bytes now, so that each is said to be no longer an input, not removed.
   */
  readonly present?: ReadonlyMap<string, string>;
}

/** The claim's own problems, as the reasons verify would give (signature `index`). */
function claimProblems(claim: ApproverClaim, index: number, keyid: string): ApprovalReason[] {
  if (claim.role === "")
    return [approvalReason("CLAIM_INVALID", { index, keyid, problem: "role" })];
  if (!isTime(claim.time)) {
    return [approvalReason("CLAIM_INVALID", { index, keyid, problem: "time", value: claim.time })];
  }
  return [];
}

async function signature(
  payload: Uint8Array,
  signer: ApprovalSigner,
  claim: ApproverClaim,
): Promise<EnvelopeSignature> {
  const sig = await signer.sign(pae(PAYLOAD_TYPE, payload));
  const claimSig = await signer.sign(claimBytes(payload, claim));
  const ext =
    claim.ticket === undefined
      ? { role: claim.role, time: claim.time, sig: encodeBase64(claimSig) }
      : { role: claim.role, ticket: claim.ticket, time: claim.time, sig: encodeBase64(claimSig) };
  return {
    keyid: signer.keyid,
    sig: encodeBase64(sig),
    extension: { kind: APPROVER_EXTENSION_KIND, ext },
  };
}

/**
 * A DSSE envelope of the statement, signed by `signer` with its claim (by default the
 * statement's approver). Throws `ApprovalError` when the statement or the claim is invalid, or
 * when the statement records a blocked promotion (`PROCESS_BLOCKED`).
 * The signer signs twice: the envelope (DSSE) and its claim (the signature's extension).
 *
 * @example
 * ```ts
 * import { createApproval, createStatement } from "agentflow/approval";
 * import type { StatementInput } from "agentflow/approval";
 * import { AGENTFLOW_VERSION } from "agentflow/model";
 * import { generateKeyPair, pemSigner } from "agentflow/keys";
 *
 * const input: StatementInput = {
 *   files: [{ name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\n" }],
 *   processes: [{ name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [] }],
 *   inputs: { paths: ["processes/loan.bpmn"], registry: [], config: null },
 *   ruleSet: { digest: "sha256:4bfaa9f8a7cb", preset: "recommended" },
 *   version: AGENTFLOW_VERSION,
 *   approver: { role: "credit-officer", time: "2026-01-31T09:30:00Z" },
 * };
 * const statement = createStatement(input);
 * const alice = generateKeyPair();
 * const envelope = await createApproval(statement, pemSigner(alice.privateKeyPem));
 * envelope.payloadType; // → "application/vnd.in-toto+json"
 * envelope.signatures[0]?.keyid === alice.keyid; // → true
 * envelope.signatures[0]?.extension?.ext.role; // → "credit-officer"
 * ```
 */
export async function createApproval(
  statement: ApprovalStatement,
  signer: ApprovalSigner,
  claim: ApproverClaim = statement.predicate.approver,
): Promise<Envelope> {
  const shape = statementProblems(statement);
  const problems = [
    ...shape,
    ...(shape.length === 0 ? blockedReasons(statement) : []),
    ...claimProblems(claim, 0, signer.keyid),
  ];
  if (problems.length > 0) throw new ApprovalError(problems);
  const payload = statementBytes(statement);
  return {
    payloadType: PAYLOAD_TYPE,
    payload: encodeBase64(payload),
    signatures: [await signature(payload, signer, claim)],
  };
}

/**
 * The index of the first signature `signer`'s key made: named by its keyid, or (a keyid is only a
 * hint, written in any case or left out) one its key verifies; -1 when none.
 */
async function firstSignatureBy(
  envelope: Envelope,
  payload: Uint8Array,
  signer: ApprovalSigner,
): Promise<number> {
  const signed = pae(envelope.payloadType, payload);
  for (const [i, s] of envelope.signatures.entries()) {
    if (s.keyid === signer.keyid) return i;
    const sig = base64Bytes(s.sig);
    if (sig !== undefined && signer.verify !== undefined && (await signer.verify(signed, sig))) {
      return i;
    }
  }
  return -1;
}

/**
 * The envelope with one more signature, by `signer` with `claim`. Throws `ApprovalError` (with
 * the reasons) when the key already signed it (under its keyid, or, for a signer that can verify,
 * under any keyid), when the envelope is not an approval statement or records a blocked
 * promotion, or when `options.current` is given and differs from the approved statement; throws
 * `ApprovalFormatError` when the envelope is malformed. Existing signatures are not checked:
 * `verifyApproval` does that, against keys the verifier trusts.
 *
 * @example
 * ```ts
 * import { ApprovalError, createApproval, createStatement, signApproval } from "agentflow/approval";
 * import type { StatementInput } from "agentflow/approval";
 * import { AGENTFLOW_VERSION } from "agentflow/model";
 * import { generateKeyPair, pemSigner } from "agentflow/keys";
 *
 * const input: StatementInput = {
 *   files: [{ name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\n" }],
 *   processes: [{ name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [] }],
 *   inputs: { paths: ["processes/loan.bpmn"], registry: [], config: null },
 *   ruleSet: { digest: "sha256:4bfaa9f8a7cb", preset: "recommended" },
 *   version: AGENTFLOW_VERSION,
 *   approver: { role: "credit-officer", time: "2026-01-31T09:30:00Z" },
 * };
 * const statement = createStatement(input);
 * const alice = pemSigner(generateKeyPair().privateKeyPem);
 * const bob = pemSigner(generateKeyPair("ecdsa-p256").privateKeyPem);
 * const first = await createApproval(statement, alice);
 * const claim = { role: "risk-officer", ticket: "CHG-1234", time: "2026-02-01T10:00:00Z" };
 * const both = await signApproval(first, bob, claim, { current: statement });
 * both.signatures.length; // → 2
 * try {
 *   await signApproval(both, bob, claim);
 * } catch (error) {
 *   error instanceof ApprovalError && error.reasons.map((r) => r.code); // → ["KEY_REPEATED"]
 * }
 * ```
 */
export async function signApproval(
  envelope: Envelope,
  signer: ApprovalSigner,
  claim: ApproverClaim,
  options: SignApprovalOptions = {},
): Promise<Envelope> {
  const opened = openEnvelope(envelope);
  const index = opened.envelope.signatures.length;
  const problems: ApprovalReason[] = [];
  if (opened.envelope.payloadType !== PAYLOAD_TYPE) {
    problems.push(
      approvalReason("ENVELOPE_PAYLOAD_TYPE", {
        payloadType: opened.envelope.payloadType,
        expected: PAYLOAD_TYPE,
      }),
    );
  }
  const first = await firstSignatureBy(opened.envelope, opened.payload, signer);
  if (first >= 0)
    problems.push(approvalReason("KEY_REPEATED", { index, keyid: signer.keyid, first }));
  problems.push(...claimProblems(claim, index, signer.keyid));
  const statementReasons = statementProblems(opened.value);
  problems.push(...statementReasons);
  if (statementReasons.length === 0) {
    const statement = opened.value as unknown as ApprovalStatement;
    problems.push(...blockedReasons(statement));
    if (options.current !== undefined)
      problems.push(...compareStatements(statement, options.current, options.present));
  }
  if (problems.length > 0) throw new ApprovalError(problems);
  return {
    payloadType: opened.envelope.payloadType,
    payload: opened.envelope.payload,
    signatures: [...opened.envelope.signatures, await signature(opened.payload, signer, claim)],
  };
}
