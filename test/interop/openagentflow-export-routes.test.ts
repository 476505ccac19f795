/**
 * The OpenAgentFlow export of a decision's routes: the peer (OAF's adapter, agentflow's own
 * importer) checks conditional edges, then conditional terminals, then the first unconditional
 * transition, where agentflow takes the first case that holds; the IR written must take the same
 * route, declare what it cannot write, and never hold what OAF refuses (an undefined state
 * variable, a self-loop, a second edge between the same agents).
 */
import { describe, expect, it } from "vitest";
import { exportOpenAgentFlow, importOpenAgentFlow } from "../../src/interop/openagentflow/index.js";
import type { OafDocument, OafExpr } from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import { codes } from "./helpers.js";

const id = { type: "IdentifierExpr" } as const;
const lit = { type: "LiteralExpr" } as const;
const BLOCKED = {
  type: "BinaryExpr",
  operator: "==",
  left: { ...id, name: "blocked" },
  right: { ...lit, value: true },
};
const AMOUNT = {
  type: "BinaryExpr",
  operator: ">",
  left: { ...id, name: "amount" },
  right: { ...lit, value: 0 },
};

function llm(nodeId: string, outputSchema?: Record<string, string>): unknown {
  return {
    id: nodeId,
    type: "llm",
    config: {
      model: "gpt-4o",
      promptRef: `prm:${nodeId}@1.0.0`,
      ...(outputSchema === undefined ? {} : { structuredOutput: true, outputSchema }),
    },
  };
}

/** An agent `triage` with the decision `gate` after it, and the agents it routes to. */
function gated(
  config: unknown,
  more: string[],
  outputSchema: Record<string, string>,
): AgentWorkflow {
  const { workflow, diagnostics } = parseWorkflow({
    kind: "AgentWorkflow",
    id: "agnt-order",
    version: "1.0.0",
    name: "agnt-order",
    autonomyLevel: 1,
    inputSchema: { claim: "text" },
    outputSchema: {},
    nodes: [
      llm("triage", outputSchema),
      { id: "gate", type: "decision", config },
      ...more.map((m) => llm(m)),
    ],
    edges: [{ from: "triage", to: "gate", edgeType: "data" }],
  });
  if (workflow === undefined) throw new Error(JSON.stringify(diagnostics));
  return workflow;
}

/** The value of an IR condition over the state, as OAF's adapter writes it in Python. */
function holds(tree: OafExpr, state: Readonly<Record<string, unknown>>): unknown {
  switch (tree.type) {
    case "IdentifierExpr":
      return state[tree.name];
    case "LiteralExpr":
      return tree.value;
    case "UnaryExpr":
      return !holds(tree.right, state);
    case "LogicalExpr":
      return tree.operator === "and"
        ? Boolean(holds(tree.left, state)) && Boolean(holds(tree.right, state))
        : Boolean(holds(tree.left, state)) || Boolean(holds(tree.right, state));
    default: {
      const [l, r] = [holds(tree.left, state), holds(tree.right, state)] as [number, number];
      const compare: Record<string, boolean> = {
        "==": l === r,
        "!=": l !== r,
        "<": l < r,
        "<=": l <= r,
        ">": l > r,
        ">=": l >= r,
      };
      return compare[tree.operator];
    }
  }
}

/**
 * Where OAF's LangGraph adapter (`_graphEdges`) goes after agent `source`: its conditional edges
 * in IR order, then its conditional terminals, the first that holds; else its first
 * unconditional transition; else it raises.
 */
function peerRoute(doc: OafDocument, source: string, state: Record<string, unknown>): string {
  const group = [
    ...doc.graph.edges.filter((e) => e.source === source),
    ...doc.graph.terminals.filter((t) => t.source === source).map((t) => ({ ...t, target: "end" })),
  ];
  for (const t of group)
    if (t.condition !== null && holds(t.condition, state) === true) return t.target;
  const fallback = group.find((t) => t.condition === null);
  if (fallback === undefined) throw new Error(`No matching conditional edge from '${source}'`);
  return fallback.target;
}

