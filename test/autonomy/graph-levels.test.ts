import { describe, expect, it } from "vitest";
import { minCoherentLevel } from "../../src/autonomy/index.js";
import type { AgentEdge, AgentNode, AgentWorkflow, Decorator } from "../../src/model/index.js";

const llm = (id: string, decorators?: Decorator[]): AgentNode => ({
  id,
  type: "llm",
  config: { model: "m", promptRef: "prm:p@1.0.0" },
  ...(decorators === undefined ? {} : { decorators }),
});
const tool = (id: string): AgentNode => ({
  id,
  type: "tool",
  config: { usesTool: "tool:t@1.0.0" },
});
const binary = (id: string, onTrue: string, onFalse: string): AgentNode => ({
  id,
  type: "decision",
  config: { condition: "output.ok = true", onTrue: { next: onTrue }, onFalse: { next: onFalse } },
});
const multi = (id: string, targets: readonly string[], otherwise: string): AgentNode => ({
  id,
  type: "decision",
  config: {
    cases: targets.map((next, i) => ({ condition: `output.n = ${i}`, next })),
    otherwise: { next: otherwise },
  },
});
const data = (from: string, to: string): AgentEdge => ({ from, to, edgeType: "data" });

function wf(nodes: AgentNode[], edges: AgentEdge[]): AgentWorkflow {
  return {
    kind: "AgentWorkflow",
    id: "agnt-t",
    version: "1.0.0",
    name: "T",
    autonomyLevel: 0,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes,
    edges,
  };
}

describe("minCoherentLevel on graph shapes", () => {
  const cases: [string, AgentWorkflow, number][] = [
    ["an empty graph", wf([], []), 1],
    ["a single llm", wf([llm("a")], []), 1],
    ["a chain", wf([llm("a"), tool("b")], [data("a", "b")]), 1],
    [
      "a decision whose two routes both end",
      wf([llm("a"), binary("d", "end", "end")], [data("a", "d")]),
      1,
    ],
    ["a decision with two routes to the same node", wf([binary("d", "b", "b"), tool("b")], []), 1],
    ["a retry loop back to the llm", wf([llm("a"), binary("d", "end", "a")], [data("a", "d")]), 2],
    ["a self-loop on a decision", wf([binary("d", "end", "d")], []), 2],
    [
      "an llm/tool cycle through edges",
      wf([llm("a"), tool("b")], [data("a", "b"), data("b", "a")]),
      2,
    ],
    ["a branch to end and to a node", wf([binary("d", "end", "b"), tool("b")], []), 3],
    [
      "a multi-way decision with two forward targets",
      wf([multi("d", ["b", "b"], "c"), tool("b"), tool("c")], []),
      3,
    ],
    [
      "a multi-way decision: one forward target, one retry",
      wf([llm("a"), multi("d", ["a"], "end")], [data("a", "d")]),
      2,
    ],
    [
      "a branch inside a loop plus an exit",
      wf([llm("a"), multi("d", ["a", "b"], "end"), tool("b")], [data("a", "d")]),
      3,
    ],
    ["routes to unknown ids never run, so they do not branch", wf([binary("d", "x", "y")], []), 1],
    ["one unknown and one end route do not branch", wf([binary("d", "end", "y")], []), 1],
    [
      "a delegate edge",
      wf([llm("a")], [{ from: "a", to: "agnt-v@1.0.0", edgeType: "delegate" }]),
      4,
    ],
    [
      "a delegate edge and a branch",
      wf(
        [llm("a"), binary("d", "end", "b"), tool("b")],
        [data("a", "d"), { from: "a", to: "agnt-v@1.0.0", edgeType: "delegate" }],
      ),
      4,
    ],
    [
      "a static planner changes nothing",
      wf([llm("a", [{ type: "planner", strategy: "static" }])], []),
      1,
    ],
    [
      "a dynamic planner",
      wf(
        [
          llm("a", [
            { type: "memory", scope: "short" },
            { type: "planner", strategy: "dynamic" },
          ]),
        ],
        [],
      ),
      5,
    ],
  ];
  it.each(cases)("%s → %i", (_name, workflow, level) => {
    expect(minCoherentLevel(workflow)).toBe(level);
  });
});
