/**
 * Which approved workflow a run is checked against. Two Camunda agents of different processes
 * with the same element id derive the same `id@version`: a run is checked against its own
 * task's agent, found through its process and element, and never against the first workflow of
 * that ref; a run that cannot be told apart is unverified, and one of a process or agent task
 * nobody approved deviates.
 */
import { describe, expect, it } from "vitest";
import type {
  ApprovedModel,
  ApprovedWorkflow,
  ProcessLink,
  RunEvent,
} from "../../src/conform/index.js";
import {
  createConformanceChecker,
  deviationMessage,
  unverifiedMessage,
} from "../../src/conform/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { research, search } from "./research.js";

const SHARED = "camunda.Agent@1.0.0";

/** The research template on `model`, approved as `ref` (a derived agent's, by default). */
function agent(model: string, ref = SHARED): ApprovedWorkflow {
  const workflow: AgentWorkflow = {
    ...research,
    nodes: research.nodes.map((n) =>
      n.type === "llm" ? { ...n, config: { ...n.config, model } } : n,
    ),
  };
  return {
    ref,
    workflow,
    tools: new Map([["tool:browser-search@1.2.0", search("read", "automatic")]]),
  };
}

const A = agent("gpt-4o");
const B = agent("gpt-4o-mini");
/** Process A's agent again, in a copy of process A: equal to A, another object. */
const A2 = agent("gpt-4o");
const R = agent("gpt-4o", "agnt-rsch@2.1.0");

const process = (id: string, element: string, resolved: ApprovedWorkflow) => ({
  processIds: [id],
  elements: new Set(["Start", element, "Review", "End"]),
  tasks: [{ elementId: element, workflow: resolved.ref, resolved, gateRequired: false, gates: [] }],
});

/** A first (the old lookup took the first workflow of a ref), B second. */
const BOTH: ApprovedModel = {
  workflows: [A, B, R],
  processes: [
    process("refund_a", "Agent", A),
    process("lookup_b", "Agent", B),
    process("claims", "agent", R),
  ],
};
/** Only process B (an approval of one process). */
const ONLY_B: ApprovedModel = { workflows: [B], processes: [process("lookup_b", "Agent", B)] };
/** B first; A in two processes alike. */
const COPIES: ApprovedModel = {
  workflows: [B, A, A2],
  processes: [
    process("lookup_b", "Agent", B),
    process("refund_a", "Agent", A),
    process("refund_copy", "Agent", A2),
  ],
};

/** One run: llm-1 (on `model`, complete), the search tool, the end. */
function runOf(model: string, link?: ProcessLink, workflow?: string): RunEvent[] {
  let index = 0;
  const at = () => ({ index: index++ });
  return [
    {
      kind: "run-start",
      run: "r",
      ...(workflow === undefined ? {} : { workflow }),
      ...(link === undefined ? {} : { process: link }),
      at: at(),
    },
    {
      kind: "step",
      run: "r",
      nodeType: "llm",
      node: "llm-1",
      status: "ok",
      output: { is_complete: true },
      identity: { model },
      at: at(),
    },
    {
      kind: "step",
      run: "r",
      nodeType: "tool",
      tool: "tool:browser-search",
      status: "ok",
      output: {},
      args: { query: "q" },
      at: at(),
    },
    { kind: "run-end", run: "r", status: "completed", at: at() },
  ];
}

const cases: {
  name: string;
  model: ApprovedModel;
  events: RunEvent[];
  verdict: string;
  findings: string[];
  message?: string;
}[] = [
  {
    name: "a run of process B's agent on B's approved model conforms",
    model: BOTH,
    events: runOf("gpt-4o-mini", { instance: "1", element: "Agent", process: "lookup_b" }),
    verdict: "conforming",
    findings: [],
  },
  {
    name: "a run of process B's agent on process A's model deviates",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", element: "Agent", process: "lookup_b" }),
    verdict: "deviating",
    findings: ["IDENTITY_MISMATCH"],
    message: '"llm-1" ran with model gpt-4o; approved: gpt-4o-mini',
  },
  {
    name: "a run naming its element and no process, where two processes run different agents there, is unverified",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", element: "Agent" }),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
    message:
      "the run fits 2 approved agents (refund_a/Agent: camunda.Agent@1.0.0; lookup_b/Agent: camunda.Agent@1.0.0) and its records do not tell which one it ran (the run names no process), so it is checked against none",
  },
  {
    name: "a run naming only a ref two approved agents share is unverified",
    model: BOTH,
    events: runOf("gpt-4o", undefined, SHARED),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
  },
  {
    name: "a run naming a workflow its task does not run deviates",
    model: BOTH,
    events: runOf(
      "gpt-4o",
      { instance: "1", element: "Agent", process: "lookup_b" },
      "agnt-rsch@2.1.0",
    ),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of workflow agnt-rsch@2.1.0, which was never approved (approved: camunda.Agent@1.0.0 at Agent of process lookup_b)",
  },
  {
    name: "a run of a process no approval holds deviates, even with one workflow approved",
    model: ONLY_B,
    events: runOf("gpt-4o-mini", { instance: "1", element: "Agent", process: "evil_proc" }),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message: "the run is of process evil_proc, which was never approved (approved: lookup_b)",
  },
  {
    name: "a run of an element that is no agent task of its approved process deviates",
    model: ONLY_B,
    events: runOf("gpt-4o-mini", { instance: "1", element: "Review", process: "lookup_b" }),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of agent task Review of process lookup_b, which was never approved (approved: lookup_b/Agent)",
  },
  {
    name: "a run of a copy's agent is checked against that copy's own agent",
    model: COPIES,
    events: runOf("gpt-4o", { instance: "1", element: "Agent", process: "refund_copy" }),
    verdict: "conforming",
    findings: [],
  },
  {
    name: "agents approved alike in two processes count as one candidate",
    model: COPIES,
    events: runOf("gpt-4o", { instance: "1", element: "Agent" }),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
    message:
      "the run fits 2 approved agents (lookup_b/Agent: camunda.Agent@1.0.0; refund_a/Agent: camunda.Agent@1.0.0) and its records do not tell which one it ran (the run names no process), so it is checked against none",
  },
];

describe("a run's approved workflow", () => {
  it.each(cases)("$name", ({ model, events, verdict, findings, message }) => {
    const checker = createConformanceChecker(model, { keepConforming: true });
    for (const event of events) checker.push(event);
    const run = checker.end().runs[0];
    expect(run?.verdict).toBe(verdict);
    const found = [...(run?.deviations ?? []), ...(run?.unverified ?? [])];
    expect(found.map((f) => ("class" in f ? f.class : f.reason))).toEqual(findings);
    const first = found[0];
    if (message !== undefined && first !== undefined) {
      expect("class" in first ? deviationMessage(first) : unverifiedMessage(first)).toBe(message);
    }
  });
});