/** Where agentflow's run goes after `triage`, on one output of it: the next agent, or `end`. */
function agentflowRoute(wf: AgentWorkflow, output: Record<string, unknown>): string {
  const state = simulate(wf, {
    input: { claim: "c" },
    fixtures: { triage: { outputs: [output] } },
    sampleOutputs: true,
  });
  expect(state.complete).toBe(true);
  const agents = new Set(wf.nodes.filter((n) => n.type === "llm").map((n) => n.id));
  return state.visitedNodes.filter((n) => agents.has(n))[1] ?? "end";
}

/** agentflow's route, the peer's route on the export, and the route of the re-import's cases. */
function routes(wf: AgentWorkflow, output: Record<string, unknown>): string[] {
  const { document } = exportOpenAgentFlow(wf);
  return [agentflowRoute(wf, output), peerRoute(document, "triage", output)];
}

describe("a decision whose case order the peer does not check in", () => {
  // blocked → end before amount > 0 → payout: the peer checks the edge first
  const wf = gated(
    {
      cases: [
        { condition: "output.blocked = true", next: "end" },
        { condition: "output.amount > 0", next: "payout" },
      ],
      otherwise: { next: "end" },
    },
    ["payout"],
    { blocked: "bool", amount: "number" },
  );

  it("conjoins the later case with the negation of the earlier one", () => {
    const { document } = exportOpenAgentFlow(wf);
    expect(document.graph.edges).toStrictEqual([
      {
        source: "triage",
        target: "payout",
        condition: {
          type: "LogicalExpr",
          operator: "and",
          left: AMOUNT,
          right: { type: "UnaryExpr", operator: "not", right: BLOCKED },
        },
      },
    ]);
    expect(document.graph.terminals).toStrictEqual([
      { source: "triage", condition: BLOCKED },
      { source: "triage", condition: null },
      { source: "payout", condition: null },
    ]);
  });

  it("re-imports as the cases in the peer's order, each taking agentflow's route", () => {
    const back = importOpenAgentFlow(exportOpenAgentFlow(wf).document).workflow;
    expect(back.nodes.find((n) => n.id === "triage-route")?.config).toStrictEqual({
      cases: [
        { condition: "output.amount > 0 and not(output.blocked = true)", next: "payout" },
        { condition: "output.blocked = true", next: "end" },
      ],
      otherwise: { next: "end" },
    });
  });

  it.each([
    [{ blocked: true, amount: 5 }, "end"],
    [{ blocked: false, amount: 5 }, "payout"],
    [{ blocked: false, amount: 0 }, "end"],
  ])("agentflow and OAF's adapter take the same route on %j", (output, route) => {
    expect(routes(wf, output)).toStrictEqual([route, route]);
  });
});

