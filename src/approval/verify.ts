/**
 * Verification for the deploy job: signatures from distinct keys the verifier trusts (never a
 * key the envelope names), each with its signer's signed claim; roles, age and version; and,
 * given the statement the files give now, every difference from the approved one. Fails closed:
 * anything that cannot be checked is a reason, and `ok` holds only when there is none.
 */
import { AGENTFLOW_VERSION } from "../model/index.js";
import { blockedReasons, statementProblems } from "./check.js";
import { compareStatements } from "./drift.js";
import { base64Bytes, pae } from "./dsse.js";
import { claimBytes, isTime } from "./internal.js";
import type { ApprovalReason } from "./reason-data.js";
import { approvalReason } from "./reasons.js";
import { openEnvelope } from "./read.js";
import { APPROVER_EXTENSION_KIND, PAYLOAD_TYPE } from "./types.js";
import type { ApprovalStatement, EnvelopeSignature, Envelope, TrustedKey } from "./types.js";

/** What {@link verifyApproval} checks against. */
export interface VerifyOptions {
  /** The keys to trust, from the verifier's own configuration. */
  readonly trustedKeys: readonly TrustedKey[];
  /** Distinct trusted keys needed (default 1). */
  readonly threshold?: number;
  /** Roles that must each be among the verified signers' claims. */
  readonly requireRoles?: readonly string[];
  /** The oldest an approval may be, judged on the statement's approver time. */
  readonly maxAgeMs?: number;
  /** The time to judge age at (default: now). */
  readonly now?: Date;
  /** The statement the files give now; every difference from the approved one is a reason. */
  readonly current?: ApprovalStatement;
  /**
   * Approved subjects `current` leaves out whose files are still there: name → hex sha256 of
   * their bytes now, so that each is said to be no longer an input, not removed.
   */
  readonly present?: ReadonlyMap<string, string>;
  /** The running agentflow's version (default `AGENTFLOW_VERSION`); the approved must equal it. */
  readonly version?: string;
}

/** A signature that verified under a trusted key, with a valid claim in a granted role. */
export interface VerifiedSigner {
  /** Which signature of the envelope (from 0). */
  readonly index: number;
  /** The trusted key that verified it (the envelope's keyid is only a hint). */
  readonly keyid: string;
  readonly role: string;
  readonly ticket?: string;
  readonly time: string;
}

/** The verdict: `ok` when there is no reason. */
export interface VerifyResult {
  readonly ok: boolean;
  readonly reasons: readonly ApprovalReason[];
  readonly signers: readonly VerifiedSigner[];
  /** The approved statement; `undefined` when it is not a valid statement. */
  readonly statement: ApprovalStatement | undefined;
}

/** Whether a trusted key verifies; a key that throws has not verified. */
async function verifies(key: TrustedKey, data: Uint8Array, sig: Uint8Array): Promise<boolean> {
  try {
    // A callback written in JavaScript may answer anything: only `true` verifies.
    const answer: unknown = await key.verify(data, sig);
    return answer === true;
  } catch {
    return false;
  }
}

interface Checked {
  readonly reasons: ApprovalReason[];
  readonly signer?: VerifiedSigner;
}

/** How far a signer's clock may run ahead of the verifier's before its claim is refused. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Role or ticket text a CI log would print: a control character could forge a line there. */
const CONTROL = /\p{Cc}/u;

/**
 * One signature: trusted key, DSSE signature, signed claim, granted role. The envelope's `keyid`
 * is a hint, as DSSE says: the trusted key it names is tried first, then every other trusted
 * key, and the signature counts for the key that verifies it (never for a key the envelope
 * carries or names alone).
 */
async function checkSignature(
  envelope: Envelope,
  payload: Uint8Array,
  signature: EnvelopeSignature,
  index: number,
  trustedKeys: readonly TrustedKey[],
  now: Date,
): Promise<Checked> {
  const hint = signature.keyid.toLowerCase();
  const named = trustedKeys.filter((k) => k.keyid === hint);
  const candidates = [...named, ...trustedKeys.filter((k) => k.keyid !== hint)];
  const sig = base64Bytes(signature.sig) ?? new Uint8Array();
  const signed = pae(envelope.payloadType, payload);
  let key: TrustedKey | undefined;
  for (const candidate of candidates) {
    if (await verifies(candidate, signed, sig)) {
      key = candidate;
      break;
    }
  }
  const shown = signature.keyid;
  if (key === undefined) {
    const code = named.length > 0 ? "SIGNATURE_INVALID" : "SIGNATURE_UNTRUSTED";
    return { reasons: [approvalReason(code, { index, keyid: shown })] };
  }
  const keyid = key.keyid;
  const extension = signature.extension;
  if (extension?.kind !== APPROVER_EXTENSION_KIND) {
    return { reasons: [approvalReason("CLAIM_INVALID", { index, keyid, problem: "missing" })] };
  }
  const { sig: claimSig, ...claim } = extension.ext;
  if (claim.role === "")
    return { reasons: [approvalReason("CLAIM_INVALID", { index, keyid, problem: "role" })] };
  if (!isTime(claim.time)) {
    return {
      reasons: [
        approvalReason("CLAIM_INVALID", { index, keyid, problem: "time", value: claim.time }),
      ],
    };
  }
  if (Date.parse(claim.time) > now.getTime() + CLOCK_SKEW_MS) {
    return {
      reasons: [
        approvalReason("CLAIM_INVALID", { index, keyid, problem: "future", value: claim.time }),
      ],
    };
  }
  if (CONTROL.test(claim.role) || (claim.ticket !== undefined && CONTROL.test(claim.ticket))) {
    return { reasons: [approvalReason("CLAIM_INVALID", { index, keyid, problem: "control" })] };
  }
  if (
    !(await verifies(key, claimBytes(payload, claim), base64Bytes(claimSig) ?? new Uint8Array()))
  ) {
    return { reasons: [approvalReason("CLAIM_INVALID", { index, keyid, problem: "signature" })] };
  }
  if (key.roles !== undefined && !key.roles.includes(claim.role)) {
    return {
      reasons: [
        approvalReason("ROLE_NOT_GRANTED", {
          index,
          keyid,
          role: claim.role,
          granted: [...key.roles],
        }),
      ],
    };
  }
  return { reasons: [], signer: { index, keyid, ...claim } };
}

