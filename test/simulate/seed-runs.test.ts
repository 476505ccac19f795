/**
 * The seed engine's own Research Agent template (test/fixtures/agentflow), run as the seed's
 * engine runs it (issue 18, item 2): `tool-2` reads `{{llm-1.output.query}}`, and when the latest
 * output of `llm-1` has none, the template keeps its text and the run goes on, the tool's record
 * saying so. Each run ends complete, or blocked at the node and cell the seed's semantics give.
 * `strictParams: true` keeps the stop at `tool-2`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow, Budget } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import type { Fixtures, SimulationState } from "../../src/simulate/index.js";
import { simulate } from "../../src/simulate/index.js";

const parsed = parseWorkflow(
  JSON.parse(readFileSync("test/fixtures/agentflow/template-research-agent.json", "utf8")),
);
if (parsed.workflow === undefined) throw new Error("the seed template does not parse");
const seed: AgentWorkflow = parsed.workflow;

/** A final answer that fits the template's outputSchema (agentflow checks it; see seed-compatibility). */
const answer = { answer: "heat pumps save 30%", sources: ["a"], is_complete: true };
const QUERY = "{{llm-1.output.query}}";
const UNRESOLVED = [{ template: QUERY, reason: 'the last output of "llm-1" has no field "query"' }];

function end(state: SimulationState): unknown {
  return state.complete ? "complete" : state.blockedDecision;
}

/** The tool's records: what it was called with, and what was left unresolved. */
function toolCalls(state: SimulationState): unknown[] {
  return state.trail
    .filter((r) => r.type === "move" && r.nodeId === "tool-2")
    .map((r) => ({ query: r.params?.query, unresolved: r.unresolvedTemplates ?? [] }));
}

const RUNS: readonly {
  readonly name: string;
  readonly fixtures: Fixtures;
  readonly budget?: Budget;
  readonly ends: unknown;
  readonly calls: unknown[];
}[] = [
  {
    name: "one retry, then complete (the second output has no query)",
    fixtures: { "llm-1": { outputs: [{ query: "heat pumps", is_complete: false }, answer] } },
    ends: "complete",
    calls: [
      { query: "heat pumps", unresolved: [] },
      { query: QUERY, unresolved: UNRESOLVED },
    ],
  },
  {
    name: "retries exhausted at the decision",
    fixtures: {
      "llm-1": { outputs: [{ query: "q", is_complete: false }, { is_complete: false }] },
    },
    ends: {
      nodeId: "dec-3",
      cell: "onFalse",
      reason: "retry exhausted after 3 attempts",
    },
    calls: [
      { query: "q", unresolved: [] },
      { query: QUERY, unresolved: UNRESOLVED },
      { query: QUERY, unresolved: UNRESOLVED },
      { query: QUERY, unresolved: UNRESOLVED },
    ],
  },
  {
    name: "an absent field at the decision",
    fixtures: { "llm-1": { outputs: [{ answer: "x" }] } },
    ends: { nodeId: "dec-3", cell: "condition", reason: "output.is_complete is absent" },
    calls: [{ query: QUERY, unresolved: UNRESOLVED }],
  },
  {
    name: "an error boundary that recovers",
    fixtures: { "llm-1": { fails: 2, outputs: [answer] } },
    ends: "complete",
    calls: [{ query: QUERY, unresolved: UNRESOLVED }],
  },
  {
    name: "an error boundary exhausted",
    fixtures: { "llm-1": { fails: 9 } },
    ends: {
      nodeId: "llm-1",
      cell: "errorBoundary",
      reason: "retries exhausted after 3 attempts (4 failed executions): fixture failure 4 of 9",
    },
    calls: [],
  },
  {
    // The template's own maxSteps 12 is never reached: its retry bound allows 8 llm/tool outputs.
    // A host's budget of 5 is: the seed runs tool-2 as step 6 and stops at it; we stop before it.
    name: "the step budget (a budget of maxSteps 5; failures and decisions are free)",
    fixtures: { "llm-1": { fails: 3, outputs: [{ is_complete: false }] } },
    budget: { maxSteps: 5 },
    ends: {
      nodeId: "tool-2",
      cell: "budget",
      reason: 'budget.maxSteps 5 exceeded: step 6 would run "tool-2"',
    },
    calls: [
      { query: QUERY, unresolved: UNRESOLVED },
      { query: QUERY, unresolved: UNRESOLVED },
    ],
  },
];

describe("the seed's Research Agent, run as the seed runs it", () => {
  it.each(RUNS)("$name", ({ fixtures, budget, ends, calls }) => {
    const state = simulate(seed, {
      fixtures,
      input: { query: "heat pumps" },
      ...(budget !== undefined ? { budget } : {}),
    });
    expect(end(state)).toEqual(ends);
    expect(toolCalls(state)).toEqual(calls);
  });

  it("strictParams keeps the stop at tool-2 (cell execution)", () => {
    const state = simulate(seed, {
      fixtures: { "llm-1": { outputs: [{ query: "q", is_complete: false }, answer] } },
      strictParams: true,
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "tool-2",
      cell: "execution",
      reason: `${QUERY}: the last output of "llm-1" has no field "query"`,
    });
  });
});
