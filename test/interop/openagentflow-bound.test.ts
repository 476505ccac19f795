/**
 * `config.max_iterations`, on the compiler's own IR (`test/fixtures/openagentflow/`): the OAF
 * compiler 0.1.5's LangGraph adapter never enforces it, so the loops it was meant to bound run
 * unbounded. Read as the routes' `maxRetries` (before), it silenced `RETRY_WITHOUT_MAX` and the
 * gate allowed a loop nothing bounds. Now the routes carry no bound, the reading is declared, and
 * the value is kept for the export.
 */
import { describe, expect, it } from "vitest";
import { assessAutonomy } from "../../src/autonomy/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { exportOpenAgentFlow, importOpenAgentFlow } from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { decisionRoutes } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";
import { readFixture } from "./helpers.js";

const LOOP_RULES = new Set(["RETRY_WITHOUT_MAX", "CYCLE_WITHOUT_STOP"]);

const imported = (file: string) => importOpenAgentFlow(readFixture(`openagentflow/${file}`));

describe("importOpenAgentFlow: max_iterations is not read as a bound", () => {
  it.each<[string, number, string[], [string, string, string][]]>([
    [
      "review_loop_ir.generated.json",
      3,
      ["Critic-route"],
      [["RETRY_WITHOUT_MAX", "Critic-route", "/nodes/2/config/cases/0"]],
    ],
    [
      "conditional_routing_ir.generated.json",
      10,
      ["Reviewer-route"],
      [["RETRY_WITHOUT_MAX", "Reviewer-route", "/nodes/1/config/cases/0"]],
    ],
    [
      // the loop's way out is text (the bound it was meant to have): nothing structured stops it
      "bounded_loop_ir.generated.json",
      4,
      ["Reviewer-loop"],
      [
        ["RETRY_WITHOUT_MAX", "Reviewer-loop", "/nodes/2/config/cases/0"],
        ["CYCLE_WITHOUT_STOP", "Reviewer-loop", "/nodes/2"],
      ],
    ],
    [
      "loop_fallback_ir.generated.json",
      2,
      ["Checker-loop"],
      // the fallback into the loop was never bounded; `output.urgent` leaves the loop
      [
        ["RETRY_WITHOUT_MAX", "Checker-route", "/nodes/2/config/otherwise"],
        ["RETRY_WITHOUT_MAX", "Checker-loop", "/nodes/3/config/cases/0"],
      ],
    ],
  ])(
    "%s: max_iterations %i is declared, kept, and bounds no route",
    (file, max, decisions, errors) => {
      const { workflow, warnings } = imported(file);
      expect(warnings.find((w) => w.path === "/workflow/config/max_iterations")).toMatchObject({
        code: "HEURISTIC",
        data: {
          key: "max_iterations",
          maxIterations: max,
          runtime: "OpenAgentFlow 0.1.5 LangGraph adapter",
          decisions,
          assumed: "unbounded",
        },
      });
      const bounds = workflow.nodes.flatMap((n) =>
        n.type === "decision" ? decisionRoutes(n.config).flatMap((r) => r.maxRetries ?? []) : [],
      );
      expect(bounds).toEqual([]);
      expect(workflow.metadata?.openagentflow).toMatchObject({ maxIterations: max });
      const found = createValidator()
        .validateSync(workflow)
        .filter((d) => LOOP_RULES.has(d.code))
        .map((d) => [d.code, d.target.kind === "node" ? d.target.nodeId : "", d.path]);
      expect(found).toEqual(errors);
      // the level is the loop's either way; the export writes the value back
      expect(assessAutonomy(workflow).level).toBe(workflow.autonomyLevel);
      expect(exportOpenAgentFlow(workflow).document.workflow.config.max_iterations).toBe(max);
    },
  );
});

/** A process that runs `agnt-oaf@1.0.0` with an approval gate after it. */
const GATED = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com/t">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />
    <bpmn:serviceTask id="Agent">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-oaf@1.0.0" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="ops" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Approve" />
    <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;

describe("the gate verdict on a compiled OAF loop, behind an approval gate", () => {
  // Before, both were allowed: max_iterations stood for a bound the compiled app never enforces.
  // (The bounded loop, whose way out is text, was and is blocked by CYCLE_WITHOUT_STOP.)
  it.each<[string, string[]]>([
    ["review_loop_ir.generated.json", ["RETRY_WITHOUT_MAX"]],
    ["conditional_routing_ir.generated.json", ["RETRY_WITHOUT_MAX"]],
  ])("%s is blocked: nothing that runs bounds its loop", async (file, codes) => {
    const wf: AgentWorkflow = { ...imported(file).workflow, id: "agnt-oaf", version: "1.0.0" };
    const decision = await checkProcess(GATED, {
      resolveWorkflow: (ref) => (ref === "agnt-oaf@1.0.0" ? wf : undefined),
    });
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => [d.code, d.data.elementId, d.data.codes])).toEqual([
      ["AGENT_WORKFLOW_INVALID", "Agent", codes],
    ]);
  });
});
