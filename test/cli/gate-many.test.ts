/**
 * `agentflow gate` over many processes: files, folders and globs, a decision printed per
 * process in input order, and the worst exit code; `--max-warnings` as in `check`.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const LOAN = "examples/processes/loan-origination.bpmn";
const REGISTRY = "examples/registry";

/** A process as a modeller saves it (with DI), whose only agent is behind a gate. */
const GATED = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Defs_ok" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="Process_ok" isExecutable="true">
    <bpmn:startEvent id="start"><bpmn:outgoing>f0</bpmn:outgoing></bpmn:startEvent>
    <bpmn:serviceTask id="risk" name="Assess risk"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-credit-risk@1.0.0" autonomyLevel="2"/></bpmn:extensionElements><bpmn:incoming>f0</bpmn:incoming><bpmn:outgoing>f1</bpmn:outgoing></bpmn:serviceTask>
    <bpmn:userTask id="review" name="Review"><bpmn:extensionElements><btv:gate/></bpmn:extensionElements><bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing></bpmn:userTask>
    <bpmn:endEvent id="end"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
    <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="risk"/>
    <bpmn:sequenceFlow id="f1" sourceRef="risk" targetRef="review"/>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Diagram_ok">
    <bpmndi:BPMNPlane id="Plane_ok" bpmnElement="Process_ok">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="100" width="36" height="36"/></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="risk_di" bpmnElement="risk"><dc:Bounds x="180" y="78" width="100" height="80"/></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="review_di" bpmnElement="review"><dc:Bounds x="330" y="78" width="100" height="80"/></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="480" y="100" width="36" height="36"/></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f0_di" bpmnElement="f0"><di:waypoint x="136" y="118"/><di:waypoint x="180" y="118"/></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="280" y="118"/><di:waypoint x="330" y="118"/></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="430" y="118"/><di:waypoint x="480" y="118"/></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;

function folder(files: Readonly<Record<string, string>>): string {
  const dir = tempDir("agentflow-gate-many-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("agentflow gate over many processes", () => {
  it("decides each process, in input order, and exits with the worst (blocked: 1)", async () => {
    const dir = folder({ "ok.bpmn": GATED, "notes.json": "{}" });
    const result = await run("gate", "--registry", REGISTRY, dir, LOAN);
    expect(result.code).toBe(1);
    const verdicts = result.stdout.split("\n").filter((l) => l.includes(": promotion "));
    expect(verdicts).toEqual([
      `${join(dir, "ok.bpmn")}: promotion ALLOWED (0 blocking, 0 warning(s))`,
      `${LOAN}: promotion BLOCKED (2 blocking, 0 warning(s))`,
    ]);
    expect(result.stdout).toContain("2 processes: 1 allowed, 1 blocked, 0 unreadable\n");
    // A folder gives its .bpmn files only: the JSON beside the process is not read as BPMN.
    expect(result.stdout).not.toContain("notes.json");
  });

  it("says nothing of paths it would never read, and a skipped .bpmn is the input's problem", async () => {
    const dir = folder({ "ok.bpmn": GATED });
    symlinkSync("nowhere", join(dir, "notes.json"));
    execFileSync("mkfifo", [join(dir, "pipe.json")]);
    const clean = await run("gate", "--registry", REGISTRY, "--max-warnings", "0", dir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).not.toMatch(/notes\.json|pipe\.json|PATH_SKIPPED|the registry/);
    symlinkSync("nowhere", join(dir, "gone.bpmn"));
    const text = await run("gate", "--registry", REGISTRY, dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${join(dir, "gone.bpmn")}\n  -  warning  skipped: a broken`);
    expect(text.stdout).not.toContain("the registry:");
    const json = await run("gate", "--registry", REGISTRY, "--format", "json", dir);
    const [decision] = JSON.parse(json.stdout) as {
      registry: unknown[];
      skipped: { file: string; diagnostics: { code: string }[] }[];
    }[];
    expect(decision?.registry).toEqual([]);
    expect(decision?.skipped.map((s) => [s.file, s.diagnostics.map((d) => d.code)])).toEqual([
      [join(dir, "gone.bpmn"), ["PATH_SKIPPED"]],
    ]);
  });

  it("an unreadable process makes the exit 2, and the others are still decided", async () => {
    const dir = folder({ "a-ok.bpmn": GATED, "b-broken.bpmn": "<html/>" });
    const result = await run("gate", "--registry", REGISTRY, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "b-broken.bpmn:1:1: the root element <html> is not <bpmn:definitions>",
    );
    expect(result.stdout).toContain("a-ok.bpmn: promotion ALLOWED");
    expect(result.stdout).toContain("2 processes: 1 allowed, 0 blocked, 1 unreadable\n");
  });

  it("--format json is one object for one named file, an array otherwise", async () => {
    const one = await run("gate", "--registry", REGISTRY, "--format", "json", LOAN);
    expect((JSON.parse(one.stdout) as { file: string }).file).toBe(LOAN);
    const dir = folder({ "ok.bpmn": GATED });
    const many = await run("gate", "--registry", REGISTRY, "--format", "json", LOAN, dir);
    const decisions = JSON.parse(many.stdout) as { file: string; allowed: boolean }[];
    expect(decisions.map((d) => [d.file, d.allowed])).toEqual([
      [LOAN, false],
      [join(dir, "ok.bpmn"), true],
    ]);
    const folderOnly = await run("gate", "--registry", REGISTRY, "--format", "json", dir);
    expect(Array.isArray(JSON.parse(folderOnly.stdout))).toBe(true);
  });

  it("puts every process in one SARIF log and one JUnit report", async () => {
    const dir = folder({ "ok.bpmn": GATED });
    const sarif = await run("gate", "--registry", REGISTRY, "--format", "sarif", LOAN, dir);
    const log = JSON.parse(sarif.stdout) as {
      runs: { artifacts: { location: { uri: string } }[] }[];
    };
    expect(log.runs[0]?.artifacts.map((a) => a.location.uri)).toEqual([
      LOAN,
      expect.stringMatching(/^file:\/\/\/.*\/ok\.bpmn$/),
    ]);
    const junit = await run("gate", "--registry", REGISTRY, "--format", "junit", LOAN, dir);
    expect(junit.stdout.match(/<testsuite /g)).toHaveLength(2);
  });

  it("--max-warnings: an allowed process with more warnings exits 1", async () => {
    const dir = folder({ "ok.bpmn": GATED });
    const file = join(dir, "ok.bpmn");
    // Without a registry the agent is unresolved: a warning, which does not block.
    expect((await run("gate", file)).code).toBe(0);
    const strict = await run("gate", "--max-warnings", "0", file);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe("agentflow: 1 warnings exceed --max-warnings 0\n");
    expect((await run("gate", "--max-warnings", "1", file)).code).toBe(0);
    expect((await run("gate", "--max-warnings", "x", file)).code).toBe(2);
  });
});
