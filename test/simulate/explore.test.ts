/**
 * `explore`: every decision route forced in turn, with exact runs, coverage, stops and ends.
 */
import { describe, expect, it } from "vitest";
import { explore, simulate } from "../../src/simulate/index.js";
import { decision, edge, llm, template, workflow } from "./builders.js";

const extracted = { extracted: "text", is_valid: true, category: "pending" };

describe("explore", () => {
  it("covers both routes of dec-validate in the Document Review template and lists each end", () => {
    const report = explore(template("document-review"), {
      fixtures: {
        "llm-extract": { outputs: [extracted] },
        "llm-classify": { outputs: [{ category: "invoice" }] },
      },
    });
    expect(report.coverage).toEqual([
      { nodeId: "dec-validate", route: "onTrue", next: "llm-classify", status: "taken", runs: 1 },
      { nodeId: "dec-validate", route: "onFalse", next: "end", status: "taken", runs: 1 },
    ]);
    expect(report.ends).toEqual([
      { nodeId: "llm-classify", output: { ...extracted, category: "invoice" }, runs: [0] },
      { nodeId: "dec-validate", output: extracted, runs: [1] },
    ]);
    expect(report.blocks).toEqual([]);
    expect(report.runs.map((r) => [r.decide, r.complete, r.lastNodeId, r.steps])).toEqual([
      [{ "dec-validate": ["onTrue"] }, true, "llm-classify", 2],
      [{ "dec-validate": ["onFalse"] }, true, "dec-validate", 1],
    ]);
    expect(report.runs[1]?.choices).toEqual([
      { nodeId: "dec-validate", visit: 1, route: "onFalse", forced: true },
    ]);
    expect(report.truncated).toBe(false);
    expect(report.bounded).toBe(false);
  });

  it("ends the invalid path without a category, which the template declares optional", () => {
    const report = explore(template("document-review"), {
      fixtures: { "llm-extract": { outputs: [{ extracted: "t", is_valid: false }] } },
    });
    expect(report.blocks).toEqual([]);
    expect(report.ends.map((e) => [e.nodeId, e.output, e.runs])).toEqual([
      ["llm-classify", { extracted: "t", is_valid: false }, [0]],
      ["dec-validate", { extracted: "t", is_valid: false }, [1]],
    ]);
  });

  it("lists a missing required output field beside each end, not as a stop", () => {
    const report = explore(template("document-review"), {
      fixtures: { "llm-extract": { outputs: [{ is_valid: false }] } },
    });
    const message = `the final output violates the workflow's outputSchema: field "extracted" is missing`;
    const finding = (nodeId: string): unknown => ({
      code: "FINAL_OUTPUT_SCHEMA",
      severity: "warning",
      message,
      target: { kind: "workflow" },
      path: "/outputSchema",
      data: { nodeId, pointer: "/extracted", field: "extracted" },
    });
    expect(report.blocks).toEqual([]);
    expect(report.ends).toEqual([
      {
        nodeId: "llm-classify",
        output: { is_valid: false },
        findings: [finding("llm-classify")],
        runs: [0],
      },
      {
        nodeId: "dec-validate",
        output: { is_valid: false },
        findings: [finding("dec-validate")],
        runs: [1],
      },
    ]);
  });

  it("forces the research loop round until its retries are exhausted", () => {
    const report = explore(template("research"), {
      fixtures: {
        "llm-1": { outputs: [{ query: "q" }] },
        "tool-2": { outputs: [{ answer: "a", sources: [], is_complete: true }] },
      },
    });
    expect(report.runs.map((r) => r.decide["dec-3"])).toEqual([
      ["onTrue"],
      ["onFalse", "onTrue"],
      ["onFalse", "onFalse", "onTrue"],
      ["onFalse", "onFalse", "onFalse", "onTrue"],
      ["onFalse", "onFalse", "onFalse", "onFalse"],
    ]);
    expect(report.blocks).toEqual([
      { nodeId: "dec-3", cell: "onFalse", reason: "retry exhausted after 3 attempts", runs: [4] },
    ]);
    expect(report.ends).toHaveLength(1);
    expect(report.coverage.map((c) => [c.route, c.status, c.runs])).toEqual([
      ["onTrue", "taken", 4],
      ["onFalse", "taken", 4],
    ]);
  });

  it("every run is reproduced by simulate with its decide table", () => {
    const wf = template("research");
    const fixtures = {
      "llm-1": { outputs: [{ query: "q" }] },
      "tool-2": { outputs: [{ answer: "a", sources: [], is_complete: false }] },
    };
    const report = explore(wf, { fixtures });
    const runs = report.runs;
    expect(runs).toHaveLength(5);
    expect(report.states).toBeUndefined();
    for (const run of runs) {
      const state = simulate(wf, { fixtures, decide: run.decide });
      expect(state.blockedDecision).toEqual(run.blockedDecision);
      expect(state.complete).toBe(run.complete);
    }
  });

  it("keepStates returns each run's final state, the one simulate gives for its decide table", () => {
    const wf = template("research");
    const fixtures = {
      "llm-1": { outputs: [{ query: "q" }] },
      "tool-2": { outputs: [{ answer: "a", sources: [], is_complete: false }] },
    };
    const report = explore(wf, { fixtures, keepStates: true, maxSteps: 12 });
    expect(report.states).toHaveLength(5);
    report.runs.forEach((run, i) => {
      expect(report.states?.[i]).toEqual(
        simulate(wf, { fixtures, decide: run.decide, maxSteps: 12 }),
      );
    });
    expect(() => explore(wf, { keepStates: 1 as unknown as boolean })).toThrow(
      new TypeError("keepStates must be a boolean"),
    );
  });

  it("maxRevisits keeps looping routes from being forced again; maxRuns truncates", () => {
    const wf = template("research");
    const fixtures = {
      "llm-1": { outputs: [{ query: "q" }] },
      "tool-2": { outputs: [{ answer: "a", sources: [], is_complete: true }] },
    };
    const bounded = explore(wf, { fixtures, maxRevisits: 0 });
    expect(bounded.runs.map((r) => r.decide["dec-3"])).toEqual([["onTrue"], ["onFalse", "onTrue"]]);
    expect(bounded.bounded).toBe(true);
    const truncated = explore(wf, { fixtures, maxRuns: 2 });
    expect(truncated.runs).toHaveLength(2);
    expect(truncated.truncated).toBe(true);
  });

  it("names routes that can never be taken: unreachable decisions, missing targets", () => {
    const wf = workflow(
      [
        llm("a"),
        decision("d1", {
          condition: "output.x = 1",
          onTrue: { next: "ghost" },
          onFalse: { next: "end" },
        }),
        decision("d2", {
          condition: "output.x = 1",
          onTrue: { next: "d2" },
          onFalse: { next: "end" },
        }),
      ],
      [edge("a", "d1")],
    );
    expect(explore(wf).coverage).toEqual([
      {
        nodeId: "d1",
        route: "onTrue",
        next: "ghost",
        status: "blocked",
        runs: 0,
        reason: 'route onTrue goes to "ghost", which is not a node',
      },
      { nodeId: "d1", route: "onFalse", next: "end", status: "taken", runs: 1 },
      {
        nodeId: "d2",
        route: "onTrue",
        next: "d2",
        status: "unreachable",
        runs: 0,
        reason: 'the entry cannot reach "d2"',
      },
      {
        nodeId: "d2",
        route: "onFalse",
        next: "end",
        status: "unreachable",
        runs: 0,
        reason: 'the entry cannot reach "d2"',
      },
    ]);
  });

  it("says when a decision was never reached (an earlier stop)", () => {
    const wf = workflow(
      [
        llm("a"),
        decision("d", {
          condition: "output.x = 1",
          onTrue: { next: "end" },
          onFalse: { next: "end" },
        }),
      ],
      [edge("a", "d")],
    );
    const report = explore(wf, { fixtures: { a: { fails: 1 } } });
    expect(report.coverage.map((c) => [c.route, c.status, c.reason])).toEqual([
      ["onTrue", "not-reached", 'no explored run reached "d"'],
      ["onFalse", "not-reached", 'no explored run reached "d"'],
    ]);
    expect(report.blocks).toEqual([
      {
        nodeId: "a",
        cell: "execution",
        reason: "execution failed: fixture failure 1 of 1",
        runs: [0],
      },
    ]);
  });

  it("is deterministic and rejects misused bounds", () => {
    const wf = template("document-review");
    expect(JSON.stringify(explore(wf))).toBe(JSON.stringify(explore(wf)));
    expect(() => explore(wf, { maxRuns: -1 })).toThrow(TypeError);
    expect(() => explore(wf, { maxRevisits: 1.5 })).toThrow(TypeError);
  });
});
