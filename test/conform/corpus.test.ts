/**
 * The seeded deviation corpus: for each deviation class, a run that commits it — the simulator's
 * run of a mutated copy of the approved workflow (another node id, another tool, another model,
 * a negated condition, looser retries…) — written in every source format that can carry it by
 * that format's exporter, read back by conform's own path (records → reader → checker) and
 * checked against the approved workflow: the class is found, at an event of the file. The
 * unmutated run conforms in every format. Where a format has no field for what a class needs,
 * the table says so (docs/conform.md lists what each source cannot show).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type {
  ApprovedModel,
  ConformanceReport,
  Deviation,
  DeviationClass,
  RunSource,
} from "../../src/conform/index.js";
import {
  createConformanceChecker,
  createRecordSplitter,
  readerOf,
} from "../../src/conform/index.js";
import type { AgentWorkflow, ToolContract } from "../../src/model/index.js";
import type { Fixtures } from "../../src/simulate/index.js";
import { simulate } from "../../src/simulate/index.js";
import { camundaAgentHistoryFromSimulation } from "./export/camunda-agent-history.js";
import { langgraphFromSimulation } from "./export/langgraph.js";
import { otlpFromSimulation } from "./export/otlp.js";
import { zeebeFromSimulation, zeebeSimulationProcess } from "./export/zeebe.js";

const read = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));
const approvedWf = read("examples/registry/credit-risk.agent.json") as AgentWorkflow;
const contract = read("examples/registry/credit-bureau-report.tool.json") as ToolContract;
const gatedContract: ToolContract = {
  ...contract,
  id: "tool:wire-funds",
  effect: "write-irreversible",
  authorization: "gate",
};

const INPUT = { applicantId: "A-1", amount: 1000 };
const done = (n: number): Fixtures => ({
  "pull-report": { outputs: [{ score: 700 }] },
  "assess-risk": {
    outputs: [
      ...Array.from({ length: n }, () => ({ riskBand: "low", score: 700, is_complete: false })),
      { riskBand: "low", score: 710, is_complete: true },
    ],
  },
});

type Mutate = (wf: AgentWorkflow) => AgentWorkflow;
const node = (
  wf: AgentWorkflow,
  id: string,
  change: (n: AgentWorkflow["nodes"][number]) => unknown,
): AgentWorkflow => ({
  ...wf,
  nodes: wf.nodes.map((n) => (n.id === id ? (change(n) as typeof n) : n)),
});

interface Seed {
  readonly class: DeviationClass;
  readonly mutate: Mutate;
  readonly fixtures: Fixtures;
  /** The formats that cannot carry what this class needs, with why. */
  readonly cannot?: Partial<Record<Exported, string>>;
}

const SEEDS: readonly Seed[] = [
  {
    class: "NODE_UNKNOWN",
    mutate: (wf) => ({
      ...node(wf, "assess-risk", (n) => ({ ...n, id: "assess-risk-v2" })),
      edges: wf.edges.map((e) => ({
        ...e,
        from: e.from === "assess-risk" ? "assess-risk-v2" : e.from,
        to: e.to === "assess-risk" ? "assess-risk-v2" : e.to,
      })),
    }),
    fixtures: {
      "pull-report": { outputs: [{ score: 1 }] },
      "assess-risk-v2": { outputs: [{ riskBand: "low", score: 1, is_complete: true }] },
    },
  },
  {
    class: "TOOL_UNKNOWN",
    mutate: (wf) =>
      node(wf, "pull-report", (n) => ({
        ...n,
        id: "run-shell",
        config: { usesTool: "tool:shell@1.0.0", params: { cmd: "ls" } },
      })),
    fixtures: {
      "run-shell": { outputs: [{ score: 1 }] },
      "assess-risk": { outputs: [{ riskBand: "low", score: 1, is_complete: true }] },
    },
    cannot: {
      langgraph:
        "a node's update names the graph node, not the tool it calls: NODE_UNKNOWN is what shows",
    },
  },
  {
    class: "TRANSITION_UNKNOWN",
    mutate: (wf) => ({
      ...wf,
      nodes: [wf.nodes[1], wf.nodes[0], wf.nodes[2]] as AgentWorkflow["nodes"],
      edges: [
        { from: "assess-risk", to: "pull-report", edgeType: "data" },
        { from: "pull-report", to: "report-complete", edgeType: "data" },
      ],
    }),
    fixtures: done(0),
  },
  {
    class: "ROUTE_CONTRADICTS",
    mutate: (wf) =>
      node(wf, "report-complete", (n) => ({
        ...n,
        config: { ...(n.config as object), condition: "output.is_complete = false" },
      })),
    fixtures: done(1),
  },
  {
    class: "RETRY_EXCEEDED",
    mutate: (wf) =>
      node(wf, "report-complete", (n) => ({
        ...n,
        config: { ...(n.config as object), onFalse: { next: "pull-report", maxRetries: 6 } },
      })),
    fixtures: done(3),
  },
  {
    class: "BUDGET_EXCEEDED",
    mutate: (wf) =>
      node({ ...wf, budget: { ...wf.budget, maxSteps: 100 } }, "report-complete", (n) => ({
        ...n,
        config: { ...(n.config as object), onFalse: { next: "pull-report", maxRetries: 6 } },
      })),
    fixtures: done(5),
  },
  {
    class: "TOOL_INPUT_INVALID",
    mutate: (wf) =>
      node(wf, "pull-report", (n) => ({
        ...n,
        config: { usesTool: "tool:credit-bureau-report@2.0.0", params: { applicantId: 42 } },
      })),
    fixtures: done(0),
  },
  {
    class: "IDENTITY_MISMATCH",
    mutate: (wf) =>
      node(wf, "assess-risk", (n) => ({
        ...n,
        config: { ...(n.config as object), model: "gpt-5-mini" },
      })),
    fixtures: done(0),
  },
  {
    class: "VERSION_UNAPPROVED",
    mutate: (wf) => ({ ...wf, version: "1.1.0" }),
    fixtures: done(0),
  },
];

