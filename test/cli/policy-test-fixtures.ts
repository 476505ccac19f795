/**
 * Folders of policy tests for the `agentflow policy test` tests: a pack (`acme`), a registry (an
 * offer agent that commits the bank, its tool, a second agent on another model), BPMN processes
 * built to order, and the io that captures what the command prints.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CliIo } from "../../src/cli/io.js";
import { policyTestCommand } from "../../src/cli/policy-test.js";
import { tempDir } from "../temp.js";

/** A pack with one rule per subject kind, and a waiver on SmallLoans/Offer. */
export const ACME = `kind: PolicyPack
name: acme
version: 1.0.0
rules:
  - id: high
    severity: error
    for: agentTask
    when: level >= 4
    message: "{{element.id}} runs at level {{level}}"
  - id: four-eyes
    severity: warning
    for: agentTask
    when: some t in tools satisfies t.effect = "external-commitment"
    require:
      gates: { distinctRoles: 2 }
  - id: models
    severity: info
    for: workflow
    when: some m in models satisfies m != "gpt-4o"
  - id: ungated-tools
    severity: error
    for: tool
    when: authorization != "gate"
  - id: gateless
    severity: error
    for: process
    when: count(gates) = 0
waivers:
  - rule: four-eyes
    process: SmallLoans
    element: Offer
    reason: pilot
    grantedBy: cro@acme.example
    expires: "2027-03-31"
`;

const tool = (id: string, effect: string, authorization: string): object => ({
  kind: "ToolContract",
  id: `tool:${id}`,
  version: "1.0.0",
  name: id,
  description: `The ${id} tool.`,
  inputSchema: { x: "text" },
  outputSchema: { y: "text" },
  effect,
  authorization,
});

/** An agent of one llm node and one tool node. */
export function agent(id: string, version: string, model: string, tools: string[]): object {
  return {
    kind: "AgentWorkflow",
    id,
    version,
    name: id,
    description: `The ${id} agent.`,
    autonomyLevel: 2,
    budget: { maxSteps: 5, maxCostUSD: 1 },
    inputSchema: { x: "text" },
    outputSchema: { y: "text" },
    nodes: [
      { id: "think", type: "llm", config: { model, promptRef: "prm:p@1.0.0" } },
      ...tools.map((ref, i) => ({
        id: `call-${String(i)}`,
        type: "tool",
        config: { usesTool: ref, params: { x: "{{input.x}}" } },
      })),
    ],
    edges: tools.map((_, i) => ({
      from: i === 0 ? "think" : `call-${String(i - 1)}`,
      to: `call-${String(i)}`,
      edgeType: "data",
    })),
  };
}

/** A process: start → agent task `Offer` (ref, level) → one user task gate per role → end. */
export function process(
  id: string,
  ref: string,
  level: number,
  roles: readonly string[],
  lane?: string,
): string {
  const gates = roles.map((role, i) => `G${String(i)}`);
  const chain = ["Start", "Offer", ...gates, "End"];
  const flows = chain
    .slice(1)
    .map(
      (to, i) =>
        `<bpmn:sequenceFlow id="F${String(i)}" sourceRef="${chain[i] ?? ""}" targetRef="${to}" />`,
    );
  const lanes =
    lane === undefined
      ? ""
      : `<bpmn:laneSet id="LS"><bpmn:lane id="L" name="${lane}"><bpmn:flowNodeRef>Offer</bpmn:flowNodeRef></bpmn:lane></bpmn:laneSet>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D_${id}" targetNamespace="https://example.com">
  <bpmn:process id="${id}" isExecutable="true">
    ${lanes}
    <bpmn:startEvent id="Start" />
    <bpmn:serviceTask id="Offer" name="Send offer">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="${ref}" autonomyLevel="${String(level)}" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    ${roles.map((role, i) => `<bpmn:userTask id="G${String(i)}"><bpmn:extensionElements><btv:gate approverRole="${role}" /></bpmn:extensionElements></bpmn:userTask>`).join("\n    ")}
    <bpmn:endEvent id="End" />
    ${flows.join("\n    ")}
  </bpmn:process>
</bpmn:definitions>
`;
}

/** Writes files (path → text, or a value written as JSON) below a new temporary folder. */
export function folder(files: Readonly<Record<string, string | object>>): string {
  const dir = tempDir("agentflow-policy-test-");
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      typeof content === "string" ? content : JSON.stringify(content, null, 2) + "\n",
    );
  }
  return dir;
}

/** The pack, its registry and three processes, beside which a test writes its test file. */
export const BASE: Readonly<Record<string, string | object>> = {
  "acme.policy.yaml": ACME,
  "registry/offer.agent.json": agent("agnt-offer", "1.0.0", "gpt-4o", [
    "tool:commit@1.0.0",
    "tool:lookup@1.0.0",
  ]),
  "registry/offer-2.agent.json": agent("agnt-offer", "2.0.0", "llama-3", ["tool:commit@1.0.0"]),
  "registry/commit.tool.json": tool("commit", "external-commitment", "gate"),
  "registry/lookup.tool.json": tool("lookup", "read", "automatic"),
  "gated.bpmn": process("Loans", "agnt-offer@1.0.0", 3, ["credit", "compliance"]),
  "single.bpmn": process("SmallLoans", "agnt-offer@1.0.0", 3, ["credit", "credit"]),
  "bare.bpmn": process("Instant", "agnt-offer@2.0.0", 4, []),
};

/** What one run of the command printed, and its exit code. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `policyTestCommand` on `dir` with output captured. */
export async function policyTest(dir: string | undefined, format?: string): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    isTTY: false,
  };
  const code = await policyTestCommand(dir, format === undefined ? {} : { format }, io);
  return { code, stdout, stderr };
}

/** The test file's text: the header with `policies`, `registry` and `inputs`, then `body`. */
export function testFile(body: string, inputs = "[gated.bpmn, single.bpmn, bare.bpmn]"): string {
  return `kind: PolicyTest
name: acme cases
policies: [acme.policy.yaml]
registry: [registry]
inputs: ${inputs}
${body}`;
}
