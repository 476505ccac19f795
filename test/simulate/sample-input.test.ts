import { describe, expect, it } from "vitest";
import { getTemplate } from "../../src/model/index.js";
import { explore, sampleFixtures, sampleInput, simulate } from "../../src/simulate/index.js";
import { decision, edge, llm, tool, workflow } from "../validate/builders.js";

describe("sampleInput / sampleFixtures", () => {
  it("fills every required input field with a fixed placeholder of its type", () => {
    const wf = {
      ...workflow([llm("a")], []),
      types: { Clause: { title: "text", "risk?": "number" } },
      inputSchema: {
        q: "text",
        n: "number",
        ok: "bool",
        tags: "text[2..5]",
        clause: "Clause",
        "note?": "text",
        ["__proto__"]: "text",
      },
    };
    const input = sampleInput(wf);
    expect(input).toEqual({
      q: "example",
      n: 0,
      ok: false,
      tags: ["example", "example"],
      clause: { title: "example" },
    });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
  });

  it("gives a structured llm an output of the workflow schema, enough for explore to cover every route", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no template");
    const fixtures = sampleFixtures(wf);
    expect(fixtures).toEqual({
      "llm-1": {
        outputs: [{ answer: "example", sources: [], is_complete: false, query: "example" }],
      },
    });
    const report = explore(wf, { input: sampleInput(wf), fixtures });
    expect(report.coverage.map((c) => [c.route, c.status])).toEqual([
      ["onTrue", "taken"],
      ["onFalse", "taken"],
    ]);
  });

  /** llm a (schema) → llm b (no schema) → tool t (reads a.hits and b.note) → d: loops to a. */
  const looping = workflow(
    [
      llm("a", { outputSchema: { hits: "number", more: "bool" } }),
      tool("t", "tool:search@1.0.0", { params: { q: "{{a.output.hits}} {{b.output.note}}" } }),
      llm("b", { structuredOutput: false }),
      decision("d", "output.more = true", { next: "a", maxRetries: 2 }, "end"),
    ],
    [edge("a", "b"), edge("b", "t"), edge("t", "d")],
    { outputSchema: { note: "text" } },
  );

  it("samples outputs as runs reach nodes (sampleOutputs), as sampleFixtures does up front", () => {
    const input = sampleInput(looping);
    const eager = explore(looping, { input, fixtures: sampleFixtures(looping) });
    const lazy = explore(looping, { input, sampleOutputs: true });
    expect(lazy).toEqual(eager);
    expect(lazy.runs.map((r) => [r.choices.map((c) => c.route).join(" "), r.complete])).toEqual([
      ["onTrue onTrue", false],
      ["onTrue onTrue onFalse", true],
      ["onTrue onFalse", true],
      ["onFalse", true],
    ]);
    const state = simulate(looping, { input, sampleOutputs: true });
    expect(state).toEqual(simulate(looping, { input, fixtures: sampleFixtures(looping) }));
    // a has a schema; b has none but t reads b.note; t's output is read by nobody.
    expect(state.trail.map((r) => [r.nodeId, r.output])).toEqual([
      ["a", { hits: 0, more: false }],
      ["b", { note: "example" }],
      ["t", {}],
      ["d", undefined],
      ["d", { hits: 0, more: false, note: "example" }],
    ]);
  });

  it("reads a given fixture before a sample, and refuses a sampleOutputs that is not a boolean", () => {
    const fixtures = { a: { outputs: [{ hits: 3, more: false }] } };
    const state = simulate(looping, { input: { q: "x" }, fixtures, sampleOutputs: true });
    expect(state.trail.map((r) => r.output).slice(0, 2)).toEqual([
      { hits: 3, more: false },
      { note: "example" },
    ]);
    expect(() => simulate(looping, { sampleOutputs: "yes" as unknown as boolean })).toThrow(
      new TypeError("sampleOutputs must be a boolean"),
    );
  });
});
