/**
 * What a `workflow` waiver covers in a process (red team: a waiver of a workflow also waived
 * AGENT_GATE_UNREACHABLE, in every process running it): what is found of the workflow itself —
 * a pack's `workflow` and `tool` rules, its validation errors — never what the process makes of
 * the agent (the gates on its paths, a pack's `agentTask` and `process` rules), which is waived
 * per process.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import type { Waiver } from "../../src/policy/index.js";

const DIR = "test/fixtures/fail-closed/";
const XML = readFileSync(`${DIR}contract-signing.bpmn`, "utf8");
const doc = (name: string): unknown =>
  JSON.parse(readFileSync(`${DIR}registry/${name}`, "utf8")) as unknown;
const DOCS: Readonly<Record<string, unknown>> = {
  "agnt-contract-signer@1.0.0": doc("contract-signer.agent.json"),
  "agnt-terms-checker@1.0.0": doc("terms-checker.agent.json"),
  "tool:sign-contract@1.0.0": doc("sign-contract.tool.json"),
};
const PACK = {
  kind: "PolicyPack",
  name: "t",
  version: "1",
  rules: [
    { id: "wf", severity: "error", for: "workflow", when: 'some m in models satisfies m != "x"' },
    { id: "tl", severity: "error", for: "tool", when: 'effect != "read"' },
    { id: "task", severity: "error", for: "agentTask", when: "level >= 4" },
    { id: "proc", severity: "error", for: "process", when: "count(gates) = 0" },
  ],
};
const GRANT = { reason: "reviewed", grantedBy: "cro", expires: "2099-01-01" };

/** What a finding is about: a workflow rule's workflow, a tool rule's tool. */
function about(d: Diagnostic): string {
  if (d.code === "t/wf") return ` ${String(d.data.id)}@${String(d.data.version)}`;
  if (d.code === "t/tl") return ` ${String(d.data.ref)}`;
  return "";
}

/** `code (subject): waived?` of every blocking finding at the agent task or its process. */
async function waived(waivers: readonly Waiver[]): Promise<Record<string, boolean>> {
  const decision = await checkProcess(XML, {
    resolveWorkflow: (ref) => DOCS[ref],
    resolveTool: (ref) => DOCS[ref],
    policies: [PACK],
    waivers,
    today: "2027-01-15",
  });
  return Object.fromEntries(
    [...decision.blocking, ...decision.warnings]
      .filter((d) => d.severity === "error")
      .map((d) => [`${d.code}${about(d)}`, d.waived !== undefined]),
  );
}

describe("a workflow waiver in a process", () => {
  // At level 4 the signer needs a gate for its commitment: TOOL_EFFECT_NEEDS_GATE, no other.
  const all = ["TOOL_EFFECT_NEEDS_GATE", "t/wf", "t/tl", "t/task", "t/proc"];

  it("covers the workflow's own findings, never the process's", async () => {
    const waivers = all.map((rule) => ({ rule, workflow: "agnt-contract-signer@1.0.0", ...GRANT }));
    expect(await waived(waivers)).toEqual({
      TOOL_EFFECT_NEEDS_GATE: false,
      "t/wf agnt-contract-signer@1.0.0": true,
      "t/tl tool:sign-contract@1.0.0": true,
      // Its delegate's findings are the delegate's: a waiver names the delegate to cover them.
      "t/wf agnt-terms-checker@1.0.0": false,
      "t/task": false,
      "t/proc": false,
    });
  });

  it("a process waiver (with the element) covers them all", async () => {
    const waivers = all.map((rule) => ({ rule, process: "ContractSigning", ...GRANT }));
    expect(Object.values(await waived(waivers)).every(Boolean)).toBe(true);
  });
});
