/**
 * The checker's deviation classes, each seeded in a literal run of the research template
 * (llm-1 → tool-2 → dec-3, which ends when `is_complete` holds and else retries llm-1 at most
 * three times), with the class, node and event index it must report.
 */
import { describe, expect, it } from "vitest";
import type {
  ApprovedModel,
  DeviationClass,
  RunEvent,
  StepEvent,
  UnverifiedReason,
} from "../../src/conform/index.js";
import { createConformanceChecker, deviationMessage } from "../../src/conform/index.js";
import type { ToolContract } from "../../src/model/index.js";
import { research, search } from "./research.js";

function model(
  contract: ToolContract = search("read", "automatic"),
  withProcess = false,
): ApprovedModel {
  return {
    workflows: [
      {
        ref: "agnt-rsch@2.1.0",
        workflow: research,
        tools: new Map([["tool:browser-search@1.2.0", contract]]),
        prompts: new Map([["prm:research@2.0.0", { sha256: "ab".repeat(32), exact: true }]]),
      },
    ],
    processes: withProcess
      ? [
          {
            processIds: ["claims"],
            elements: new Set(["start", "agent", "approve", "pay", "end"]),
            tasks: [
              {
                elementId: "agent",
                workflow: "agnt-rsch@2.1.0",
                gateRequired: true,
                gates: ["approve"],
              },
            ],
          },
        ]
      : [],
  };
}

let index = 0;
const at = () => ({ index: index++ });
const start = (workflow = "agnt-rsch@2.1.0", extra: object = {}): RunEvent => ({
  kind: "run-start",
  run: "r",
  workflow,
  time: 0,
  at: at(),
  ...extra,
});
/**
 * A call of llm-1 on its approved model, with its tokens and cost: a run must record the model to
 * be checked, and what it spent of each quantity the template's budget limits.
 */
const llm = (output: Record<string, unknown>, extra: object = {}): StepEvent => ({
  kind: "step",
  run: "r",
  nodeType: "llm",
  node: "llm-1",
  status: "ok",
  output,
  identity: { model: "gpt-4o" },
  tokens: 100,
  cost: { USD: 0.01 },
  at: at(),
  ...extra,
});
const tool = (args: Record<string, unknown> = { query: "q" }, extra: object = {}): StepEvent => ({
  kind: "step",
  run: "r",
  nodeType: "tool",
  tool: "tool:browser-search",
  status: "ok",
  output: {},
  args,
  at: at(),
  ...extra,
});
const done = (time?: number): RunEvent => ({
  kind: "run-end",
  run: "r",
  status: "completed",
  ...(time === undefined ? {} : { time }),
  at: at(),
});

interface Case {
  readonly name: string;
  readonly events: () => RunEvent[];
  readonly contract?: ToolContract;
  readonly process?: boolean;
  readonly deviations: readonly (readonly [DeviationClass, string | undefined, number])[];
  readonly unverified?: readonly UnverifiedReason[];
}

