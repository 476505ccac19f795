/**
 * Keys and statements for the approval tests: Ed25519 and P-256 keys straight from node:crypto
 * (not agentflow/keys, so that these tests do not lean on the code they could hide a bug in),
 * and a small statement of one process, one workflow, one tool and a config.
 */
import { createHash, generateKeyPairSync, sign, verify } from "node:crypto";
import type {
  ApprovalSigner,
  ApproverClaim,
  Envelope,
  EnvelopeSignature,
  ApprovalStatement,
  StatementInput,
  TaskApproval,
  TrustedKey,
} from "../../src/approval/index.js";
import { APPROVER_EXTENSION_KIND, createStatement } from "../../src/approval/index.js";
import { AGENTFLOW_VERSION } from "../../src/model/index.js";

/** A signer and the trusted key for its public half. */
export interface TestKey {
  readonly signer: ApprovalSigner;
  readonly trusted: (roles?: readonly string[]) => TrustedKey;
  readonly keyid: string;
}

/** A fresh key pair (Ed25519 unless P-256 is asked for; P-256 signs DER as DSSE tools do). */
export function testKey(algorithm: "ed25519" | "p256" = "ed25519"): TestKey {
  const pair =
    algorithm === "ed25519"
      ? generateKeyPairSync("ed25519")
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
  const der = pair.publicKey.export({ type: "spki", format: "der" });
  const keyid = createHash("sha256").update(der).digest("hex");
  const digest = algorithm === "ed25519" ? null : "sha256";
  return {
    keyid,
    signer: { keyid, sign: (data) => sign(digest, data, pair.privateKey) },
    trusted: (roles) => ({
      keyid,
      ...(roles === undefined ? {} : { roles }),
      verify: (data, signature) => verify(digest, data, pair.publicKey, signature),
    }),
  };
}

export const HASH_A = `sha256:${"a".repeat(64)}`;
export const HASH_B = `sha256:${"b".repeat(64)}`;

/** The review task of the sample process. */
export const REVIEW: TaskApproval = {
  elementId: "Review",
  source: "btv",
  ref: "agent:loan-review@1.0.0",
  declaredLevel: 2,
  justifiedLevel: 2,
  effectiveLevel: 2,
  gate: "reached",
  resolution: "registry",
  workflow: "registry/workflows/loan-review.yaml",
  contentHash: HASH_A,
  dependencies: [
    {
      kind: "tool",
      ref: "tool:pay@1.0.0",
      name: "registry/tools/pay.json",
      contentHash: HASH_B,
      failure: null,
    },
  ],
};

/** The sample statement's input; override what a test changes. */
export function sampleInput(overrides: Partial<StatementInput> = {}): StatementInput {
  return {
    files: [
      { name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\n" },
      { name: "registry/workflows/loan-review.yaml", kind: "workflow", bytes: "id: loan-review\n" },
      { name: "registry/tools/pay.json", kind: "tool", bytes: '{"id":"tool:pay"}\n' },
      { name: "agentflow.config.json", kind: "config", bytes: "{}\n" },
    ],
    processes: [
      { name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [REVIEW] },
    ],
    inputs: { paths: ["processes"], registry: ["registry"], config: "agentflow.config.json" },
    ruleSet: { digest: HASH_A, preset: "recommended" },
    version: AGENTFLOW_VERSION,
    approver: { role: "credit-officer", ticket: "CHG-1", time: "2026-01-31T09:30:00Z" },
    ...overrides,
  };
}

/** The sample statement. */
export const sampleStatement = (overrides: Partial<StatementInput> = {}): ApprovalStatement =>
  createStatement(sampleInput(overrides));

/** A JSON copy of a value, to edit freely in a test. */
export const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const CLAIM_TYPE = "application/vnd.agentflow.approver+json";
const pae = (type: string, body: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`DSSEv1 ${String(Buffer.byteLength(type))} ${type} ${String(body.length)} `),
    body,
  ]);

/**
 * An envelope of any JSON value, signed by each signer with its claim by hand, as DSSE and
 * docs/approval.md say: how another tool signs, and how a test makes an envelope agentflow's own
 * `createApproval` would refuse to make.
 */
export async function signedByHand(
  value: unknown,
  signers: readonly (readonly [ApprovalSigner, ApproverClaim])[],
): Promise<Envelope> {
  const payload = Buffer.from(JSON.stringify(value));
  const digest = createHash("sha256").update(payload).digest("hex");
  const signatures: EnvelopeSignature[] = [];
  for (const [signer, claim] of signers) {
    const sig = await signer.sign(pae("application/vnd.in-toto+json", payload));
    const body = JSON.stringify({ payloadSha256: digest, ...claim });
    const claimSig = await signer.sign(pae(CLAIM_TYPE, Buffer.from(body)));
    signatures.push({
      keyid: signer.keyid,
      sig: Buffer.from(sig).toString("base64"),
      extension: {
        kind: APPROVER_EXTENSION_KIND,
        ext: { ...claim, sig: Buffer.from(claimSig).toString("base64") },
      },
    });
  }
  return {
    payloadType: "application/vnd.in-toto+json",
    payload: payload.toString("base64"),
    signatures,
  };
}
