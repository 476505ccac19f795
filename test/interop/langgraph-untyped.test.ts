/**
 * Routers the drawable graph leaves out, on real LangGraph 1.2.12 drawings
 * (`test/fixtures/langgraph-untyped/`): a router with no path map and no `Literal` return type,
 * or a node returning an untyped `Command(goto=...)`, draws none of its branches, so the nodes it
 * reaches have no edge. Read as unreachable, they hid their effects and the branching: the
 * workflow justified level 1, where the typed app justifies 3, and a process declaring level 1
 * was allowed.
 */
import { describe, expect, it } from "vitest";
import { assessAutonomy } from "../../src/autonomy/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";
import { readFixture } from "./helpers.js";

const imported = (file: string) =>
  importLangGraphGraph(readFixture(`langgraph-untyped/${file}.json`));

/** The warning that declares the undrawn routing. */
const hiddenWarning = (file: string) =>
  imported(file).warnings.find((w) => w.code === "HEURISTIC" && w.data?.targets !== undefined);

describe("importLangGraphGraph: steps the drawing reaches by no edge", () => {
  it.each<[string, [string, string][], unknown, unknown]>([
    [
      "01b_router_untyped",
      [
        ["plan", "tool"],
        ["plan.route", "decision"],
        ["pay", "tool"],
        ["refund", "tool"],
      ],
      {
        conditionLanguage: "text",
        cases: [
          { condition: "pay", next: "pay" },
          { condition: "refund", next: "refund" },
        ],
        otherwise: { next: "end" },
      },
      {
        path: "/nodes/2",
        data: {
          targets: ["pay", "refund"],
          decisions: ["plan.route"],
          from: "plan",
          candidates: ["plan"],
          router: "likely",
        },
      },
    ],
    [
      "08b_command_untyped",
      [
        ["decide", "tool"],
        ["decide.route", "decision"],
        ["pay", "tool"],
        ["refund", "tool"],
      ],
      {
        conditionLanguage: "text",
        cases: [
          { condition: "pay", next: "pay" },
          { condition: "refund", next: "refund" },
        ],
        otherwise: { next: "end" },
      },
      {
        path: "/nodes/2",
        data: {
          targets: ["pay", "refund"],
          decisions: ["decide.route"],
          from: "decide",
          candidates: ["decide"],
          router: "likely",
        },
      },
    ],
    [
      // two last nodes: which one routes cannot be told; the first stands in
      "13_command_two_ends",
      [
        ["plan", "tool"],
        ["check", "tool"],
        ["check.route", "decision"],
        ["audit", "tool"],
        ["pay", "tool"],
      ],
      {
        conditionLanguage: "text",
        cases: [{ condition: "pay", next: "pay" }],
        otherwise: { next: "end" },
      },
      {
        path: "/nodes/4",
        data: {
          targets: ["pay"],
          decisions: ["check.route"],
          from: "check",
          candidates: ["check", "audit"],
          router: "unknown",
        },
      },
    ],
    [
      // no node ends: the first step without a router of its own stands in
      "14_command_in_loop",
      [
        ["agent", "tool"],
        ["agent.route", "decision"],
        ["tools", "tool"],
        ["tools.route", "decision"],
        ["pay", "tool"],
      ],
      {
        conditionLanguage: "text",
        cases: [{ condition: "pay", next: "pay" }],
        otherwise: { next: "end" },
      },
      {
        path: "/nodes/3",
        data: {
          targets: ["pay"],
          decisions: ["tools.route"],
          from: "tools",
          candidates: [],
          router: "unknown",
        },
      },
    ],
  ])(
    "%s: the unreached steps are the text decision's branches, declared",
    (file, nodes, config, warning) => {
      const { workflow } = imported(file);
      expect(workflow.nodes.map((n) => [n.id, n.type])).toEqual(nodes);
      const decisions = workflow.nodes.filter((n) => n.type === "decision");
      expect(decisions.at(-1)?.config).toEqual(config);
      expect(hiddenWarning(file)).toMatchObject({ code: "HEURISTIC", ...(warning as object) });
      const found = createValidator().validateSync(workflow);
      expect(found.filter((d) => d.code === "NODE_UNREACHABLE")).toEqual([]);
    },
  );

  // Before: 1, 1, 1 and 2 (the loop alone). Where the same app with typed routing was drawn, it
  // justifies the same level; an untyped Command may also go nowhere, so its decision always
  // keeps the end as a second way out (13: a typed `Command[Literal["pay"]]` is drawn as one
  // conditional edge, always taken).
  it.each<[string, number, string[], string | undefined]>([
    ["01b_router_untyped", 3, ["plan.route"], "01_router_fn"],
    ["08b_command_untyped", 3, ["decide.route"], "08_command_goto"],
    ["13_command_two_ends", 3, ["check.route"], undefined],
    ["14_command_in_loop", 3, ["tools.route"], undefined],
  ])("%s justifies level %i: a branching decision", (file, level, branching, typed) => {
    const { workflow } = imported(file);
    const assessed = assessAutonomy(workflow);
    expect([assessed.level, workflow.autonomyLevel]).toEqual([level, level]);
    const reason = assessed.reasons.find((r) => r.feature === "branching-decision");
    expect(reason?.nodeIds).toEqual(branching);
    if (typed !== undefined) expect(assessAutonomy(imported(typed).workflow).level).toBe(level);
  });
});

/** A process that runs `agnt-lg@1.0.0` declared at level 1, with an approval gate after it. */
const DECLARED_LEVEL_1 = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com/t">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />
    <bpmn:serviceTask id="Agent">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-lg@1.0.0" autonomyLevel="1" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="ops" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Approve" />
    <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;

/** The verdict on {@link DECLARED_LEVEL_1} with the imported `file` as `agnt-lg@1.0.0`. */
async function verdict(file: string) {
  const wf: AgentWorkflow = { ...imported(file).workflow, id: "agnt-lg", version: "1.0.0" };
  const decision = await checkProcess(DECLARED_LEVEL_1, {
    resolveWorkflow: (ref) => (ref === "agnt-lg@1.0.0" ? wf : undefined),
  });
  return {
    allowed: decision.allowed,
    blocking: decision.blocking.map((d) => [d.code, d.data.elementId]),
    unresolved: decision.warnings
      .filter((d) => d.code === "AGENT_DEPENDENCY_UNRESOLVED")
      .map((d) => d.data.nodeId),
  };
}

describe("the gate verdict on an agent task declaring level 1, a gate after it", () => {
  // Before, the untyped apps were allowed: their drawing justified level 1, and `pay` and
  // `refund`, read as never running, had no unresolved dependency of their own.
  it.each<[string, string, string]>([
    ["01b_router_untyped", "01_router_fn", "plan"],
    ["08b_command_untyped", "08_command_goto", "decide"],
  ])("%s is blocked, as the typed app (%s) is", async (untyped, typed, router) => {
    const blocked = {
      allowed: false,
      blocking: [["AGENT_AUTONOMY_MISMATCH", "Agent"]],
      unresolved: [router, "pay", "refund"],
    };
    expect(await verdict(untyped)).toEqual(blocked);
    expect(await verdict(typed)).toEqual(blocked);
  });
});
