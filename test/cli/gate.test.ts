/**
 * `agentflow gate`: the promotion decision on the loan-origination example, in every format,
 * with exit 1 when blocked, 0 when allowed and 2 for input that is not BPMN.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const LOAN = "examples/processes/loan-origination.bpmn";
const REGISTRY = "examples/registry";

function tempFile(name: string, text: string): string {
  const dir = tempDir("agentflow-gate-");
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("agentflow gate", () => {
  it("blocks the loan process: the offer sender has no gate and sends a binding offer", async () => {
    const result = await run("gate", LOAN, "--registry", REGISTRY);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(`${LOAN}: promotion BLOCKED (2 blocking, 0 warning(s))`);
    expect(result.stdout).toMatch(
      /AssessCreditRisk\s+agnt-credit-risk@1\.0\.0\s+2\s+2\s+required\s+reached\s+registry\s+sha256:/,
    );
    expect(result.stdout).toMatch(
      /DraftAndSendOffer\s+agnt-offer-sender@1\.0\.0\s+3\s+3\s+required\s+missing\s+registry/,
    );
    expect(result.stdout).toContain("AGENT_GATE_UNREACHABLE");
    expect(result.stdout).toContain("TOOL_EFFECT_NEEDS_GATE");
  });

  it("prints the decision as JSON", async () => {
    const result = await run("gate", LOAN, "--registry", REGISTRY, "--format", "json");
    expect(result.code).toBe(1);
    const decision = JSON.parse(result.stdout) as {
      allowed: boolean;
      blocking: { code: string; target: { elementId: string }; location: { line: number } }[];
      agentTasks: { elementId: string; gate: string; contentHash: string }[];
    };
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => [d.code, d.target.elementId, d.location.line])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "DraftAndSendOffer", 54],
      ["TOOL_EFFECT_NEEDS_GATE", "DraftAndSendOffer", 54],
    ]);
    expect(decision.agentTasks.map((t) => [t.elementId, t.gate])).toEqual([
      ["AssessCreditRisk", "reached"],
      ["DraftAndSendOffer", "missing"],
    ]);
    expect(decision.agentTasks[0]?.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it.each(["sarif", "junit", "github"])("prints %s", async (format) => {
    const result = await run("gate", LOAN, "--registry", REGISTRY, "--format", format);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("AGENT_GATE_UNREACHABLE");
  });

  it("without the registry the agents are unresolved (warnings) and the level-3 agent is still blocked", async () => {
    const result = await run("gate", LOAN, "--format", "json");
    const decision = JSON.parse(result.stdout) as {
      blocking: { code: string }[];
      warnings: { code: string }[];
    };
    expect(result.code).toBe(1);
    expect(decision.blocking.map((d) => d.code)).toEqual(["AGENT_GATE_UNREACHABLE"]);
    expect(decision.warnings.map((d) => d.code)).toEqual(["AGENT_UNRESOLVED", "AGENT_UNRESOLVED"]);
  });

  it("allows a process whose only agent is gated, exit 0", async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="d">
  <bpmn:process id="p">
    <bpmn:serviceTask id="risk"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-credit-risk@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:userTask id="review"><bpmn:extensionElements><btv:gate/></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="end"/>
    <bpmn:sequenceFlow id="f1" sourceRef="risk" targetRef="review"/>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end"/>
  </bpmn:process>
</bpmn:definitions>`;
    const result = await run("gate", tempFile("ok.bpmn", xml), "--registry", REGISTRY);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("promotion ALLOWED (0 blocking, 0 warning(s))");
  });

  it("a file that is not BPMN is one line on stderr per problem and exit 2", async () => {
    const result = await run("gate", tempFile("bad.bpmn", "<html/>"));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /bad\.bpmn:1:1: the root element <html> is not <bpmn:definitions>/,
    );
  });

  it("rejects an unknown format or policy as a usage error", async () => {
    expect((await run("gate", LOAN, "--format", "xml")).code).toBe(2);
    const policy = await run("gate", LOAN, "--camunda-agents", "maybe");
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain("unknown --camunda-agents 'maybe'");
  });

  it("check reads .bpmn files with the registry, next to workflows", async () => {
    const result = await run("check", "--registry", REGISTRY, LOAN, "examples/registry");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(LOAN);
    expect(result.stdout).toContain("TOOL_EFFECT_NEEDS_GATE");
    expect(result.stdout).toContain("examples/registry/credit-risk.agent.json  ✔ no problems");
  });
});
