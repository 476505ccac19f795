/**
 * An approval of the example loan process, its statement made with the library as `agentflow
 * approve` makes one (its decision from `checkProcess` with the example registry, every input by
 * its raw bytes, named relative to the repository root), signed by a key made at run time. The
 * report and the modeller tests compare edited processes and registries with it. The example is
 * blocked, which agentflow never signs (`createApproval` refuses it, `verify` says
 * PROCESS_BLOCKED): the envelope is signed by hand, as another tool could, since what these
 * tests show is what an approval file says, read and not trusted.
 */
import { readFileSync } from "node:fs";
import type { ApprovalStatement, Envelope } from "../../src/approval/index.js";
import { createStatement, processApproval } from "../../src/approval/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import type { GeneratedKeyPair } from "../../src/keys/index.js";
import { generateKeyPair, pemSigner } from "../../src/keys/index.js";
import { signedByHand } from "../approval/helpers.js";
import { loanXml, registry } from "./loan.js";

/** The process's subject name. */
export const LOAN_NAME = "processes/loan-origination.bpmn";

/** The registry files the decision used, by ref: their subject names under `registry/`. */
export const LOAN_REGISTRY: Readonly<Record<string, string>> = {
  "agnt-credit-risk@1.0.0": "credit-risk.agent.json",
  "agnt-offer-sender@1.0.0": "offer-sender.agent.json",
  "tool:credit-bureau-report@2.0.0": "credit-bureau-report.tool.json",
  "tool:send-loan-offer@1.1.0": "send-loan-offer.tool.json",
};

/** The approval, its statement and the key that signed it. */
export interface LoanApproval {
  readonly envelope: Envelope;
  readonly statement: ApprovalStatement;
  readonly key: GeneratedKeyPair;
}

/** Approves the example as it is in the repository, by `role` on `ticket` at a fixed time. */
export async function loanApproval(role = "credit-risk-officer"): Promise<LoanApproval> {
  const decision = await checkProcess(loanXml, registry);
  const nameOf = (ref: string): string | null => {
    const file = LOAN_REGISTRY[ref];
    return file === undefined ? null : `registry/${file}`;
  };
  const files = [
    { name: LOAN_NAME, kind: "process" as const, bytes: loanXml },
    ...Object.entries(LOAN_REGISTRY).map(([ref, file]) => ({
      name: `registry/${file}`,
      kind: ref.startsWith("tool:") ? ("tool" as const) : ("workflow" as const),
      bytes: readFileSync(`examples/registry/${file}`),
    })),
  ];
  const statement = createStatement({
    files,
    processes: [processApproval(LOAN_NAME, ["LoanOrigination"], decision, nameOf)],
    inputs: { paths: [LOAN_NAME], registry: ["registry"], config: null },
    ruleSet: { digest: decision.ruleSet.digest, preset: decision.ruleSet.preset },
    version: "0.1.0",
    approver: { role, ticket: "CHG-1042", time: "2026-01-15T10:00:00Z" },
  });
  const key = generateKeyPair();
  const envelope = await signedByHand(statement, [
    [pemSigner(key.privateKeyPem), statement.predicate.approver],
  ]);
  return { envelope, statement, key };
}