const cases: readonly Case[] = [
  {
    name: "a conforming run",
    events: () => [start(), llm({ is_complete: true }), tool(), done()],
    deviations: [],
  },
  {
    name: "a retry through dec-3 then the end",
    events: () => [
      start(),
      llm({ is_complete: false }),
      tool(),
      llm({ is_complete: true }),
      tool(),
      done(),
    ],
    deviations: [],
  },
  {
    name: "a node the workflow does not have",
    events: () => [
      start(),
      { kind: "step", run: "r", nodeType: "llm", node: "llm-9", status: "ok", at: at() },
    ],
    deviations: [["NODE_UNKNOWN", "llm-9", 1]],
    unverified: ["RUN_UNFINISHED"],
  },
  {
    name: "a tool no node uses",
    events: () => [
      start(),
      llm({}),
      { kind: "step", run: "r", nodeType: "tool", tool: "shell", status: "ok", at: at() },
      done(),
    ],
    deviations: [
      ["TOOL_UNKNOWN", "shell", 2],
      ["TRANSITION_UNKNOWN", undefined, 3],
    ],
  },
  {
    name: "a tool step naming its node and a tool no node uses",
    events: () => [
      start(),
      llm({ is_complete: true }),
      tool({ query: "q" }, { node: "tool-2", tool: "tool:payments-refund" }),
      done(),
    ],
    deviations: [
      ["TOOL_UNKNOWN", "tool-2", 2],
      ["TRANSITION_UNKNOWN", undefined, 3],
    ],
  },
  {
    name: "a tool step naming an llm node and the workflow's tool",
    events: () => [
      start(),
      llm({ is_complete: true }),
      tool({ query: "q" }, { node: "llm-1" }),
      done(),
    ],
    deviations: [
      ["IDENTITY_MISMATCH", "llm-1", 2],
      ["TRANSITION_UNKNOWN", undefined, 3],
    ],
  },
  {
    name: "a transition the graph does not have (tool first)",
    events: () => [start(), tool(), llm({}), done()],
    // After tool-2, dec-3 reads is_complete, which nothing recorded: llm-1 is one of its routes.
    deviations: [
      ["TRANSITION_UNKNOWN", undefined, 1],
      ["TRANSITION_UNKNOWN", undefined, 3],
    ],
    unverified: ["ROUTE_UNDECIDABLE"],
  },
  {
    name: "a route contradicting its condition (ends while is_complete is false)",
    events: () => [start(), llm({ is_complete: false }), tool(), done()],
    deviations: [["ROUTE_CONTRADICTS", "dec-3", 3]],
  },
  {
    name: "a recorded route contradicting its condition",
    events: () => [
      start(),
      llm({ is_complete: true }),
      tool(),
      { kind: "route", run: "r", node: "dec-3", route: "onFalse", at: at() },
      llm({ is_complete: true }),
      tool(),
      done(),
    ],
    deviations: [["ROUTE_CONTRADICTS", "dec-3", 3]],
  },
  {
    name: "a retry loop beyond maxRetries",
    events: () => [
      start(),
      ...[1, 2, 3, 4].flatMap(() => [llm({ is_complete: false }), tool()]),
      llm({ is_complete: true }),
      tool(),
      done(),
    ],
    deviations: [["RETRY_EXCEEDED", "dec-3", 9]],
  },
  {
    name: "an error boundary retried beyond its maxRetries",
    events: () => [
      start(),
      ...[1, 2, 3, 4].map(() => ({ ...llm({}), status: "error" as const })),
      llm({ is_complete: true }),
      tool(),
      done(),
    ],
    deviations: [["RETRY_EXCEEDED", "llm-1", 5]],
  },
  {
    name: "a run beyond budget.maxSteps",
    events: () => [
      start(),
      ...[1, 2, 3, 4, 5, 6].flatMap(() => [llm({ is_complete: false }), tool()]),
      llm({ is_complete: true }),
      tool(),
      done(),
    ],
    deviations: [
      ["RETRY_EXCEEDED", "dec-3", 9],
      ["RETRY_EXCEEDED", "dec-3", 11],
      ["RETRY_EXCEEDED", "dec-3", 13],
      ["BUDGET_EXCEEDED", undefined, 13],
    ],
  },
  {
    name: "a run beyond its cost and wall time",
    events: () => [
      start(),
      llm({ is_complete: true }, { cost: { USD: 5 } }),
      tool(),
      done(300_001),
    ],
    deviations: [
      ["BUDGET_EXCEEDED", undefined, 1],
      ["BUDGET_EXCEEDED", undefined, 3],
    ],
  },
  {
    name: "a cost in a currency the budget has no limit for (it limits USD)",
    events: () => [start(), llm({ is_complete: true }, { cost: { EUR: 500 } }), tool(), done()],
    deviations: [],
    unverified: ["COST_UNLIMITED"],
  },
  {
    name: "tool arguments the contract refuses",
    events: () => [start(), llm({ is_complete: true }), tool({ query: 42 }), done()],
    deviations: [["TOOL_INPUT_INVALID", "tool-2", 2]],
  },
  {
    name: "another model and another prompt digest",
    events: () => [
      start(),
      llm({ is_complete: true }, { identity: { model: "gpt-5", promptSha256: "cd".repeat(32) } }),
      tool(),
      done(),
    ],
    deviations: [
      ["IDENTITY_MISMATCH", "llm-1", 1],
      ["IDENTITY_MISMATCH", "llm-1", 1],
    ],
  },
  {
    name: "a model call that records no model (a failed one need not)",
    events: () => [
      start(),
      llm({}, { identity: undefined, status: "error" }),
      llm({ is_complete: true }, { identity: { provider: "openai" } }),
      tool(),
      done(),
    ],
    deviations: [],
    unverified: ["MODEL_UNRECORDED"],
  },
  {
    name: "a version never approved",
    events: () => [start("agnt-rsch@2.2.0"), llm({}), done()],
    deviations: [["VERSION_UNAPPROVED", undefined, 0]],
  },
  {
    name: "a gated tool in an instance that ended without passing the gate",
    contract: search("write-irreversible", "gate"),
    process: true,
    events: () => [
      {
        kind: "element",
        instance: "7",
        process: "claims",
        element: "claims",
        elementType: "PROCESS",
        state: "activated",
        at: at(),
      },
      {
        kind: "element",
        instance: "7",
        process: "claims",
        element: "agent",
        elementType: "SERVICE_TASK",
        state: "activated",
        at: at(),
      },
      start("agnt-rsch@2.1.0", { process: { instance: "7", element: "agent" } }),
      llm({ is_complete: true }),
      tool(),
      done(),
      {
        kind: "element",
        instance: "7",
        process: "claims",
        element: "agent",
        elementType: "SERVICE_TASK",
        state: "completed",
        at: at(),
      },
      {
        kind: "element",
        instance: "7",
        process: "claims",
        element: "pay",
        elementType: "SERVICE_TASK",
        state: "completed",
        at: at(),
      },
      {
        kind: "element",
        instance: "7",
        process: "claims",
        element: "claims",
        elementType: "PROCESS",
        state: "completed",
        at: at(),
      },
    ],
    deviations: [
      ["GATE_NOT_PASSED", "tool-2", 4],
      ["GATE_MISSING", "agent", 8],
    ],
  },
];

describe("createConformanceChecker", () => {
  it.each(cases)("$name", (c) => {
    index = 0;
    const checker = createConformanceChecker(model(c.contract, c.process === true));
    for (const event of c.events()) checker.push(event);
    const report = checker.end();
    const found = [
      ...report.runs.flatMap((r) => r.deviations),
      ...report.instances.flatMap((i) => i.deviations),
    ];
    expect(found.map((d) => [d.class, d.node, d.at.index])).toEqual(c.deviations);
    for (const d of found) expect(deviationMessage(d)).not.toMatch(/undefined|""/);
    expect(report.runs.flatMap((r) => r.unverified.map((u) => u.reason))).toEqual(
      c.unverified ?? [],
    );
    expect(report.summary.ok).toBe(c.deviations.length === 0 && (c.unverified ?? []).length === 0);
  });
});
