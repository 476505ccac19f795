/**
 * Steps a drawable graph reaches by no edge, on small literal drawings: which of them an undrawn
 * router reaches directly (the head of each unreached part), and the level that follows. The real
 * LangGraph 1.2.12 drawings are in `langgraph-untyped.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { assessAutonomy } from "../../src/autonomy/index.js";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";

const FUNCTION = ["langgraph", "_internal", "_runnable", "RunnableCallable"];

/** A drawing of function nodes `ids`, with `__start__` and `__end__`, and plain edges. */
function drawing(ids: readonly string[], edges: readonly (readonly [string, string])[]): unknown {
  const steps = ids.map((id) => ({ id, type: "runnable", data: { id: FUNCTION, name: id } }));
  return {
    nodes: [{ id: "__start__" }, ...steps, { id: "__end__" }],
    edges: edges.map(([source, target]) => ({ source, target })),
  };
}

describe("importLangGraphGraph: the head of each unreached part is a branch", () => {
  // `a` ends the drawing: it is the likely router. Only the head of an unreached part is a branch
  // (`y` runs after `x`); a part with no head (a cycle) is entered at its first step. Where the
  // drawn branch loops back, the level is that of the same router typed: a loop (2).
  it.each<[string, unknown, [string, string, string][], string[], number]>([
    [
      "a chain",
      drawing(
        ["a", "x", "y"],
        [
          ["__start__", "a"],
          ["a", "__end__"],
          ["x", "y"],
        ],
      ),
      [
        ["a", "a.route", ""],
        ["a.route", "x", "x"],
        ["x", "y", ""],
      ],
      ["x"],
      3,
    ],
    [
      "a cycle",
      drawing(
        ["a", "x", "y"],
        [
          ["__start__", "a"],
          ["a", "__end__"],
          ["x", "y"],
          ["y", "x"],
        ],
      ),
      [
        ["a", "a.route", ""],
        ["a.route", "x", "x"],
        ["x", "y", ""],
        ["y", "x", ""],
      ],
      ["x"],
      3,
    ],
    [
      "a step after a cycle, listed before it: reached through the cycle",
      drawing(
        ["a", "z", "x", "y"],
        [
          ["__start__", "a"],
          ["a", "__end__"],
          ["x", "y"],
          ["y", "x"],
          ["y", "z"],
        ],
      ),
      [
        ["a", "a.route", ""],
        ["a.route", "x", "x"],
        ["x", "y", ""],
        ["y", "x", ""],
        ["y", "z", ""],
      ],
      ["x"],
      3,
    ],
    [
      "a step that loops on itself",
      drawing(
        ["a", "x"],
        [
          ["__start__", "a"],
          ["a", "__end__"],
          ["x", "x"],
        ],
      ),
      [
        ["a", "a.route", ""],
        ["a.route", "x", "x"],
        ["x", "x", ""],
      ],
      ["x"],
      3,
    ],
    [
      "a branch drawn back to its router",
      drawing(
        ["a", "x"],
        [
          ["__start__", "a"],
          ["a", "__end__"],
          ["x", "a"],
        ],
      ),
      [
        ["a", "a.route", ""],
        ["a.route", "x", "x"],
        ["x", "a", ""],
      ],
      ["x"],
      2,
    ],
    [
      "no step drawn after __start__: __start__ routes",
      drawing(["x"], [["__start__", "__end__"]]),
      [["start.route", "x", "x"]],
      ["x"],
      3,
    ],
  ])("%s", (_name, doc, edges, targets, level) => {
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.edges.map((e) => [e.from, e.to, e.when ?? ""])).toEqual(edges);
    const decision = workflow.nodes.find((n) => n.type === "decision");
    expect(decision?.config).toMatchObject({ otherwise: { next: "end" } });
    expect(warnings.find((w) => w.data?.targets !== undefined)?.data?.targets).toEqual(targets);
    expect(assessAutonomy(workflow).level).toBe(level);
  });
});
