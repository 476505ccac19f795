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

/** A verifier, and a lead agent that delegates to it. */
const D = agent("gpt-4o-mini", "agnt-verify@1.0.0");
const V: ApprovedWorkflow = {
  ...agent("gpt-4o", "agnt-lead@1.0.0"),
  workflow: {
    ...research,
    edges: [...research.edges, { from: "llm-1", to: "agnt-verify@1.0.0", edgeType: "delegate" }],
  },
};

/** A process of several agent tasks; `null`: a task with no workflow known. */
const tasks = (id: string, placed: [string, ApprovedWorkflow | null][]) => ({
  processIds: [id],
  elements: new Set(["Start", ...placed.map(([element]) => element), "End"]),
  tasks: placed.map(([elementId, resolved]) => ({
    elementId,
    workflow: resolved?.ref ?? null,
    ...(resolved === null ? {} : { resolved }),
    gateRequired: false,
    gates: [],
  })),
});

/** Processes that run several workflows, one with a task nobody resolved, one delegating. */
const MIXED: ApprovedModel = {
  workflows: [A, B, R, D, V],
  processes: [
    tasks("intake", [
      ["Agent", A],
      ["Check", R],
    ]),
    tasks("triage", [
      ["Agent", B],
      ["Check", null],
    ]),
    tasks("held", [["Agent", null]]),
    tasks("verify", [["Lead", V]]),
    process("claims", "agent", R),
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
      // What the template's budget limits: a run that records neither is unverified.
      tokens: 100,
      cost: { USD: 0.01 },
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
  /** `--workflow`: the workflow of runs that name none. */
  fallback?: string;
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
  // A run whose link names its process and no element (a Camunda agent instance with no
  // elementId) is bounded to what was approved in that process.
  {
    name: "a run naming its process only and a workflow approved in another process deviates",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", process: "lookup_b" }, "agnt-rsch@2.1.0"),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of workflow agnt-rsch@2.1.0, which was never approved (approved: camunda.Agent@1.0.0 in process lookup_b)",
  },
  {
    name: "--workflow naming a workflow of another process does not stand for a run of its process",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", process: "lookup_b" }),
    fallback: "agnt-rsch@2.1.0",
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of workflow agnt-rsch@2.1.0, which was never approved (approved: camunda.Agent@1.0.0 in process lookup_b)",
  },
  {
    name: "a run naming only its process is checked against the one workflow it runs",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", process: "claims" }),
    verdict: "conforming",
    findings: [],
  },
  {
    name: "a run naming only its process is checked against that process's agent, not another's",
    model: BOTH,
    events: runOf("gpt-4o", { instance: "1", process: "lookup_b" }),
    verdict: "deviating",
    findings: ["IDENTITY_MISMATCH"],
    message: '"llm-1" ran with model gpt-4o; approved: gpt-4o-mini',
  },
  {
    name: "a run naming only a process that runs two different agents is unverified",
    model: MIXED,
    events: runOf("gpt-4o", { instance: "1", process: "intake" }),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
    message:
      "the run fits 2 approved agents (intake/Agent: camunda.Agent@1.0.0; intake/Check: agnt-rsch@2.1.0) and its records do not tell which one it ran (the run names its process, not its agent task), so it is checked against none",
  },
  {
    name: "a run naming only its process may be of its task with no workflow: unverified",
    model: MIXED,
    events: runOf("gpt-4o-mini", { instance: "1", process: "triage" }),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
    message:
      "the run fits 2 approved agents (triage/Agent: camunda.Agent@1.0.0; triage/Check: no approved workflow) and its records do not tell which one it ran (the run names its process, not its agent task), so it is checked against none",
  },
  {
    name: "a run naming only a process none of whose tasks has a workflow deviates",
    model: MIXED,
    events: runOf("gpt-4o", { instance: "1", process: "held" }),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of agent task in process held, which was never approved (approved: no workflow for held/Agent)",
  },
  {
    name: "a run naming only its process may be of the agent or of the delegate it names",
    model: MIXED,
    events: runOf("gpt-4o-mini", { instance: "1", process: "verify" }),
    verdict: "unverified",
    findings: ["WORKFLOW_AMBIGUOUS"],
    message:
      "the run fits 2 approved agents (verify/Lead: agnt-lead@1.0.0; agnt-verify@1.0.0) and its records do not tell which one it ran (the run names its process, not its agent task), so it is checked against none",
  },
  {
    name: "a run naming only its process and a delegate of its agent is checked against it",
    model: MIXED,
    events: runOf("gpt-4o-mini", { instance: "1", process: "verify" }, "agnt-verify@1.0.0"),
    verdict: "conforming",
    findings: [],
  },
  {
    name: "a run of a task with no workflow, naming one approved in another process, deviates",
    model: MIXED,
    events: runOf(
      "gpt-4o",
      { instance: "1", element: "Check", process: "triage" },
      "agnt-rsch@2.1.0",
    ),
    verdict: "deviating",
    findings: ["VERSION_UNAPPROVED"],
    message:
      "the run is of workflow agnt-rsch@2.1.0, which was never approved (approved: camunda.Agent@1.0.0 in process triage)",
  },
];

describe("a run's approved workflow", () => {
  it.each(cases)("$name", ({ model, events, verdict, findings, message, fallback }) => {
    const checker = createConformanceChecker(model, {
      keepConforming: true,
      ...(fallback === undefined ? {} : { workflow: fallback }),
    });
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
