/**
 * An approval read for showing, not for trusting: the report and the modeller show what was
 * approved and by whom, and say that `agentflow verify` is what checks the signatures.
 */
import { statementProblems } from "./check.js";
import { base64Bytes, parseEnvelope, payloadValue } from "./dsse.js";
import { ApprovalFormatError } from "./errors.js";
import type { ApprovalStatement, Envelope } from "./types.js";

/** An envelope with its payload decoded. */
export interface OpenedEnvelope {
  readonly envelope: Envelope;
  readonly payload: Uint8Array;
  readonly value: Readonly<Record<string, unknown>>;
}

/** The envelope checked by `parseEnvelope`, with its payload's bytes and JSON value. */
export function openEnvelope(value: unknown): OpenedEnvelope {
  const envelope = parseEnvelope(value);
  const payload = base64Bytes(envelope.payload) ?? new Uint8Array();
  return { envelope, payload, value: payloadValue(payload) };
}

/** What {@link readApproval} returns. */
export interface ReadApproval {
  readonly envelope: Envelope;
  readonly statement: ApprovalStatement;
}

/**
 * The envelope and its statement, from the envelope's JSON value (or its JSON text). Throws
 * `ApprovalFormatError` when either is malformed, the statement's problems in the message.
 * Signatures are not checked: that is `verifyApproval`'s work.
 *
 * @example
 * ```ts
 * import { createApproval, createStatement, readApproval } from "agentflow/approval";
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
 * const envelope = await createApproval(createStatement(input), pemSigner(generateKeyPair().privateKeyPem));
 * const { statement } = readApproval(JSON.stringify(envelope));
 * statement.predicate.approver; // → { role: "credit-officer", time: "2026-01-31T09:30:00Z" }
 * statement.predicate.processes.map((p) => p.name); // → ["processes/loan.bpmn"]
 * ```
 */
export function readApproval(value: unknown): ReadApproval {
  let json = value;
  if (typeof value === "string") {
    try {
      json = JSON.parse(value);
    } catch {
      throw new ApprovalFormatError("envelope: not JSON");
    }
  }
  const opened = openEnvelope(json);
  const problems = statementProblems(opened.value);
  if (problems.length > 0) {
    throw new ApprovalFormatError(
      `payload: not an approval statement:\n${problems.map((p) => p.message).join("\n")}`,
    );
  }
  return { envelope: opened.envelope, statement: opened.value as unknown as ApprovalStatement };
}
