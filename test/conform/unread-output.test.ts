/**
 * A step that succeeded and whose output was not read leaves the fields its node writes unknown:
 * a decision reading them is undecidable (the run unverified), never decided on what an earlier
 * iteration of the loop wrote there. The research template: llm-1 → tool-2 → dec-3, which ends
 * when `is_complete` holds and else retries llm-1; llm-1 declares no output schema (it may write
 * any field), the search tool's contract declares an empty one.
 */
import { describe, expect, it } from "vitest";
import type { ApprovedModel, RunEvent, StepEvent } from "../../src/conform/index.js";
import { createConformanceChecker, unverifiedMessage } from "../../src/conform/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { research, search } from "./research.js";

const modelOf = (workflow: AgentWorkflow): ApprovedModel => ({
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow,
      tools: new Map([["tool:browser-search@1.2.0", search("read", "automatic")]]),
    },
  ],
  processes: [],
});

/** The template with llm-1 declaring the fields it writes. */
const declared: AgentWorkflow = {
  ...research,
  nodes: research.nodes.map((n) =>
    n.id === "llm-1" && n.type === "llm"
      ? { ...n, config: { ...n.config, outputSchema: { is_complete: "bool", query: "text" } } }
      : n,
  ),
};

/** `wf` with dec-3 deciding on `extra`, a field the search tool writes. */
const onExtra = (wf: AgentWorkflow): AgentWorkflow => ({
  ...wf,
  nodes: wf.nodes.map((n) =>
    n.id === "dec-3" && n.type === "decision"
      ? { ...n, config: { ...n.config, condition: "output.extra = true" } }
      : n,
  ),
});

type Step = Partial<StepEvent>;

/** llm-1 as recorded: its model, tokens and cost, and `output` (absent: not recorded). */
const llm = (extra: Step): Step => ({
  nodeType: "llm",
  node: "llm-1",
  identity: { model: "gpt-4o" },
  tokens: 100,
  cost: { USD: 0.01 },
  ...extra,
});
/** tool-2 as recorded, its result `{}` unless `extra` says; `unread`: no result recorded. */
const tool = (extra: Step = {}, unread = false): Step => ({
  nodeType: "tool",
  node: "tool-2",
  args: { query: "q" },
  ...(unread ? {} : { output: {} }),
  ...extra,
});

/** The tool wrote extra = false, then llm-1's output was not read, and the run ended. */
const extraThenUnread: Step[] = [
  llm({ output: { is_complete: false } }),
  tool({ output: { extra: false } }),
  llm({}),
  tool(),
];

function runOf(steps: readonly Step[]): RunEvent[] {
  let index = 0;
  const at = () => ({ index: index++, file: "runs.jsonl", line: index });
  return [
    { kind: "run-start", run: "r", workflow: "agnt-rsch@2.1.0", at: at() },
    ...steps.map((s) => ({ kind: "step", run: "r", status: "ok", ...s, at: at() }) as StepEvent),
    { kind: "run-end", run: "r", status: "completed", at: at() },
  ];
}

/** The loop taken twice: the second assessment is `second`, the decision after it retried. */
const loop = (second: Step): Step[] => [
  llm({ output: { is_complete: false } }),
  tool(),
  second,
  tool(),
  llm({ output: { is_complete: true } }),
  tool(),
];

interface Case {
  readonly name: string;
  readonly workflow?: AgentWorkflow;
  readonly steps: readonly Step[];
  readonly verdict: string;
  readonly found: readonly (readonly [string, string | undefined, number])[];
  readonly message?: string;
}

