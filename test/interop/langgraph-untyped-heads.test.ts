/**
 * Steps a drawable graph reaches by no edge, on small literal drawings: which of them an undrawn
 * router reaches directly (the head of each unreached part), and the level that follows. The real
 * LangGraph 1.2.12 drawings are in `langgraph-untyped.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { assessAutonomy } from "../../src/autonomy/index.js";
import { ImportError } from "../../src/interop/index.js";
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
  // (`y` runs after `x`); a part with no head (a cycle) is entered at its first step. An unreached
  // step with no drawn edge of its own (LangGraph draws none for a node it does not reach) may lead
  // anywhere: its text decision routes to every step and the end, so what loops back is a loop (2).
  // Before, `y`, `z` and `x` below ended the run, and the chain and the cycle's tail justified 3.
  it.each<[string, unknown, [string, string, string][], string[], string[], number]>([
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
        ["y", "y.route", ""],
        ["y.route", "a", "a"],
        ["y.route", "x", "x"],
        ["y.route", "y", "y"],
      ],
      ["x"],
      ["y"],
      2,
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
      [],
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
        ["z", "z.route", ""],
        ["z.route", "a", "a"],
        ["z.route", "z", "z"],
        ["z.route", "x", "x"],
        ["z.route", "y", "y"],
      ],
      ["x"],
      ["z"],
      2,
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
      [],
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
      [],
      2,
    ],
    [
      "no step drawn after __start__: __start__ routes",
      drawing(["x"], [["__start__", "__end__"]]),
      [
        ["start.route", "x", "x"],
        ["x", "x.route", ""],
        ["x.route", "x", "x"],
      ],
      ["x"],
      ["x"],
      3,
    ],
  ])("%s", (_name, doc, edges, targets, open, level) => {
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.edges.map((e) => [e.from, e.to, e.when ?? ""])).toEqual(edges);
    for (const decision of workflow.nodes.filter((n) => n.type === "decision"))
      expect(decision.config).toMatchObject({ otherwise: { next: "end" } });
    expect(warnings.find((w) => w.data?.targets !== undefined)?.data?.targets).toEqual(targets);
    const unknown = warnings.filter((w) => w.data?.successors === "unknown");
    expect(unknown.map((w) => w.data?.nodeId)).toEqual(open);
    expect(assessAutonomy(workflow).level).toBe(level);
  });
});

describe("importLangGraphGraph: steps of unknown successors are bounded", () => {
  // Each such step routes to every step and the end: 399 of them in a drawing of 400 steps are
  // 159,999 branches, past the 100,000 read. Before, they were read as last steps, silently.
  it("a drawing whose unreached steps would have more than 100,000 branches is refused", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `n${String(i)}`);
    const doc = drawing(ids, [
      ["__start__", "n0"],
      ["n0", "__end__"],
    ]);
    let error: unknown;
    try {
      importLangGraphGraph(doc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    const failure = error as ImportError;
    expect([failure.format, failure.path]).toEqual(["langgraph-graph", "/nodes/2"]);
    expect(failure.reason).toContain("159999 branches, more than the 100000 read");
  });
});
