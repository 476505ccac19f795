/**
 * How a run moves through the graph beyond the stop table: forced routes, the end of a `decide`
 * list, param templates, merging, edge order, the fixed backoff, and awkward node ids.
 */
import { describe, expect, it } from "vitest";
import { finalOutput, simulate } from "../../src/simulate/index.js";
import { binary, edge, gate, llm, records, tool, workflow } from "./builders.js";

describe("run flow", () => {
  it("decide overrides a simulable condition and marks the route forced", () => {
    const wf = gate(binary("output.ok = true", "b", "end"), llm("b"));
    const state = simulate(wf, {
      fixtures: { a: { outputs: [{ ok: true }] } },
      decide: { d: ["onFalse"] },
    });
    expect(records(state, "decision")).toEqual([
      expect.objectContaining({ route: "onFalse", next: "end", forced: true }),
    ]);
  });

  it("past the end of a decide list the condition decides again", () => {
    const wf = workflow([llm("a"), binary("output.ok = true", "end", "a", 5)], [edge("a", "d")]);
    const state = simulate(wf, {
      fixtures: { a: { outputs: [{ ok: true }] } },
      decide: { d: ["onFalse", "onFalse"] },
    });
    expect(records(state, "decision").map((r) => [r.route, r.forced])).toEqual([
      ["onFalse", true],
      ["onFalse", true],
      ["onTrue", false],
    ]);
  });

  it("resolves whole templates with their type, embedded ones as text, and input fields", () => {
    const wf = workflow(
      [
        llm("a"),
        tool("t", {
          n: "{{a.output.n}}",
          s: "n={{a.output.n}}, q={{input.q}}",
          deep: { list: ["{{a.output.o}}"] },
        }),
      ],
      [edge("a", "t")],
    );
    const state = simulate(wf, {
      fixtures: { a: { outputs: [{ n: 2, o: { k: true } }] } },
      input: { q: "hi" },
    });
    expect(records(state, "move")[1]?.params).toEqual({
      n: 2,
      s: "n=2, q=hi",
      deep: { list: [{ k: true }] },
    });
  });

  it("reads templates from the node's LAST output", () => {
    const wf = workflow(
      [llm("a"), tool("t", { q: "{{a.output.q}}" }), binary("output.done = true", "end", "a", 3)],
      [edge("a", "t"), edge("t", "d")],
    );
    const state = simulate(wf, {
      fixtures: {
        a: {
          outputs: [
            { q: "first", done: false },
            { q: "second", done: true },
          ],
        },
      },
    });
    expect(
      records(state, "move").flatMap((r) => (r.params === undefined ? [] : [r.params])),
    ).toEqual([{ q: "first" }, { q: "second" }]);
  });

  it("merges outputs shallowly and the last write wins", () => {
    const wf = workflow([llm("a"), llm("b")], [edge("a", "b")]);
    const state = simulate(wf, {
      fixtures: {
        a: { outputs: [{ x: 1, o: { p: 1 } }] },
        b: { outputs: [{ x: 2, o: { q: 2 } }] },
      },
    });
    expect(finalOutput(state)).toEqual({ x: 2, o: { q: 2 } });
  });

  it("follows the first successor in edge order", () => {
    const wf = workflow([llm("a"), llm("b"), llm("c")], [edge("a", "c"), edge("a", "b")]);
    expect(simulate(wf).visitedNodes).toEqual(["a", "c"]);
  });

  it("retries with a fixed backoff of 1", () => {
    const wf = workflow(
      [{ ...llm("a"), decorators: [{ type: "errorBoundary", maxRetries: 5, backoff: "fixed" }] }],
      [],
    );
    const state = simulate(wf, { fixtures: { a: { fails: 3 } } });
    expect(records(state, "boundary").map((r) => r.logicalTime)).toEqual([1, 2, 3]);
    expect(state.complete).toBe(true);
  });

  it("handles node ids XState would read as paths, and prototype names", () => {
    const wf = workflow(
      [llm("a.b#c"), llm("constructor"), llm("__proto__")],
      [edge("a.b#c", "constructor"), edge("constructor", "__proto__")],
    );
    const state = simulate(wf, {
      fixtures: JSON.parse('{"__proto__":{"outputs":[{"p":1}]}}') as never,
    });
    expect(state.visitedNodes).toEqual(["a.b#c", "constructor", "__proto__"]);
    expect(finalOutput(state)).toEqual({ p: 1 });
  });
});