type Exported = Exclude<RunSource, "zeebe">;
const EXPORTERS: Readonly<
  Record<
    Exported,
    (
      wf: AgentWorkflow,
      state: ReturnType<typeof simulate>,
      run: { id: string; startMs: number },
    ) => string | Promise<string>
  >
> = {
  otlp: otlpFromSimulation,
  "camunda-agent-history": camundaAgentHistoryFromSimulation,
  langgraph: langgraphFromSimulation,
};

function model(tool: ToolContract = contract, withProcess = false): ApprovedModel {
  const sim = zeebeSimulationProcess(approvedWf);
  return {
    workflows: [
      {
        ref: "agnt-credit-risk@1.0.0",
        workflow: approvedWf,
        tools: new Map([["tool:credit-bureau-report@2.0.0", tool]]),
      },
    ],
    processes: withProcess
      ? [
          {
            processIds: [sim.processId],
            elements: new Set([...sim.elements, "approve"]),
            tasks: [
              {
                elementId: sim.agentElement,
                workflow: "agnt-credit-risk@1.0.0",
                gateRequired: true,
                gates: ["approve"],
              },
            ],
          },
        ]
      : [],
  };
}

/** Reads `text` as `file` of `source` through conform's own path into a checker. */
function check(
  files: readonly (readonly [file: string, source: RunSource, text: string])[],
  approved: ApprovedModel,
): ConformanceReport {
  const checker = createConformanceChecker(approved, { keepConforming: true });
  for (const [file, source, text] of files) {
    const split = createRecordSplitter(file);
    const reader = readerOf(source).create();
    for (const item of [...split.push(text), ...split.end()]) {
      if ("invalid" in item) throw new Error(`${file}: ${item.invalid}`);
      for (const event of reader.push(item)) checker.push(event);
    }
    for (const event of reader.end()) checker.push(event);
  }
  return checker.end();
}

const deviationsOf = (report: ConformanceReport): Deviation[] => [
  ...report.runs.flatMap((r) => r.deviations),
  ...report.instances.flatMap((i) => i.deviations),
];

const RUN = { id: "run-1", startMs: 1_700_000_000_000 };

