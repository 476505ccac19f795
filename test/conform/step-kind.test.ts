/**
 * A step's kind, where its source says it: a model call (an OTLP `chat` span, a Camunda
 * ASSISTANT item) naming a tool node is not that tool's step — its model would go unchecked —
 * nor is a tool call naming an llm node that node's model call. Only a kind the reader inferred
 * (a LangGraph update without `agentflow.node.type`) yields to the node named.
 */
import { describe, expect, it } from "vitest";
import type { ApprovedModel, RunEvent, StepEvent } from "../../src/conform/index.js";
import { createConformanceChecker, deviationMessage } from "../../src/conform/index.js";
import { research } from "./research.js";

/** The research template with its search tool read from a process (no contract, effect read). */
const model: ApprovedModel = {
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow: research,
      tools: new Map(),
      derivedTools: new Map([["tool:browser-search@1.2.0", "read"]]),
    },
  ],
  processes: [],
};

/** llm-1 (complete), then `second` as the step of tool-2, then the end. */
function runOf(second: Omit<StepEvent, "kind" | "run" | "at" | "status">): RunEvent[] {
  return [
    { kind: "run-start", run: "r", workflow: "agnt-rsch@2.1.0", at: { index: 0 } },
    {
      kind: "step",
      run: "r",
      nodeType: "llm",
      node: "llm-1",
      status: "ok",
      output: { is_complete: true },
      identity: { model: "gpt-4o" },
      tokens: 100,
      cost: { USD: 0.01 },
      at: { index: 1 },
    },
    { kind: "step", run: "r", status: "ok", at: { index: 2 }, ...second },
    { kind: "run-end", run: "r", status: "completed", at: { index: 3 } },
  ];
}

const cases: {
  name: string;
  second: Omit<StepEvent, "kind" | "run" | "at" | "status">;
  verdict: string;
  message?: string;
}[] = [
  {
    name: "a model call naming a tool node deviates",
    second: { nodeType: "llm", node: "tool-2", identity: { model: "gpt-5" } },
    verdict: "deviating",
    message:
      '"tool-2" ran with step kind llm (a model call); approved: tool (tool:browser-search@1.2.0)',
  },
  {
    name: "a tool call naming an llm node deviates",
    second: { nodeType: "tool", node: "llm-1", args: { query: "q" } },
    verdict: "deviating",
    message: '"llm-1" ran with step kind tool (a tool call); approved: llm',
  },
];

describe("a step's kind", () => {
  it.each(cases)("$name", ({ second, verdict, message }) => {
    const checker = createConformanceChecker(model, { keepConforming: true });
    for (const event of runOf(second)) checker.push(event);
    const run = checker.end().runs[0];
    expect(run?.verdict).toBe(verdict);
    expect(run?.deviations.map((d) => [d.class, d.node, d.at.index])).toEqual([
      ["IDENTITY_MISMATCH", second.node, 2],
      // The step is no step of tool-2: the run then ends where the graph goes on.
      ["TRANSITION_UNKNOWN", undefined, 3],
    ]);
    const first = run?.deviations[0];
    if (first !== undefined) expect(deviationMessage(first)).toBe(message);
  });

  it("yields to the node named only where the reader inferred the kind", () => {
    const verdicts = [false, true].map((inferred) => {
      const checker = createConformanceChecker(model, { keepConforming: true });
      const second = {
        nodeType: "llm" as const,
        node: "tool-2",
        args: { query: "q" },
        // Its output is recorded: the derived tool declares none, so without one every field
        // would be unknown and dec-3 undecidable.
        output: {},
        ...(inferred ? { nodeTypeInferred: true } : {}),
      };
      for (const event of runOf(second)) checker.push(event);
      return checker.end().runs[0]?.verdict;
    });
    expect(verdicts).toEqual(["deviating", "conforming"]);
  });
});
