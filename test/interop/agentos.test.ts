import { describe, expect, it } from "vitest";
import { agentOs, importAgentOs } from "../../src/interop/agentos/index.js";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import type { Obj } from "./helpers.js";
import { codes, readFixture } from "./helpers.js";

/** The derived research graph (router instead of `__CONDITIONAL__`, no reroute). */
const ROUTED = "agentos/research-graph-routed.compiled-execution-graph.derived.json";
/** The generated research graph, as the AgentOS compiler wrote it. */
const GENERATED = "agentos/research-graph.compiled-execution-graph.generated.json";

const HOST = "agentos-host";

/**
 * The tool loop every gmi node runs (AgentOS does not read `executionMode`): its decision, then
 * its tool node on the stand-in ref for the host's tools, bounded by maxInternalIterations.
 */
function toolLoop(id: string, next: string, maxRetries = 10): AgentWorkflow["nodes"] {
  return [
    {
      id: `${id}.tools`,
      type: "decision",
      config: {
        conditionLanguage: "text",
        cases: [
          { condition: "the model calls a tool the host runs", next: `${id}.tool`, maxRetries },
        ],
        otherwise: { next },
      },
    },
    { id: `${id}.tool`, type: "tool", config: { usesTool: "tool:agentos.tools@1.0.0" } },
  ];
}

const EXPECTED: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "graph-agent-graph--timestamp-",
  version: "1.0.0",
  name: "agent-graph",
  autonomyLevel: 3,
  inputSchema: { topic: { type: "string" } },
  outputSchema: {
    summary: { type: "string" },
    sources: { type: "array", items: { type: "string" } },
  },
  nodes: [
    { id: "plan", type: "llm", config: { model: HOST, promptRef: "prm:agentos.plan@1.0.0" } },
    ...toolLoop("plan", "search"),
    { id: "search", type: "tool", config: { usesTool: "tool:web_search@1.0.0", timeoutMs: 10000 } },
    {
      id: "evaluate",
      type: "llm",
      config: { model: HOST, promptRef: "prm:agentos.evaluate@1.0.0" },
    },
    ...toolLoop("evaluate", "route-quality"),
    {
      id: "summarize",
      type: "llm",
      config: { model: HOST, promptRef: "prm:agentos.summarize@1.0.0" },
    },
    ...toolLoop("summarize", "summarize.personality"),
    {
      id: "review",
      type: "tool",
      config: {
        usesTool: "tool:agentos.human@1.0.0",
        params: { prompt: "Does this summary look accurate?" },
      },
    },
    {
      id: "route-quality",
      type: "decision",
      config: {
        conditionLanguage: "text",
        cases: [{ condition: "router 'route-quality' picks 'summarize'", next: "summarize" }],
        // routing to __END__ skips summarize only: review, after it, still runs (skipped.ts)
        otherwise: { next: "route-quality.end" },
      },
    },
    // the step the route to __END__ leads to: AgentOS runs review when it skips summarize
    {
      id: "route-quality.end",
      type: "tool",
      config: { usesTool: "tool:agentos.router@1.0.0", params: { expr: "''" } },
    },
    {
      id: "summarize.personality",
      type: "decision",
      config: {
        condition:
          "persona trait 'conscientiousness' >= 0.7 (AgentOS runtime config personaTraits, else scratch._personaTraits, else 0.5)",
        conditionLanguage: "text",
        onTrue: { next: "review" },
        onFalse: { next: "end" },
      },
    },
  ],
  edges: [
    // each gmi node's one way out goes through its tool loop's decision
    { from: "plan", to: "plan.tools", edgeType: "data" },
    { from: "search", to: "evaluate", edgeType: "data" },
    { from: "evaluate", to: "evaluate.tools", edgeType: "data" },
    { from: "route-quality", to: "summarize", edgeType: "data" },
    { from: "route-quality", to: "route-quality.end", edgeType: "data" },
    { from: "summarize", to: "summarize.tools", edgeType: "data" },
    { from: "route-quality.end", to: "review", edgeType: "data" },
    { from: "plan.tool", to: "plan", edgeType: "data" },
    { from: "evaluate.tool", to: "evaluate", edgeType: "data" },
    { from: "summarize.tool", to: "summarize", edgeType: "data" },
  ],
  metadata: {
    agentos: {
      instructions: {
        plan: "Break this research topic into sub-questions.",
        evaluate: "Evaluate source quality and assign a confidence score (0–1).",
        summarize: "Write a final summary from gathered sources.",
      },
    },
  },
};

