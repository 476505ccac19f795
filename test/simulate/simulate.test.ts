/**
 * The acceptance cases of SPEC 5 on the shipped Research Agent template, with exact values: the
 * retry loop, its exhaustion, an undecidable condition, the error boundary's logical-time backoff
 * and the budget.
 */
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import type { Fixtures } from "../../src/simulate/index.js";
import { finalOutput, runUsage, simulate } from "../../src/simulate/index.js";
import { path, records, template } from "./builders.js";

const research = (): AgentWorkflow => template("research");
const found = (is_complete: boolean) => ({ answer: "a", sources: ["s1"], is_complete });

/** The research template with the looping route's bound changed. */
function researchWithMaxRetries(maxRetries: number): AgentWorkflow {
  const wf = research();
  return {
    ...wf,
    nodes: wf.nodes.map((n) =>
      n.id === "dec-3" && n.type === "decision"
        ? {
            ...n,
            config: {
              condition: "output.is_complete = true",
              onTrue: { next: "end" },
              onFalse: { next: "llm-1", maxRetries },
            },
          }
        : n,
    ),
  };
}

const loopFixtures = (fails = 0): Fixtures => ({
  "llm-1": { outputs: [{ query: "q1" }, { query: "q2" }], fails },
  "tool-2": { outputs: [found(false), found(true)] },
});

describe("Research Agent acceptance", () => {
  it("completes after one retry when is_complete is false, then true", () => {
    const state = simulate(research(), { fixtures: loopFixtures() });
    expect(state.complete).toBe(true);
    expect(state.blockedDecision).toBeNull();
    expect(path(state)).toEqual([
      "llm-1:move",
      "llm-1:boundary",
      "tool-2:move",
      "dec-3:decision",
      "llm-1:move",
      "llm-1:boundary",
      "tool-2:move",
      "dec-3:decision",
      "dec-3:end",
    ]);
    const decisions = records(state, "decision");
    expect(decisions.map((r) => [r.route, r.next, r.retry, r.forced])).toEqual([
      ["onFalse", "llm-1", { count: 1, max: 3 }, false],
      ["onTrue", "end", undefined, false],
    ]);
    expect(records(state, "move").map((r) => r.params)).toEqual([
      undefined,
      { query: "q1" },
      undefined,
      { query: "q2" },
    ]);
    expect(finalOutput(state)).toEqual({ query: "q2", ...found(true) });
    expect(runUsage(state)).toEqual({ steps: 4, moves: 6, tokens: 8192, logicalTime: 0 });
    expect(state.visitedNodes).toEqual(["llm-1", "tool-2", "dec-3"]);
    expect(state.traversedEdges).toEqual([
      "llm-1->tool-2",
      "tool-2->dec-3",
      "dec-3->llm-1",
      "dec-3->end",
    ]);
    expect(state.tokens).toEqual([]);
  });

  it("blocks with an exhausted retry on dec-3 when is_complete stays false (maxRetries 2)", () => {
    const state = simulate(researchWithMaxRetries(2), {
      fixtures: { "llm-1": { outputs: [{ query: "q" }] }, "tool-2": { outputs: [found(false)] } },
    });
    expect(state.complete).toBe(false);
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "onFalse",
      reason: "retry exhausted after 2 attempts",
    });
    expect(records(state, "decision").map((r) => r.retry)).toEqual([
      { count: 1, max: 2 },
      { count: 2, max: 2 },
    ]);
    const last = state.trail[state.trail.length - 1];
    expect(last).toMatchObject({
      type: "decision-blocked",
      nodeId: "dec-3",
      visit: 3,
      route: "onFalse",
      forced: false,
      cell: "onFalse",
      usage: { steps: 6, moves: 9, tokens: 12288, logicalTime: 0 },
    });
    expect(state.tokens).toEqual(["dec-3"]);
  });

  it("blocks as undecidable (cell condition) when the field is absent", () => {
    const state = simulate(research(), {
      fixtures: {
        "llm-1": { outputs: [{ query: "q" }] },
        "tool-2": { outputs: [{ answer: "a" }] },
      },
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "condition",
      reason: "output.is_complete is absent",
    });
  });

  it("recovers from two failures of llm-1 at logical times 1 then 3 (exponential backoff)", () => {
    const state = simulate(research(), {
      fixtures: {
        "llm-1": { outputs: [{ query: "q" }], fails: 2 },
        "tool-2": { outputs: [found(true)] },
      },
    });
    expect(state.complete).toBe(true);
    const caught = records(state, "boundary").filter((r) => r.decorator === "errorBoundary");
    expect(caught.map((r) => [r.nodeId, r.attempt, r.backoff, r.logicalTime, r.error])).toEqual([
      ["llm-1", 1, 1, 1, "fixture failure 1 of 2"],
      ["llm-1", 2, 2, 3, "fixture failure 2 of 2"],
    ]);
    expect(records(state, "move")[0]).toMatchObject({ nodeId: "llm-1", visit: 1, attempt: 3 });
    // failed attempts are not charged: two steps, one model call of 4,096 tokens
    expect(runUsage(state)).toEqual({ steps: 2, moves: 5, tokens: 4096, logicalTime: 3 });
  });

  it("blocks at the error boundary when llm-1 fails 4 times (maxRetries 3)", () => {
    const state = simulate(research(), { fixtures: { "llm-1": { fails: 4 } } });
    expect(state.blockedDecision).toEqual({
      nodeId: "llm-1",
      cell: "errorBoundary",
      reason: "retries exhausted after 3 attempts (4 failed executions): fixture failure 4 of 4",
    });
    expect(
      records(state, "boundary")
        .filter((r) => r.decorator === "errorBoundary")
        .map((r) => r.logicalTime),
    ).toEqual([1, 3, 7]);
    expect(runUsage(state).logicalTime).toBe(7);
  });

  it("blocks on the budget when budget.maxSteps is lower than the path", () => {
    // steps are llm/tool outputs (decisions are free): llm-1, tool-2, llm-1, then tool-2 is the 4th
    const state = simulate(research(), { fixtures: loopFixtures(), budget: { maxSteps: 3 } });
    expect(state.blockedDecision).toEqual({
      nodeId: "tool-2",
      cell: "budget",
      reason: 'budget.maxSteps 3 exceeded: step 4 would run "tool-2"',
    });
    expect(state.trail[state.trail.length - 1]).toMatchObject({
      type: "decision-blocked",
      limit: "budget.maxSteps",
      edgeId: "llm-1->tool-2",
      visit: 2,
      usage: { steps: 3, moves: 4, tokens: 8192, logicalTime: 0 },
    });
  });

  it("the template's own budget (maxSteps 12) stops an endless loop before the retry bound", () => {
    const state = simulate(researchWithMaxRetries(10), {
      fixtures: { "tool-2": { outputs: [found(false)] }, "llm-1": { outputs: [{ query: "q" }] } },
    });
    expect(state.blockedDecision).toMatchObject({ nodeId: "llm-1", cell: "budget" });
    expect(runUsage(state).steps).toBe(12);
  });

  it("the maxSteps option bounds the run and is named in the reason", () => {
    const state = simulate(research(), { fixtures: loopFixtures(), maxSteps: 2 });
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "budget",
      reason: "maxSteps 2 reached: the simulation's step bound stops the run",
    });
  });
});
