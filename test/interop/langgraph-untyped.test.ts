/**
 * Routers the drawable graph leaves out, on real LangGraph 1.2.12 drawings
 * (`test/fixtures/langgraph-untyped/`): a router with no path map and no `Literal` return type,
 * or a node returning an untyped `Command(goto=...)`, draws none of its branches, so the nodes it
 * reaches have no edge. Read as unreachable, they hid their effects and the branching: the
 * workflow justified level 1, where the typed app justifies 3, and a process declaring level 1
 * was allowed. Read as last steps (nothing after them), they hid the loops they close: the ReAct
 * app's `tools → agent` vanished, and a process declaring level 3 was allowed.
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

/** The routes of a text decision: `[condition, next]` per case, then `["otherwise", next]`. */
function routesOf(workflow: AgentWorkflow, id: string): string[][] {
  const node = workflow.nodes.find((n) => n.id === id);
  if (node?.type !== "decision" || !("cases" in node.config)) return [];
  const { cases, otherwise } = node.config;
  return [...cases.map((c) => [c.condition, c.next]), ["otherwise", otherwise.next]];
}

describe("importLangGraphGraph: steps the drawing reaches by no edge", () => {
  // The router's decision, and each unreached step's own: LangGraph draws no edge of a node it
  // does not reach, so what runs after it is unknown (every step, or the end).
  it.each<[string, [string, string][], [string, string[][]], unknown, [string, string[][]][]]>([
    [
      "01b_router_untyped",
      [
        ["plan", "tool"],
        ["plan.route", "decision"],
        ["pay", "tool"],
        ["pay.route", "decision"],
        ["refund", "tool"],
        ["refund.route", "decision"],
      ],
      [
        "plan.route",
        [
          ["pay", "pay"],
          ["refund", "refund"],
          ["otherwise", "end"],
        ],
      ],
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
      [
        [
          "pay",
          [
            ["plan", "plan"],
            ["pay", "pay"],
            ["refund", "refund"],
            ["otherwise", "end"],
          ],
        ],
        [
          "refund",
          [
            ["plan", "plan"],
            ["pay", "pay"],
            ["refund", "refund"],
            ["otherwise", "end"],
          ],
        ],
      ],
    ],
    [
      "08b_command_untyped",
      [
        ["decide", "tool"],
        ["decide.route", "decision"],
        ["pay", "tool"],
        ["pay.route", "decision"],
        ["refund", "tool"],
        ["refund.route", "decision"],
      ],
      [
        "decide.route",
        [
          ["pay", "pay"],
          ["refund", "refund"],
          ["otherwise", "end"],
        ],
      ],
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
      [
        [
          "pay",
          [
            ["decide", "decide"],
            ["pay", "pay"],
            ["refund", "refund"],
            ["otherwise", "end"],
          ],
        ],
        [
          "refund",
          [
            ["decide", "decide"],
            ["pay", "pay"],
            ["refund", "refund"],
            ["otherwise", "end"],
          ],
        ],
      ],
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
        ["pay.route", "decision"],
      ],
      [
        "check.route",
        [
          ["pay", "pay"],
          ["otherwise", "end"],
        ],
      ],
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
      [
        [
          "pay",
          [
            ["plan", "plan"],
            ["check", "check"],
            ["audit", "audit"],
            ["pay", "pay"],
            ["otherwise", "end"],
          ],
        ],
      ],
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
        ["pay.route", "decision"],
      ],
      [
        "tools.route",
        [
          ["pay", "pay"],
          ["otherwise", "end"],
        ],
      ],
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
      [
        [
          "pay",
          [
            ["agent", "agent"],
            ["tools", "tools"],
            ["pay", "pay"],
            ["otherwise", "end"],
          ],
        ],
      ],
    ],
    [
      // the ReAct loop, untyped: `tools → agent` is not drawn; `tools` may lead back
      "15_untyped_react",
      [
        ["agent", "tool"],
        ["agent.route", "decision"],
        ["tools", "tool"],
        ["tools.route", "decision"],
      ],
      [
        "agent.route",
        [
          ["tools", "tools"],
          ["otherwise", "end"],
        ],
      ],
      {
        path: "/nodes/2",
        data: {
          targets: ["tools"],
          decisions: ["agent.route"],
          from: "agent",
          candidates: ["agent"],
          router: "likely",
        },
      },
      [
        [
          "tools",
          [
            ["agent", "agent"],
            ["tools", "tools"],
            ["otherwise", "end"],
          ],
        ],
      ],
    ],
    [
      "16_untyped_loop_back",
      [
        ["plan", "tool"],
        ["plan.route", "decision"],
        ["work", "tool"],
        ["work.route", "decision"],
      ],
      [
        "plan.route",
        [
          ["work", "work"],
          ["otherwise", "end"],
        ],
      ],
      {
        path: "/nodes/2",
        data: {
          targets: ["work"],
          decisions: ["plan.route"],
          from: "plan",
          candidates: ["plan"],
          router: "likely",
        },
      },
      [
        [
          "work",
          [
            ["plan", "plan"],
            ["work", "work"],
            ["otherwise", "end"],
          ],
        ],
      ],
    ],
  ])(
    "%s: the unreached steps are the text decision's branches, each leading anywhere, declared",
    (file, nodes, [router, routes], warning, open) => {
      const { workflow, warnings } = imported(file);
      expect(workflow.nodes.map((n) => [n.id, n.type])).toEqual(nodes);
      expect(routesOf(workflow, router)).toEqual(routes);
      expect(hiddenWarning(file)).toMatchObject({ code: "HEURISTIC", ...(warning as object) });
      for (const [step, stepRoutes] of open)
        expect(routesOf(workflow, `${step}.route`)).toEqual(stepRoutes);
      const unknown = warnings.filter((w) => w.data?.successors === "unknown");
      expect(unknown.map((w) => [w.code, w.data])).toEqual(
        open.map(([step]) => [
          "HEURISTIC",
          { nodeId: step, decision: `${step}.route`, successors: "unknown" },
        ]),
      );
      // each at the step's own node in the drawing
      const drawn = readFixture(`langgraph-untyped/${file}.json`) as { nodes: { id: unknown }[] };
      const at = (step: string): string =>
        `/nodes/${String(drawn.nodes.findIndex((n) => n.id === step))}`;
      expect(unknown.map((w) => w.path)).toEqual(open.map(([step]) => at(step)));
      const found = createValidator().validateSync(workflow);
      expect(found.filter((d) => d.code === "NODE_UNREACHABLE")).toEqual([]);
    },
  );

  // Before: 1, 1, 1, 2, 3 and 3 (the untyped apps read as ending where their hidden steps are).
  // Now the steps of unknown successors may lead back, so the level is a loop's (2), and the loop
  // rules fire as on the typed ReAct drawing (07); 13's `pay` may also lead to `audit`, which ends
  // (a decision tree, 3). The typed apps of 01b and 08b, whose steps end, justify 3.
  it.each<[string, number, string | undefined]>([
    ["01b_router_untyped", 2, undefined],
    ["08b_command_untyped", 2, undefined],
    ["13_command_two_ends", 3, undefined],
    ["14_command_in_loop", 2, undefined],
    ["15_untyped_react", 2, "07_toolnode_loop"],
    ["16_untyped_loop_back", 2, undefined],
  ])("%s justifies level %i, and its loops are flagged", (file, level, typed) => {
    const { workflow } = imported(file);
    const assessed = assessAutonomy(workflow);
    expect([assessed.level, workflow.autonomyLevel]).toEqual([level, level]);
    const codes = new Set(
      createValidator()
        .validateSync(workflow)
        .filter((d) => d.severity === "error")
        .map((d) => d.code),
    );
    expect([...codes].sort()).toEqual(["CYCLE_WITHOUT_STOP", "RETRY_WITHOUT_MAX"]);
    if (typed !== undefined) expect(assessAutonomy(imported(typed).workflow).level).toBe(level);
  });
});

