/**
 * A small YAML workflow that aliases one long string many times is refused where it is read,
 * as an alias bomb at its place: as a named file and as a snapshot embedded in a BPMN file (a
 * registry folder and a worker read it with the same reader). The other files keep their
 * results. (Scaled up, the same document expanded to gigabytes and crashed the
 * content hash: exit 3, or Node out of memory. Here it expands to a few megabytes.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

/** A valid workflow whose metadata holds a 20,000-character string and 200 aliases to it. */
function bomb(id: string): string {
  return `kind: AgentWorkflow
id: ${id}
version: 1.0.0
name: Bomb
autonomyLevel: 1
inputSchema: { topic: text }
outputSchema: { summary: text }
nodes:
  - id: summarise
    type: llm
    config: { model: gpt-4o, promptRef: "prm:summary@1.0.0", outputSchema: { summary: text } }
edges: []
metadata:
  notes: &n "${"x".repeat(20_000)}"
  copies: [${Array(200).fill("*n").join(", ")}]
`;
}

/** What the reader says of `bomb(id)`, for an id of `idLength` characters. */
function refusal(idLength: number): string {
  const budget = 100 * bomb("x".repeat(idLength)).length;
  return `Aliases expand this document beyond ${budget} characters of JSON text (100 per character of its text, at most 67108864); reading stopped, as for an alias bomb.`;
}

const dir = tempDir("agentflow-alias-bomb-");
const file = join(dir, "bomb.agent.yaml");
writeFileSync(file, bomb("agnt-bomb"));

function processWith(ref: string, snapshot: string | undefined): string {
  const embedded =
    snapshot === undefined
      ? ""
      : `<btv:agentWorkflowSnapshot version="1.0.0"><![CDATA[${snapshot}]]></btv:agentWorkflowSnapshot>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="x">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:serviceTask id="T" name="Agent">
      <bpmn:extensionElements>
        <btv:agentTask agentWorkflowRef="${ref}" autonomyLevel="1" />
        ${embedded}
      </bpmn:extensionElements>
      <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
    </bpmn:serviceTask>
    <bpmn:endEvent id="E"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="S" targetRef="T" />
    <bpmn:sequenceFlow id="f2" sourceRef="T" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>
`;
}
const snap = join(dir, "snap.bpmn");
writeFileSync(snap, processWith("agnt-bomb@1.0.0", bomb("agnt-bomb")));
const other = join(dir, "other.bpmn");
writeFileSync(other, processWith("agnt-credit-risk@1.0.0", undefined));

describe("a YAML workflow aliasing a long string 200 times", () => {
  it("check names the alias bomb and its place (exit 2)", async () => {
    const result = await run("check", file);
    expect(result.stdout).toContain(`${file}\n  15:428  error    ${refusal(9)}  SYNTAX_ERROR\n`);
    expect(result.stderr).toBe(`agentflow: ${file}:15:428: ${refusal(9)}\n`);
    expect(result.code).toBe(2);
  });

  it("gate with it embedded as a snapshot: the snapshot refused, the other process gated", async () => {
    const result = await run("gate", snap, other);
    expect(result.stdout).toContain(
      `agnt-bomb@1.0.0 (agent task "T") was not found in a registry, and its snapshot cannot be used: the snapshot is not a valid workflow (${refusal(9)})  AGENT_UNRESOLVED`,
    );
    expect(result.stdout).toContain(`${other}: promotion BLOCKED`);
    expect(result.stdout).toContain("2 processes: 0 allowed, 2 blocked, 0 unreadable");
    expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
    expect(result.code).toBe(1);
  });
});