const EXPECTED_WARNINGS: [string, string][] = [
  ["FIELD_DROPPED", "/reducers"],
  ["FIELD_DROPPED", "/checkpointPolicy"],
  ["FIELD_DROPPED", "/memoryConsistency"],
  ["VALUE_NORMALIZED", "/id"],
  ["HEURISTIC", ""],
  ["FIELD_DROPPED", "/stateSchema/scratch"],
  ["HEURISTIC", "/nodes/0/executorConfig"],
  ["FIELD_DROPPED", "/nodes/0/effectClass"],
  ["FIELD_DROPPED", "/nodes/0/checkpoint"],
  ["FIELD_DROPPED", "/nodes/0/memoryPolicy"],
  ["FIELD_DROPPED", "/nodes/0/discoveryPolicy"],
  ["HEURISTIC", "/nodes/1/executorConfig/toolName"],
  ["FIELD_DROPPED", "/nodes/1/effectClass"],
  ["FIELD_DROPPED", "/nodes/1/guardrailPolicy"],
  ["HEURISTIC", "/nodes/2/executorConfig"],
  ["FIELD_DROPPED", "/nodes/2/effectClass"],
  ["FIELD_DROPPED", "/nodes/2/memoryPolicy"],
  ["HEURISTIC", "/nodes/3/executorConfig"],
  ["FIELD_DROPPED", "/nodes/3/effectClass"],
  ["FIELD_DROPPED", "/nodes/3/guardrailPolicy"],
  ["HEURISTIC", "/nodes/4/type"],
  ["FIELD_DROPPED", "/nodes/4/effectClass"],
  ["FIELD_DROPPED", "/nodes/4/checkpoint"],
  ["HEURISTIC", "/nodes/5/executorConfig/condition"],
  ["FIELD_DROPPED", "/nodes/5/effectClass"],
  ["HEURISTIC", "/edges/4/condition"],
  ["HEURISTIC", "/edges/5/condition"],
  ["HEURISTIC", "/edges/6/personalityCondition"],
  ["HEURISTIC", "/nodes/5"],
];

/** A minimal graph: START -> a (gmi) -> END, for table cases. */
function minimal(): Obj & { nodes: Obj[]; edges: Obj[] } {
  return {
    id: "g1",
    name: "g",
    nodes: [{ id: "a", type: "gmi", executorConfig: { type: "gmi", instructions: "Do." } }],
    edges: [
      { id: "e1", source: "__START__", target: "a", type: "static" },
      { id: "e2", source: "a", target: "__END__", type: "static" },
    ],
  };
}

describe("importAgentOs: the derived research graph", () => {
  it("imports to the exact expected workflow at autonomy 3, with exact warnings", () => {
    const result = importAgentOs(readFixture(ROUTED));
    expect(result.workflow).toStrictEqual(EXPECTED);
    expect(codes(result.warnings)).toEqual(EXPECTED_WARNINGS);
  });

  it("parses with no error, and its text decisions are only unstructured, never wrong", () => {
    const errors = parseWorkflow(importAgentOs(readFixture(ROUTED)).workflow).diagnostics.filter(
      (d) => d.severity === "error",
    );
    expect(errors).toEqual([]);
  });

  it("is detected, as is the generated graph; the docs YAML workflow is not", () => {
    expect(agentOs.detect(readFixture(ROUTED))).toBe(true);
    expect(agentOs.detect(readFixture(GENERATED))).toBe(true);
  });
});