describe("the seeded deviation corpus", () => {
  it.each(Object.keys(EXPORTERS) as Exported[])(
    "the approved workflow's own run conforms as %s",
    async (source) => {
      const state = simulate(approvedWf, { input: INPUT, fixtures: done(1) });
      const text = await EXPORTERS[source](approvedWf, state, RUN);
      const report = check([[`run.${source}`, source, text]], model());
      expect(report.runs.flatMap((r) => [...r.deviations, ...r.unverified])).toEqual([]);
      expect(report.summary).toMatchObject({ runs: 1, conforming: 1, ok: true });
    },
  );

  const cases = SEEDS.flatMap((seed) =>
    (Object.keys(EXPORTERS) as Exported[]).map((source) => [seed.class, source, seed] as const),
  );
  it.each(cases)("%s is found in %s", async (cls, source, seed) => {
    const mutated = seed.mutate(approvedWf);
    const state = simulate(mutated, { input: INPUT, fixtures: seed.fixtures });
    const text = await EXPORTERS[source](mutated, state, RUN);
    const file = `run.${source}`;
    const report = check([[file, source, text]], model());
    const found = deviationsOf(report).filter((d) => d.class === cls);
    const cannot = seed.cannot?.[source];
    if (cannot !== undefined) {
      // The format cannot show it: said in the table, and then nothing claims it was seen.
      expect(found).toEqual([]);
      return;
    }
    expect(found.length, JSON.stringify(deviationsOf(report).map((d) => d.class))).toBeGreaterThan(
      0,
    );
    for (const d of found) {
      expect(d.at.file).toBe(file);
      expect(d.at.index).toBeGreaterThanOrEqual(0);
    }
    expect(report.summary.ok).toBe(false);
  });

  it("finds a gate not passed and a gate missing from Zeebe records beside the agent's history", () => {
    const gatedWf: AgentWorkflow = node(approvedWf, "pull-report", (n) => ({
      ...n,
      config: {
        usesTool: "tool:wire-funds@1.0.0",
        params: { applicantId: "{{input.applicantId}}" },
      },
    }));
    const state = simulate(gatedWf, { input: INPUT, fixtures: done(0) });
    const approved: ApprovedModel = {
      ...model(gatedContract, true),
      workflows: [
        {
          ref: "agnt-credit-risk@1.0.0",
          workflow: gatedWf,
          tools: new Map([["tool:wire-funds@1.0.0", gatedContract]]),
        },
      ],
    };
    const report = check(
      [
        ["instance.zeebe.jsonl", "zeebe", zeebeFromSimulation(gatedWf, state, RUN)],
        [
          "agent.camunda.jsonl",
          "camunda-agent-history",
          camundaAgentHistoryFromSimulation(gatedWf, state, RUN),
        ],
      ],
      approved,
    );
    const found = deviationsOf(report);
    expect(found.filter((d) => d.class === "GATE_MISSING").map((d) => [d.node, d.at.file])).toEqual(
      [["agent", "instance.zeebe.jsonl"]],
    );
    expect(
      found.filter((d) => d.class === "GATE_NOT_PASSED").map((d) => [d.node, d.at.file]),
    ).toEqual([["pull-report", "agent.camunda.jsonl"]]);
  });

  it("takes a human approval recorded as an agentflow gate span: passed clears the gated tool", () => {
    const gatedWf: AgentWorkflow = node(approvedWf, "pull-report", (n) => ({
      ...n,
      config: {
        usesTool: "tool:wire-funds@1.0.0",
        params: { applicantId: "{{input.applicantId}}" },
      },
    }));
    const approved: ApprovedModel = {
      ...model(gatedContract, true),
      workflows: [
        {
          ref: "agnt-credit-risk@1.0.0",
          workflow: gatedWf,
          tools: new Map([["tool:wire-funds@1.0.0", gatedContract]]),
        },
      ],
    };
    const sim = zeebeSimulationProcess(approvedWf);
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const link = [
      attr("agentflow.process.instance", "77"),
      attr("agentflow.bpmn.element", sim.agentElement),
      attr("agentflow.bpmn.process", sim.processId),
    ];
    const agentRun = otlpFromSimulation(
      gatedWf,
      simulate(gatedWf, { input: INPUT, fixtures: done(0) }),
      RUN,
    ).replace(
      '{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}',
      [
        JSON.stringify(attr("gen_ai.operation.name", "invoke_agent")),
        ...link.map((a) => JSON.stringify(a)),
      ].join(","),
    );
    const gateSpan = (error: boolean): string =>
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "f".repeat(32),
                    spanId: "e".repeat(16),
                    name: "approve",
                    startTimeUnixNano: "1700000001000000000",
                    endTimeUnixNano: "1700000002000000000",
                    attributes: [
                      attr("agentflow.gate.element", "approve"),
                      ...link.filter((a) => a.key !== "agentflow.bpmn.element"),
                    ],
                    ...(error ? { status: { code: 2 } } : {}),
                  },
                ],
              },
            ],
          },
        ],
      }) + "\n";
    const classes = (gate: string | undefined) => {
      const report = check([["run.jsonl", "otlp", agentRun + (gate ?? "")]], approved);
      return report.runs.flatMap((r) => [
        ...r.deviations.map((d) => d.class),
        ...r.unverified.map((u) => u.reason),
      ]);
    };
    expect(classes(undefined)).toEqual(["GATE_UNOBSERVED"]);
    expect(classes(gateSpan(false))).toEqual([]);
    expect(classes(gateSpan(true))).toEqual(["GATE_UNOBSERVED"]);
  });
});
