/**
 * `agentflow conform` checks each run against its own approved agent and each process instance
 * against its own approved process: two Camunda agents with the same element id in two approved
 * processes are told apart by the run's process; a run of a process never approved deviates; a
 * Zeebe record of another element type is another version; records that do not show an agent
 * task beginning are unverified; a workflow a process embeds as a snapshot is approved.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { creditRisk, creditRiskRun } from "../conform/export/credit-risk.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const HISTORY = "test/fixtures/conform/camunda-agent-history";
const ZEEBE = "test/fixtures/conform/zeebe";
const REFUND = readFileSync("examples/processes/refund-triage.bpmn", "utf8");

/** Process A (the example, as refund_a, on gpt-4o) and process B (lookup_b, gpt-4o-mini, 2 calls). */
function processes(): { a: string; b: string } {
  const dir = tempDir("agentflow-conform-two-");
  const a = join(dir, "a-refund.bpmn");
  const b = join(dir, "b-lookup.bpmn");
  writeFileSync(a, REFUND.replaceAll("refund_triage", "refund_a"));
  writeFileSync(
    b,
    REFUND.replaceAll("refund_triage", "lookup_b")
      .replace('source="gpt-4o"', 'source="gpt-4o-mini"')
      .replace(
        'source="=8" target="data.limits.maxModelCalls"',
        'source="=2" target="data.limits.maxModelCalls"',
      ),
  );
  return { a, b };
}

describe("agentflow conform: two Camunda agents with one element id", () => {
  const { a, b } = processes();
  const both = ["--registry", "examples/registry", "--process", a, "--process", b];
  it.each([
    {
      name: "a run of process B on B's approved model conforms",
      files: [`${HISTORY}/lookup-b-ok.jsonl`, `${ZEEBE}/lookup-b-ok.jsonl`],
      args: both,
      code: 0,
      says: ["1 run(s): 1 conforming, 0 deviating, 0 unverified"],
    },
    {
      name: "a run of process B on process A's model deviates",
      files: [`${HISTORY}/lookup-b-gpt4o.jsonl`, `${ZEEBE}/lookup-b-gpt4o.jsonl`],
      args: both,
      code: 1,
      says: [
        'IDENTITY_MISMATCH  "Agent" ran with model gpt-4o; approved: gpt-4o-mini',
        "1 run(s): 0 conforming, 1 deviating, 0 unverified",
      ],
    },
    {
      name: "a run of a process never approved deviates, with one agent approved",
      files: [`${HISTORY}/unapproved-process.jsonl`],
      args: ["--registry", "examples/registry", "--process", b],
      code: 1,
      says: [
        "VERSION_UNAPPROVED  the run is of process evil_proc, which was never approved (approved: lookup_b)",
      ],
    },
  ])("$name", async ({ files, args, code, says }) => {
    const out = await run("conform", ...files, ...args);
    for (const line of says) expect(out.stdout).toContain(line);
    expect(out.code).toBe(code);
  });
});

describe("agentflow conform: Zeebe records of the loan process", () => {
  const args = [
    "--registry",
    "examples/registry",
    "--process",
    "examples/processes/loan-origination.bpmn",
  ];
  it.each([
    {
      file: "loan-typeswap.jsonl",
      says: [
        "VERSION_UNAPPROVED  the instance is of a version of process LoanOrigination that was never approved: its element UnderwriterReview ran as SERVICE_TASK, approved as USER_TASK",
        'GATE_MISSING  process instance 2251799813685300 ended without passing a gate required after agent task "AssessCreditRisk" (UnderwriterReview, SeniorReview)',
      ],
    },
    {
      file: "loan-noact.jsonl",
      says: [
        'unverified START_UNRECORDED  the records of process instance 2251799813685300 show agent task "AssessCreditRisk" ran but not when it began',
      ],
    },
    {
      file: "loan-tail-nogate.jsonl",
      says: [
        'unverified START_UNRECORDED  the records of process instance 2251799813685300 show agent task "AssessCreditRisk" ran but not when it began',
      ],
    },
  ])("fails $file (exit 1)", async ({ file, says }) => {
    const out = await run("conform", `${ZEEBE}/${file}`, ...args);
    for (const line of says) expect(out.stdout).toContain(line);
    expect(out.code).toBe(1);
  });
});

describe("agentflow conform: a workflow embedded as a snapshot", () => {
  it("checks runs against the snapshot the review resolved, not as unapproved", async () => {
    const snap: AgentWorkflow = { ...creditRisk, id: "agnt-credit-snap" };
    const dir = tempDir("agentflow-conform-snapshot-");
    const bpmn = join(dir, "snap.bpmn");
    writeFileSync(
      bpmn,
      `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="SnapDefinitions" targetNamespace="https://example.com">
  <bpmn:process id="Snap" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:serviceTask id="Assess">
      <bpmn:extensionElements>
        <btv:agentTask agentWorkflowRef="agnt-credit-snap@1.0.0" autonomyLevel="2" />
        <btv:agentWorkflowSnapshot version="1.0.0"><![CDATA[${JSON.stringify(snap)}]]></btv:agentWorkflowSnapshot>
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="Review">
      <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="End" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Assess" />
    <bpmn:sequenceFlow id="F2" sourceRef="Assess" targetRef="Review" />
    <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
  </bpmn:process>
</bpmn:definitions>`,
    );
    const runs = join(dir, "runs.jsonl");
    writeFileSync(runs, creditRiskRun(snap, "s", 1));
    const out = await run("conform", runs, "--registry", "examples/registry", "--process", bpmn);
    expect(out.stdout).toContain("1 run(s): 1 conforming, 0 deviating, 0 unverified");
    expect(out.code).toBe(0);
  });
});