describe("importAgentOs: mapped constructs, exact fields", () => {
  type Case = [
    string,
    (g: ReturnType<typeof minimal>) => void,
    Partial<AgentWorkflow>,
    [string, string][],
  ];
  const base: [string, string][] = [
    ["HEURISTIC", ""],
    ["HEURISTIC", "/nodes/0/executorConfig"],
  ];
  const cases: Case[] = [
    [
      "the minimal graph: one llm and no edge but its tool loop, which makes it autonomy 2",
      () => undefined,
      {
        autonomyLevel: 2,
        edges: [],
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
        ],
      },
      base,
    ],
    [
      "gmi temperature and maxTokens map; maxInternalIterations bounds the tool loop",
      (g) => {
        g.nodes[0] = {
          id: "a",
          type: "gmi",
          executorConfig: {
            type: "gmi",
            instructions: "Do.",
            temperature: 0.2,
            maxTokens: 50,
            maxInternalIterations: 3,
          },
        };
      },
      {
        nodes: [
          {
            id: "a",
            type: "llm",
            config: {
              model: HOST,
              promptRef: "prm:agentos.a@1.0.0",
              temperature: 0.2,
              maxOutputTokens: 50,
            },
          },
        ],
      },
      base,
    ],
    [
      "an id that is not valid is mapped, kept as the name, and the entry node is put first",
      (g) => {
        g.nodes.unshift({
          id: "9 b",
          type: "tool",
          executorConfig: { type: "tool", toolName: "t", args: { q: 1 } },
        });
        g.edges.push({ id: "e3", source: "a", target: "9 b", type: "static" });
        g.edges.splice(1, 1);
      },
      {
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          {
            id: "n-9-b",
            name: "9 b",
            type: "tool",
            config: { usesTool: "tool:t@1.0.0", params: { q: 1 } },
          },
        ],
        edges: [{ from: "a", to: "n-9-b", edgeType: "data" }],
      },
      [
        ["HEURISTIC", ""],
        ["VALUE_NORMALIZED", "/nodes/0/id"],
        ["HEURISTIC", "/nodes/0/executorConfig/toolName"],
        ["HEURISTIC", "/nodes/1/executorConfig"],
      ],
    ],
    [
      "a discovery edge becomes a text decision: target on a match, else the fallback",
      (g) => {
        g.nodes.push({
          id: "b",
          type: "extension",
          executorConfig: { type: "extension", extensionId: "ext", method: "run" },
        });
        g.edges[1] = {
          id: "e2",
          source: "a",
          target: "b",
          type: "discovery",
          discoveryQuery: "pdf",
          discoveryKind: "tool",
          discoveryFallback: "__END__",
        };
      },
      {
        autonomyLevel: 3,
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          {
            id: "b",
            type: "tool",
            config: { usesTool: "tool:ext@1.0.0", params: { method: "run" } },
          },
          {
            id: "a.discovery",
            type: "decision",
            config: {
              condition: 'capability discovery finds a tool match for "pdf"',
              conditionLanguage: "text",
              onTrue: { next: "b" },
              onFalse: { next: "end" },
            },
          },
        ],
        edges: [{ from: "a", to: "a.discovery", edgeType: "data" }],
      },
      [...base, ["HEURISTIC", "/nodes/1/type"], ["HEURISTIC", "/edges/1"]],
    ],
    [
      "a router with an expression condition quotes it; a static edge to __END__ beside others and a cycle are declared",
      (g) => {
        g.nodes.push({
          id: "r",
          type: "router",
          executorConfig: {
            type: "router",
            condition: { type: "expression", expr: "scratch.n > 1" },
          },
        });
        g.nodes.push({
          id: "g",
          type: "guardrail",
          executorConfig: { type: "guardrail", guardrailIds: ["pii"], onViolation: "block" },
        });
        g.edges.push({ id: "e3", source: "a", target: "r", type: "static" });
        g.edges.push({ id: "e4", source: "r", target: "g", type: "static" });
        g.edges.push({ id: "e5", source: "r", target: "a", type: "static" });
      },
      {
        autonomyLevel: 2,
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          {
            id: "r",
            type: "decision",
            config: {
              conditionLanguage: "text",
              cases: [
                { condition: "router 'r' picks 'g' (router condition: scratch.n > 1)", next: "g" },
              ],
              otherwise: { next: "a" },
            },
          },
          {
            id: "g",
            type: "tool",
            config: {
              usesTool: "tool:agentos.guardrail@1.0.0",
              params: { guardrailIds: ["pii"], onViolation: "block" },
            },
          },
        ],
        edges: [
          { from: "a", to: "r", edgeType: "data" },
          { from: "r", to: "g", edgeType: "data" },
          { from: "r", to: "a", edgeType: "data" },
        ],
      },
      [
        ...base,
        ["HEURISTIC", "/nodes/1/executorConfig/condition"],
        ["HEURISTIC", "/nodes/2/type"],
        ["FIELD_DROPPED", "/edges/1"],
        ["HEURISTIC", "/edges"],
      ],
    ],
    [
      "a __CONDITIONAL__ edge from an llm becomes a FEEL decision over every node, then end",
      (g) => {
        g.nodes.push({ id: "b", type: "tool", executorConfig: { type: "tool", toolName: "t" } });
        g.edges[1] = {
          id: "e2",
          source: "a",
          target: "__CONDITIONAL__",
          type: "conditional",
          condition: { type: "function" },
        };
        g.edges.push({ id: "e3", source: "b", target: "__END__", type: "static" });
      },
      {
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          { id: "b", type: "tool", config: { usesTool: "tool:t@1.0.0" } },
          {
            id: "a.conditional",
            type: "decision",
            config: {
              cases: [
                { condition: 'route("e2") = "a"', next: "a" },
                { condition: 'route("e2") = "b"', next: "b" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        edges: [{ from: "a", to: "a.conditional", edgeType: "data" }],
      },
      [
        ...base,
        ["HEURISTIC", "/nodes/1/executorConfig/toolName"],
        ["HEURISTIC", "/edges/1/target"],
        ["HEURISTIC", "/edges"],
      ],
    ],
    [
      "static edges and two __CONDITIONAL__ edges of one node: data edges and two decisions",
      (g) => {
        g.nodes.push({ id: "b", type: "tool", executorConfig: { type: "tool", toolName: "t" } });
        const held = { type: "conditional", target: "__CONDITIONAL__", source: "a" };
        g.edges[1] = { id: "e2", source: "a", target: "b", type: "static" };
        g.edges.push({ id: "e3", ...held, condition: { type: "function" } });
        g.edges.push({ ...held, condition: { type: "function" } });
      },
      {
        edges: [
          { from: "a", to: "a.conditional-1", edgeType: "data" },
          { from: "a", to: "a.conditional-2", edgeType: "data" },
          { from: "a", to: "b", edgeType: "data" },
        ],
      },
      [
        ...base,
        ["HEURISTIC", "/nodes/1/executorConfig/toolName"],
        ["HEURISTIC", "/edges/2/target"],
        ["HEURISTIC", "/edges/3/target"],
        ["HEURISTIC", "/edges"],
      ],
    ],
    [
      "a router's __CONDITIONAL__ edge adds every node and end to its declared routes",
      (g) => {
        g.nodes.push({
          id: "r",
          type: "router",
          executorConfig: { type: "router", condition: { type: "function" } },
        });
        g.edges[1] = { id: "e2", source: "a", target: "r", type: "static" };
        g.edges.push({ id: "e3", source: "r", target: "__END__", type: "static" });
        g.edges.push({
          id: "e4",
          source: "r",
          target: "__CONDITIONAL__",
          type: "conditional",
          condition: { type: "function" },
        });
      },
      {
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          {
            id: "r",
            type: "decision",
            config: {
              conditionLanguage: "text",
              cases: [
                { condition: "router 'r' picks '__END__'", next: "end" },
                { condition: "router 'r' picks 'a'", next: "a" },
              ],
              otherwise: { next: "r" },
            },
          },
        ],
        edges: [
          { from: "a", to: "r", edgeType: "data" },
          { from: "r", to: "a", edgeType: "data" },
          { from: "r", to: "r", edgeType: "data" },
        ],
      },
      [
        ...base,
        ["HEURISTIC", "/nodes/1/executorConfig/condition"],
        ["HEURISTIC", "/edges/3/target"],
        ["HEURISTIC", "/edges"],
      ],
    ],
    [
      "a subgraph node is a tool node standing for the nested graph; accented ids keep their name",
      (g) => {
        g.nodes.push({
          id: "résumé",
          type: "subgraph",
          executorConfig: {
            type: "subgraph",
            graphId: "graph-inner-1",
            inputMapping: { "scratch.q": "input.q" },
          },
          executionMode: "single_turn",
          checkpoint: "none",
        });
        g.edges[1] = { id: "e2", source: "a", target: "résumé", type: "static" };
        g.edges.push({ id: "e3", source: "résumé", target: "__END__", type: "static" });
      },
      {
        nodes: [
          { id: "a", type: "llm", config: { model: HOST, promptRef: "prm:agentos.a@1.0.0" } },
          {
            id: "r-sum-",
            name: "résumé",
            type: "tool",
            config: {
              usesTool: "tool:agentos.subgraph@1.0.0",
              params: { graphId: "graph-inner-1", inputMapping: { "scratch.q": "input.q" } },
            },
          },
        ],
        edges: [{ from: "a", to: "r-sum-", edgeType: "data" }],
      },
      [...base, ["VALUE_NORMALIZED", "/nodes/1/id"], ["HEURISTIC", "/nodes/1/type"]],
    ],
  ];
  it.each(cases)("%s", (_name, edit, fields, warnings) => {
    const g = minimal();
    edit(g);
    const result = importAgentOs(g);
    // Each gmi node's tool loop is checked on its own (below); here, the rest of the graph.
    const workflow = unfoldToolLoops(result.workflow).wf;
    expect(workflow).toMatchObject(fields);
    for (const key of Object.keys(fields) as (keyof AgentWorkflow)[]) {
      expect(workflow[key]).toStrictEqual(fields[key]);
    }
    expect(codes(result.warnings)).toEqual(warnings);
  });
});