describe("cases to one target", () => {
  const wf = gated(
    {
      cases: [
        { condition: "output.score < 0.2", next: "escalate" },
        { condition: "output.score > 0.9", next: "escalate" },
      ],
      otherwise: { next: "end" },
    },
    ["escalate"],
    { score: "number" },
  );

  it("are one edge, the OR of their conditions, not two edges OAF refuses", () => {
    const { document, warnings } = exportOpenAgentFlow(wf);
    expect(document.graph.edges).toStrictEqual([
      {
        source: "triage",
        target: "escalate",
        condition: {
          type: "LogicalExpr",
          operator: "or",
          left: {
            type: "BinaryExpr",
            operator: "<",
            left: { ...id, name: "score" },
            right: { ...lit, value: 0.2 },
          },
          right: {
            type: "BinaryExpr",
            operator: ">",
            left: { ...id, name: "score" },
            right: { ...lit, value: 0.9 },
          },
        },
      },
    ]);
    expect(warnings.filter((w) => w.path.startsWith("/nodes/1"))).toEqual([]);
  });

  it.each([
    [{ score: 0.1 }, "escalate"],
    [{ score: 0.5 }, "end"],
    [{ score: 0.95 }, "escalate"],
  ])("agentflow and OAF's adapter take the same route on %j", (output, route) => {
    expect(routes(wf, output)).toStrictEqual([route, route]);
  });

  it("a case to the otherwise's agent is that unconditional edge; later cases exclude it", () => {
    const other = gated(
      {
        cases: [
          { condition: "output.score < 0.2", next: "escalate" },
          { condition: "output.score < 0.5", next: "review" },
        ],
        otherwise: { next: "escalate" },
      },
      ["escalate", "review"],
      { score: "number" },
    );
    const { document } = exportOpenAgentFlow(other);
    expect(document.graph.edges).toStrictEqual([
      {
        source: "triage",
        target: "review",
        condition: {
          type: "LogicalExpr",
          operator: "and",
          left: {
            type: "BinaryExpr",
            operator: "<",
            left: { ...id, name: "score" },
            right: { ...lit, value: 0.5 },
          },
          right: {
            type: "UnaryExpr",
            operator: "not",
            right: {
              type: "BinaryExpr",
              operator: "<",
              left: { ...id, name: "score" },
              right: { ...lit, value: 0.2 },
            },
          },
        },
      },
      { source: "triage", target: "escalate", condition: null },
    ]);
    expect(routes(other, { score: 0.1 })).toStrictEqual(["escalate", "escalate"]);
    expect(routes(other, { score: 0.3 })).toStrictEqual(["review", "review"]);
    expect(routes(other, { score: 0.7 })).toStrictEqual(["escalate", "escalate"]);
  });
});

describe("state variables and refused transitions", () => {
  it("writes the fields of an llm node's outputSchema a decision reads as state variables", () => {
    // the workflow's outputSchema lacks `score`; the llm's has it
    const wf = gated(
      { condition: "output.score >= 0.8", onTrue: { next: "end" }, onFalse: { next: "review" } },
      ["review"],
      { reply: "text", score: "number" },
    );
    const { document } = exportOpenAgentFlow(wf);
    expect(document.state.variables).toStrictEqual([
      { name: "claim", type: "string", options: [{ name: "required", args: [] }] },
      { name: "reply", type: "string", options: [] },
      { name: "score", type: "float", options: [] },
    ]);
    expect(document.agents[0]?.outputs).toStrictEqual(["reply", "score"]);
    // agentflow's own importer reads it back
    expect(() => importOpenAgentFlow(document)).not.toThrow();
  });

  it.each([
    [
      "a condition reading no state variable",
      { condition: "output.ghost = 1", onTrue: { next: "review" }, onFalse: { next: "end" } },
      ["NOT_EXPORTABLE", "/nodes/1/config/onTrue"],
      { nodeId: "gate", reads: "ghost" },
    ],
    [
      "a route back to the agent itself (OAF refuses a self-loop)",
      { condition: "output.score >= 0.8", onTrue: { next: "end" }, onFalse: { next: "triage" } },
      ["NOT_EXPORTABLE", "/nodes/1/config/onFalse"],
      { source: "triage", target: "triage", reason: "self-loop" },
    ],
    [
      "a case back to the agent itself",
      {
        cases: [{ condition: "output.score < 0.8", next: "triage", maxRetries: 3 }],
        otherwise: { next: "review" },
      },
      ["NOT_EXPORTABLE", "/nodes/1/config/cases/0"],
      { source: "triage", target: "triage", reason: "self-loop" },
    ],
  ])("%s is declared at the route and not written", (_, config, code, data) => {
    const wf = gated(config, ["review"], { score: "number" });
    const { document, warnings } = exportOpenAgentFlow(wf);
    const at = warnings.filter((w) => w.path.startsWith("/nodes/1"));
    expect(codes(at)).toStrictEqual([code]);
    expect(at[0]?.data).toStrictEqual(data);
    expect(document.graph.edges.filter((e) => e.target === "triage")).toEqual([]);
    const reads = JSON.stringify(document.graph);
    expect(reads).not.toContain("ghost");
    expect(() => importOpenAgentFlow(document)).not.toThrow();
  });
});
