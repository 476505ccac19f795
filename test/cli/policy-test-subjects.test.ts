/**
 * The subjects of policy tests: the grammar of a subject's name by the rule's subject kind and
 * the input's kind, and the subject a finding is on, placed by the pack that lists subjects.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import {
  subjectNameProblem,
  subjectsPack,
  verdictsOf,
} from "../../src/cli/policy-test-subjects.js";

describe("subjectNameProblem", () => {
  it.each([
    ["Loans/Offer", "agentTask", "bpmn"],
    ["Loans", "process", "bpmn"],
    ["Loans/Offer/agnt-offer@1.0.0", "workflow", "bpmn"],
    ["Loans/Offer/tool:send@1.1.0", "tool", "bpmn"],
    // A Camunda tool's ref is its job type, which may hold '/': the rest of the name is the ref.
    ["Loans/Agent/io.camunda/http-json", "tool", "bpmn"],
    ["agnt-offer@1.0.0", "workflow", "workflow"],
    ["agnt-offer@1.0.0/tool:send@1.1.0", "tool", "workflow"],
  ] as const)("%s is a %s subject of a %s input", (name, kind, input) => {
    expect(subjectNameProblem(name, kind, input)).toBeUndefined();
  });

  it.each([
    [
      "Loans",
      "agentTask",
      "bpmn",
      "an agentTask subject in a BPMN input is <process id>/<element id>",
    ],
    ["Loans/Offer/x", "agentTask", "bpmn", "an agentTask subject in a BPMN input is"],
    ["/Offer", "agentTask", "bpmn", "an agentTask subject in a BPMN input is"],
    ["Loans/Offer", "process", "bpmn", "a process subject in a BPMN input is <process id>,"],
    ["Loans/Offer/agnt-offer", "workflow", "bpmn", "a workflow subject in a BPMN input is"],
    ["Loans/Offer/a@1/b", "workflow", "bpmn", "a workflow subject in a BPMN input is"],
    ["Loans/Offer/", "tool", "bpmn", "a tool subject in a BPMN input is"],
    ["agnt-offer", "workflow", "workflow", "a workflow subject in a workflow input is"],
    ["agnt-offer@1.0.0", "tool", "workflow", "a tool subject in a workflow input is"],
    ["Loans/Offer", "agentTask", "workflow", "a workflow input holds no agentTask subjects"],
    ["Loans", "process", "workflow", "a workflow input holds no process subjects"],
  ] as const)("%s is no %s subject of a %s input", (name, kind, input, message) => {
    expect(subjectNameProblem(name, kind, input)).toContain(message);
  });
});

describe("verdictsOf", () => {
  const probe = subjectsPack({ names: new Set(), ids: new Set() });
  const at = (elementId: string) => ({ kind: "bpmn-element" as const, elementId });
  const finding = (code: string, target: Diagnostic["target"], data: object): Diagnostic => ({
    code,
    severity: "error",
    message: code,
    target,
    path: "",
    data: data as Diagnostic["data"],
  });

  it("names the subjects a BPMN input holds, and each rule's findings by subject", () => {
    const kinds = new Map([
      ["bank/tools", "tool" as const],
      ["bank/models", "workflow" as const],
    ]);
    const verdicts = verdictsOf(
      [
        finding(`${probe.name}/subjects-agentTask`, at("Offer"), { process: { id: "Loans" } }),
        finding(`${probe.name}/subjects-process`, at("Loans"), { id: "Loans" }),
        finding(`${probe.name}/subjects-tool`, at("Offer"), { ref: "tool:send@1.0.0" }),
        finding(`${probe.name}/subjects-workflow`, at("Offer"), {
          id: "agnt-offer",
          version: "1.0.0",
        }),
        finding("bank/tools", at("Offer"), { ref: "tool:send@1.0.0" }),
        finding("bank/models", at("Offer"), { id: "agnt-offer", version: "1.0.0" }),
        finding("AGENT_GATE_BYPASS", at("Offer"), {}),
      ],
      { kind: "bpmn" },
      probe,
      kinds,
    );
    expect(Object.fromEntries([...verdicts.subjects].map(([k, v]) => [k, [...v]]))).toEqual({
      agentTask: ["Loans/Offer"],
      process: ["Loans"],
      tool: ["Loans/Offer/tool:send@1.0.0"],
      workflow: ["Loans/Offer/agnt-offer@1.0.0"],
    });
    expect([...(verdicts.findings.get("bank/tools")?.keys() ?? [])]).toEqual([
      "Loans/Offer/tool:send@1.0.0",
    ]);
    expect([...(verdicts.findings.get("bank/models")?.keys() ?? [])]).toEqual([
      "Loans/Offer/agnt-offer@1.0.0",
    ]);
    expect(verdicts.findings.has("AGENT_GATE_BYPASS")).toBe(false);
  });

  it("names a workflow input's tools under the workflow's id@version", () => {
    const verdicts = verdictsOf(
      [
        finding(
          `${probe.name}/subjects-workflow`,
          { kind: "workflow" },
          { id: "a", version: "1.0.0" },
        ),
        finding(
          `${probe.name}/subjects-tool`,
          { kind: "node", nodeId: "n" },
          { ref: "tool:x@1.0.0" },
        ),
      ],
      { kind: "workflow", workflow: "a@1.0.0" },
      probe,
      new Map(),
    );
    expect([...(verdicts.subjects.get("tool") ?? [])]).toEqual(["a@1.0.0/tool:x@1.0.0"]);
    expect([...(verdicts.subjects.get("workflow") ?? [])]).toEqual(["a@1.0.0"]);
  });

  it("the listing pack is named unlike every pack under test", () => {
    expect(subjectsPack({ names: new Set(["policy-test-subjects"]), ids: new Set() }).name).toBe(
      "policy-test-subjects-2",
    );
    expect(probe.processRules.map((r) => r.meta.code)).toEqual([
      "policy-test-subjects/subjects-agentTask",
      "policy-test-subjects/subjects-workflow",
      "policy-test-subjects/subjects-tool",
      "policy-test-subjects/subjects-process",
    ]);
  });

  it("its rule ids are unlike every rule id and waived rule under test (red team: exit 3)", () => {
    const ids = new Set(["subjects-agentTask", "subjects-agentTask-2", "subjects-tool"]);
    const taken = subjectsPack({ names: new Set(), ids });
    expect(taken.spec.rules.map((r) => r.id)).toEqual([
      "subjects-agentTask-3",
      "subjects-workflow",
      "subjects-tool-2",
      "subjects-process",
    ]);
  });
});