describe("importAgentOs: every gmi node's tool loop", () => {
  const gmi = (extra: Obj, node: Obj = {}): Obj => ({
    id: "a",
    type: "gmi",
    executorConfig: { type: "gmi", instructions: "Pay.", ...extra },
    ...node,
  });
  it.each<[string, Obj, Obj, number | undefined, [string, string][]]>([
    // AgentOS does not read the mode: each runs `maxInternalIterations ?? 10` rounds of tools
    ["single_turn", {}, { executionMode: "single_turn" }, 10, []],
    ["react_bounded, the builder's default", {}, { executionMode: "react_bounded" }, 10, []],
    ["planner_controlled", {}, { executionMode: "planner_controlled" }, 10, []],
    ["maxInternalIterations 3", { maxInternalIterations: 3 }, {}, 3, []],
    [
      // a bound AgentOS cannot use is none: the loop is read as unbounded, the value declared
      "maxInternalIterations '3'",
      { maxInternalIterations: "3" },
      {},
      undefined,
      [["FIELD_DROPPED", "/nodes/0/executorConfig/maxInternalIterations"]],
    ],
    [
      "an unknown mode",
      {},
      { executionMode: "agentic" },
      10,
      [["FIELD_DROPPED", "/nodes/0/executionMode"]],
    ],
  ])("%s: a decision calls the host's tools, then the run goes on", (_l, cfg, node, max, more) => {
    const g = minimal();
    g.nodes[0] = gmi(cfg, node);
    const { workflow, warnings } = importAgentOs(g);
    const call = { condition: "the model calls a tool the host runs", next: "a.tool" };
    expect(workflow.nodes.slice(1)).toStrictEqual([
      {
        id: "a.tools",
        type: "decision",
        config: {
          conditionLanguage: "text",
          cases: [max === undefined ? call : { ...call, maxRetries: max }],
          otherwise: { next: "end" },
        },
      },
      { id: "a.tool", type: "tool", config: { usesTool: "tool:agentos.tools@1.0.0" } },
    ]);
    expect(workflow.edges).toStrictEqual([
      { from: "a", to: "a.tools", edgeType: "data" },
      { from: "a.tool", to: "a", edgeType: "data" },
    ]);
    expect(codes(warnings)).toEqual([
      ["HEURISTIC", ""],
      ["HEURISTIC", "/nodes/0/executorConfig"],
      ...more,
    ]);
    expect(warnings[1]?.data).toMatchObject({
      toolLoop: { usesTool: "tool:agentos.tools@1.0.0", maxRetries: max ?? null },
    });
  });

  it("goes on where the gmi node went; beside several ways out it is one more branch", () => {
    const g = minimal();
    g.nodes.push({ id: "b", type: "tool", executorConfig: { type: "tool", toolName: "t" } });
    g.nodes.push({ id: "c", type: "tool", executorConfig: { type: "tool", toolName: "u" } });
    g.edges = [
      { id: "e1", source: "__START__", target: "a", type: "static" },
      { id: "e2", source: "a", target: "b", type: "static" },
      { id: "e3", source: "a", target: "c", type: "static" },
      { id: "e4", source: "b", target: "__END__", type: "static" },
      { id: "e5", source: "c", target: "__END__", type: "static" },
    ];
    const fanOut = importAgentOs(g).workflow;
    expect(fanOut.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual([
      "a -> b",
      "a -> c",
      "a -> a.tools",
      "a.tool -> a",
    ]);
    // One way out: c goes too (a node no edge leads to runs at the start in AgentOS).
    g.nodes.pop();
    g.edges = g.edges.filter((e) => e.source !== "c" && e.target !== "c");
    const one = importAgentOs(g).workflow;
    expect(one.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(["a -> a.tools", "a.tool -> a"]);
    expect(one.nodes[1]?.config).toMatchObject({ otherwise: { next: "b" } });
  });

  it("is no cycle AgentOS would refuse to repeat: the node still runs once", () => {
    const { workflow, warnings } = importAgentOs(minimal());
    expect(workflow.edges).toContainEqual({ from: "a.tool", to: "a", edgeType: "data" });
    expect(warnings.some((w) => w.path === "/edges")).toBe(false);
  });
});