function ageReasons(statement: ApprovalStatement, maxAgeMs: number, now: Date): ApprovalReason[] {
  const time = statement.predicate.approver.time;
  const ms = Date.parse(time);
  if (!Number.isFinite(ms))
    return [approvalReason("APPROVAL_EXPIRED", { time, maxAgeMs, ageMs: null })];
  const ageMs = now.getTime() - ms;
  // A time to come would never grow old: refused, beyond the clocks' skew.
  const bad = ageMs > maxAgeMs || ageMs < -CLOCK_SKEW_MS;
  return bad ? [approvalReason("APPROVAL_EXPIRED", { time, maxAgeMs, ageMs })] : [];
}

/**
 * Verifies an approval envelope. Throws `ApprovalFormatError` when the envelope is malformed
 * (the CLI's exit 2) and `RangeError` for a threshold or maximum age that is not a positive
 * number; everything else is a reason in the result.
 *
 * @example
 * ```ts
 * import { createApproval, createStatement, verifyApproval } from "agentflow/approval";
 * import type { StatementInput } from "agentflow/approval";
 * import { AGENTFLOW_VERSION } from "agentflow/model";
 * import { generateKeyPair, pemSigner, pemTrustedKey } from "agentflow/keys";
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
 * const trustedKeys = [pemTrustedKey(alice.publicKeyPem, "trusted/alice.pub", ["credit-officer"])];
 *
 * const result = await verifyApproval(envelope, { trustedKeys, current: statement });
 * result.ok; // → true
 * result.signers.map((s) => s.role); // → ["credit-officer"]
 *
 * const strict = await verifyApproval(envelope, { trustedKeys, threshold: 2, requireRoles: ["risk-officer"] });
 * strict.reasons.map((r) => r.message);
 * // → ["2 distinct trusted signatures needed, 1 verified", "role risk-officer: no trusted signer"]
 * const late = await verifyApproval(envelope, {
 *   trustedKeys,
 *   maxAgeMs: 30 * 86_400_000,
 *   now: new Date("2026-04-01T00:00:00Z"),
 * });
 * late.reasons.map((r) => r.message); // → ["approved 2026-01-31T09:30:00Z, older than --max-age 30d"]
 * ```
 */
export async function verifyApproval(
  envelope: Envelope,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const threshold = options.threshold ?? 1;
  if (!Number.isInteger(threshold) || threshold < 1) {
    throw new RangeError(`threshold must be a positive integer, not ${String(threshold)}`);
  }
  if (options.maxAgeMs !== undefined && !(options.maxAgeMs >= 0)) {
    throw new RangeError(`maxAgeMs must be a non-negative number, not ${String(options.maxAgeMs)}`);
  }
  const opened = openEnvelope(envelope);
  const reasons: ApprovalReason[] = [];
  if (opened.envelope.payloadType !== PAYLOAD_TYPE) {
    reasons.push(
      approvalReason("ENVELOPE_PAYLOAD_TYPE", {
        payloadType: opened.envelope.payloadType,
        expected: PAYLOAD_TYPE,
      }),
    );
  }
  const problems = statementProblems(opened.value);
  reasons.push(...problems);
  const statement =
    problems.length === 0 ? (opened.value as unknown as ApprovalStatement) : undefined;

  const signers: VerifiedSigner[] = [];
  const now = options.now ?? new Date();
  // Which signature each key first verified: a key is counted once, however it is named.
  const firstOf = new Map<string, number>();
  for (const [index, signature] of opened.envelope.signatures.entries()) {
    const checked = await checkSignature(
      opened.envelope,
      opened.payload,
      signature,
      index,
      options.trustedKeys,
      now,
    );
    reasons.push(...checked.reasons);
    const signer = checked.signer;
    if (signer === undefined) continue;
    const first = firstOf.get(signer.keyid);
    if (first !== undefined) {
      reasons.push(approvalReason("KEY_REPEATED", { index, keyid: signer.keyid, first }));
    } else {
      firstOf.set(signer.keyid, index);
      signers.push(signer);
    }
  }
  if (signers.length < threshold) {
    reasons.push(approvalReason("THRESHOLD_NOT_MET", { threshold, verified: signers.length }));
  }
  for (const role of new Set(options.requireRoles ?? [])) {
    if (!signers.some((s) => s.role === role))
      reasons.push(approvalReason("ROLE_MISSING", { role }));
  }
  if (statement !== undefined) {
    reasons.push(...blockedReasons(statement));
    if (options.maxAgeMs !== undefined) {
      reasons.push(...ageReasons(statement, options.maxAgeMs, now));
    }
    const running = options.version ?? AGENTFLOW_VERSION;
    const approved = statement.predicate.agentflow.version;
    if (approved !== running)
      reasons.push(approvalReason("VERSION_CHANGED", { approved, running }));
    if (options.current !== undefined) {
      const seen = new Set(reasons.map((r) => r.message));
      reasons.push(
        ...compareStatements(statement, options.current, options.present).filter(
          (r) => !seen.has(r.message),
        ),
      );
    }
  }
  return { ok: reasons.length === 0, reasons, signers, statement };
}