const cases: readonly Case[] = [
  {
    name: "the second output recorded: the retry contradicts it (the control)",
    steps: loop(llm({ output: { is_complete: true } })),
    verdict: "deviating",
    found: [["ROUTE_CONTRADICTS", "dec-3", 5]],
  },
  {
    name: "the second output not recorded: the first one's false does not decide",
    steps: loop(llm({})),
    verdict: "unverified",
    found: [["ROUTE_UNDECIDABLE", "dec-3", 5]],
    message:
      'decision "dec-3" could not be evaluated on the recorded output: output.is_complete is absent; the output of "llm-1" at runs.jsonl:4 was not recorded, and what an earlier step wrote there is not taken for it',
  },
  {
    name: "the second output recorded as free text: said with why",
    steps: loop(llm({ outputUnread: "the reply's text is not a JSON object" })),
    verdict: "unverified",
    found: [["ROUTE_UNDECIDABLE", "dec-3", 5]],
    message:
      'decision "dec-3" could not be evaluated on the recorded output: output.is_complete is absent; the output of "llm-1" at runs.jsonl:4 was not read (the reply\'s text is not a JSON object), and what an earlier step wrote there is not taken for it',
  },
  {
    name: "a node that declares its fields leaves only those unknown (others' stay known)",
    workflow: declared,
    steps: loop(llm({})),
    verdict: "unverified",
    found: [["ROUTE_UNDECIDABLE", "dec-3", 5]],
  },
  {
    name: "an optional field it declares (extra?) is unknown too, as a required one would be",
    workflow: onExtra({
      ...research,
      nodes: research.nodes.map((n) =>
        n.id === "llm-1" && n.type === "llm"
          ? {
              ...n,
              config: { ...n.config, outputSchema: { is_complete: "bool", "extra?": "bool" } },
            }
          : n,
      ),
    }),
    steps: extraThenUnread,
    verdict: "unverified",
    found: [["ROUTE_UNDECIDABLE", "dec-3", 5]],
  },
  {
    name: "a node that declares its fields leaves another's known: extra = false still decides",
    workflow: onExtra(declared),
    steps: extraThenUnread,
    verdict: "deviating",
    found: [["ROUTE_CONTRADICTS", "dec-3", 5]],
  },
  {
    name: "a node that declares none may have written any field: extra is unknown",
    workflow: onExtra(research),
    steps: extraThenUnread,
    verdict: "unverified",
    found: [["ROUTE_UNDECIDABLE", "dec-3", 5]],
  },
  {
    name: "a tool whose result was not recorded leaves the model's field known",
    steps: [
      llm({ output: { is_complete: true } }),
      tool({}, true),
      llm({ output: { is_complete: true } }),
      tool(),
    ],
    verdict: "deviating",
    found: [["ROUTE_CONTRADICTS", "dec-3", 3]],
  },
  {
    name: "a failed step writes nothing: its retry's output decides",
    steps: [llm({ status: "error" }), llm({ output: { is_complete: true } }), tool()],
    verdict: "conforming",
    found: [],
  },
];

describe("a step whose output was not read", () => {
  it.each(cases)("$name", ({ workflow, steps, verdict, found, message }) => {
    const checker = createConformanceChecker(modelOf(workflow ?? research));
    for (const event of runOf(steps)) checker.push(event);
    const report = checker.end();
    const run = report.runs[0];
    expect(run?.verdict ?? "conforming").toBe(verdict);
    const findings = [
      ...(run?.deviations ?? []).map((d) => [d.class, d.node, d.at.index] as const),
      ...(run?.unverified ?? []).map((u) => [u.reason, u.node, u.at?.index ?? -1] as const),
    ];
    expect(findings).toEqual(found);
    const first = run?.unverified[0];
    if (message !== undefined) {
      expect(first === undefined ? undefined : unverifiedMessage(first)).toBe(message);
    }
  });
});

describe("a route the run recorded, after a step whose output was not read", () => {
  /** The loop with dec-3's routes recorded (`agentflow.route.*`), the second output `second`. */
  function recorded(second: Step): RunEvent[] {
    let index = 0;
    const at = () => ({ index: index++ });
    const step = (s: Step): RunEvent =>
      ({ kind: "step", run: "r", status: "ok", ...s, at: at() }) as StepEvent;
    const route = (label: string): RunEvent => ({
      kind: "route",
      run: "r",
      node: "dec-3",
      route: label,
      at: at(),
    });
    return [
      { kind: "run-start", run: "r", workflow: "agnt-rsch@2.1.0", at: at() },
      step(llm({ output: { is_complete: false } })),
      step(tool()),
      route("onFalse"),
      step(second),
      step(tool()),
      route("onFalse"),
      step(llm({ output: { is_complete: true } })),
      step(tool()),
      route("onTrue"),
      { kind: "run-end", run: "r", status: "completed", at: at() },
    ];
  }

  it.each([
    [
      "recorded: the recorded route contradicts it",
      llm({ output: { is_complete: true } }),
      "deviating",
      [["ROUTE_CONTRADICTS", "dec-3", 6]],
    ],
    [
      "not recorded: the recorded route is the run's claim, unverified",
      llm({}),
      "unverified",
      [["ROUTE_UNDECIDABLE", "dec-3", 6]],
    ],
  ] as const)("the second output %s", (_, second, verdict, found) => {
    const checker = createConformanceChecker(modelOf(research));
    for (const event of recorded(second)) checker.push(event);
    const run = checker.end().runs[0];
    expect(run?.verdict).toBe(verdict);
    expect([
      ...(run?.deviations ?? []).map((d) => [d.class, d.node, d.at.index]),
      ...(run?.unverified ?? []).map((u) => [u.reason, u.node, u.at?.index]),
    ]).toEqual(found);
  });
});