/** A process that runs `agnt-lg@1.0.0` declared at `level`, with an approval gate after it. */
const declaredAt = (
  level: number,
): string => `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com/t">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />
    <bpmn:serviceTask id="Agent">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-lg@1.0.0" autonomyLevel="${String(level)}" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="ops" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Approve" />
    <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;

/** The verdict on {@link declaredAt} `level` with the imported `file` as `agnt-lg@1.0.0`. */
async function verdict(file: string, level: number) {
  const wf: AgentWorkflow = { ...imported(file).workflow, id: "agnt-lg", version: "1.0.0" };
  const decision = await checkProcess(declaredAt(level), {
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

const MISMATCH = ["AGENT_AUTONOMY_MISMATCH", "Agent"];
const INVALID = ["AGENT_WORKFLOW_INVALID", "Agent"];

describe("the gate verdict on an agent task, a gate after it", () => {
  // Before, the untyped apps were allowed at the level their drawing justified: 01b and 08b at 1
  // (`pay` and `refund`, read as never running, had no unresolved dependency of their own), the
  // ReAct app at 3 (its loop read as ending at `tools`), where the typed ReAct app is blocked.
  it.each<[string, number, { allowed: boolean; blocking: string[][]; unresolved: string[] }]>([
    [
      "01b_router_untyped",
      1,
      { allowed: false, blocking: [MISMATCH, INVALID], unresolved: ["plan", "pay", "refund"] },
    ],
    [
      "01_router_fn",
      1,
      { allowed: false, blocking: [MISMATCH], unresolved: ["plan", "pay", "refund"] },
    ],
    [
      "08b_command_untyped",
      1,
      { allowed: false, blocking: [MISMATCH, INVALID], unresolved: ["decide", "pay", "refund"] },
    ],
    [
      "08_command_goto",
      1,
      { allowed: false, blocking: [MISMATCH], unresolved: ["decide", "pay", "refund"] },
    ],
    [
      "15_untyped_react",
      3,
      { allowed: false, blocking: [MISMATCH, INVALID], unresolved: ["agent", "tools"] },
    ],
    [
      "07_toolnode_loop",
      3,
      { allowed: false, blocking: [MISMATCH, INVALID], unresolved: ["agent", "tools"] },
    ],
    [
      "15_untyped_react",
      2,
      { allowed: false, blocking: [INVALID], unresolved: ["agent", "tools"] },
    ],
    [
      "07_toolnode_loop",
      2,
      { allowed: false, blocking: [INVALID], unresolved: ["agent", "tools"] },
    ],
    [
      "16_untyped_loop_back",
      3,
      { allowed: false, blocking: [MISMATCH, INVALID], unresolved: ["plan", "work"] },
    ],
  ])("%s, declared at level %i", async (file, level, expected) => {
    expect(await verdict(file, level)).toEqual(expected);
  });
});
