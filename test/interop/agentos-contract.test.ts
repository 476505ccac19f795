/**
 * Contract tests against the real AgentOS (`@framers/agentos` 0.9.164, a pinned devDependency):
 * graphs built with its public builders (`AgentGraph`, `workflow()`, `mission()`), exported as a
 * user would (`compile().toIR()`, written as JSON), then imported. Every IR node and edge must
 * survive in the workflow, or be declared lost by a warning that names it. No network, no model
 * call: nothing is invoked, only compiled.
 */
import {
  AgentGraph,
  gmiNode,
  humanNode,
  mission,
  routerNode,
  subgraphNode,
  toolNode,
  workflow,
} from "@framers/agentos/orchestration/builders/index";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { importAgentOs } from "../../src/interop/agentos/index.js";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import type { ImportResult, InteropWarning } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";

/** The IR as the importer reads it: what `JSON.stringify(compiled.toIR())` writes. */
interface Ir {
  readonly id: string;
  readonly nodes: readonly { readonly id: string; readonly type: string }[];
  readonly edges: readonly {
    readonly id: string;
    readonly source: string;
    readonly target: string;
    readonly type: string;
  }[];
}

const START = "__START__";
const END = "__END__";

/** Serialises an IR as a user writing it to a file would (JS functions drop out). */
function asJson(ir: unknown): Ir {
  return JSON.parse(JSON.stringify(ir)) as Ir;
}

const state = {
  input: z.object({ topic: z.string() }),
  scratch: z.object({ confidence: z.number().optional() }),
  artifacts: z.object({ summary: z.string() }),
};

/** The route targets of a decision node's config, in route order. */
function routeTargets(config: unknown): string[] {
  const c = config as {
    onTrue?: { next: string };
    onFalse?: { next: string };
    cases?: { next: string }[];
    otherwise?: { next: string };
  };
  const routes = [c.onTrue, c.onFalse, ...(c.cases ?? []), c.otherwise];
  return routes.flatMap((r) => (r === undefined ? [] : [r.next]));
}

/** The workflow id of each IR node, read back from the workflow (its `name` when renamed). */
function idsBySource(wf: AgentWorkflow): Map<string, string> {
  return new Map(wf.nodes.map((n) => [n.name ?? n.id, n.id]));
}

/** Successors of a workflow node: its out-edges' targets and, for a decision, its routes. */
function successors(wf: AgentWorkflow, id: string): Set<string> {
  const out = new Set(wf.edges.filter((e) => e.from === id).map((e) => e.to));
  const node = wf.nodes.find((n) => n.id === id);
  if (node?.type === "decision") for (const t of routeTargets(node.config)) out.add(t);
  return out;
}

function warned(warnings: readonly InteropWarning[], path: string): InteropWarning[] {
  return warnings.filter((w) => w.path === path);
}

/**
 * Every IR node and edge, checked against the import: a node is a workflow node whose id (or
 * `name` when the id had to change, declared by a `VALUE_NORMALIZED` naming both) is the IR id;
 * an edge is a workflow edge or route between the same nodes, possibly through the decision
 * inserted for it, or is declared at its own path. Returns what did not survive.
 */
function lost(ir: Ir, { workflow, warnings }: ImportResult): string[] {
  // Each gmi node's tool loop stands between it and where it goes on: read through it.
  const wf = unfoldToolLoops(workflow).wf;
  const problems: string[] = [];
  const ids = idsBySource(wf);
  const id = (source: string): string => (source === END ? "end" : (ids.get(source) ?? "?"));
  ir.nodes.forEach((n, i) => {
    const mapped = ids.get(n.id);
    if (mapped === undefined) problems.push(`node ${n.id} missing`);
    else if (mapped !== n.id) {
      const rename = warned(warnings, `/nodes/${String(i)}/id`)[0];
      if (rename?.code !== "VALUE_NORMALIZED" || rename.data?.from !== n.id)
        problems.push(`node ${n.id} renamed to ${mapped} without a declaration`);
    }
  });
  const routerIds = new Set(ir.nodes.filter((n) => n.type === "router").map((n) => n.id));
  ir.edges.forEach((e, i) => {
    const at = `/edges/${String(i)}`;
    if (e.source === START) {
      if (wf.nodes[0]?.id !== id(e.target)) problems.push(`${e.id}: entry is not ${e.target}`);
      return;
    }
    const from = id(e.source);
    const next = successors(wf, from);
    if (e.target === "__CONDITIONAL__") {
      const held = warned(warnings, `${at}/target`)[0];
      const decision = routerIds.has(e.source) ? from : held?.data?.decisionId;
      const every = [...ir.nodes.map((n) => id(n.id)), "end"];
      const reach = typeof decision === "string" ? successors(wf, decision) : new Set();
      if (held?.data?.edgeId !== e.id || every.some((t) => !reach.has(t)))
        problems.push(`${e.id}: placeholder not routed to every node, or not declared`);
      return;
    }
    if (e.type === "personality" || e.type === "discovery") {
      if (!successors(wf, `${from}.${e.type}`).has(id(e.target)))
        problems.push(`${e.id}: ${e.type} route to ${e.target} missing`);
      return;
    }
    if (e.target === END && !routerIds.has(e.source)) {
      const ends = next.size === 0 || warned(warnings, at).some((w) => w.code === "FIELD_DROPPED");
      if (!ends) problems.push(`${e.id}: end of ${e.source} neither kept nor declared`);
      return;
    }
    if (!next.has(id(e.target))) problems.push(`${e.id}: ${e.source} -> ${e.target} missing`);
  });
  return problems;
}

/** Whether a JSON Pointer names a value of the document (`""` is the document). */
function resolves(doc: unknown, path: string): boolean {
  let current: unknown = doc;
  for (const token of path.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key))
      return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}

function codesAt(warnings: readonly InteropWarning[]): [string, string][] {
  return warnings.map((w) => [w.code, w.path]);
}

// ── The graphs, built with the public builders ───────────────────────────────────────────────

/** AGENT_GRAPH.md's research graph, with odd ids: a conditional edge, a personality edge. */
function researchGraph(): Ir {
  const graph = new AgentGraph(state)
    .addNode("plan", gmiNode({ instructions: "Break the topic into questions." }))
    .addNode("fetch data", toolNode("web_search", { timeout: 10_000 }))
    .addNode("evaluate", gmiNode({ instructions: "Score the sources." }))
    .addNode("résumé", gmiNode({ instructions: "Summarise." }))
    .addNode("review", humanNode({ prompt: "Accurate?" }))
    .addEdge(START, "plan")
    .addEdge("plan", "fetch data")
    .addEdge("fetch data", "evaluate")
    .addConditionalEdge("evaluate", (s) =>
      Number((s.scratch as { confidence?: number }).confidence) > 0.8 ? "résumé" : "fetch data",
    )
    .addPersonalityEdge("résumé", {
      trait: "conscientiousness",
      threshold: 0.7,
      above: "review",
      below: END,
    })
    .addEdge("review", END)
    .compile();
  return asJson(graph.toIR());
}

/** A router node (function), a router (expression), a discovery edge, a nested graph. */
function routedGraph(): Ir {
  const inner = new AgentGraph(state)
    .addNode("draft", gmiNode({ instructions: "Draft." }))
    .addEdge(START, "draft")
    .addEdge("draft", END)
    .compile();
  const graph = new AgentGraph(state)
    .addNode(
      "triage",
      routerNode(() => "write"),
    )
    .addNode("write", subgraphNode(inner.toIR(), { inputMapping: { topic: "topic" } }))
    .addNode("lookup", toolNode("search"))
    .addNode("gate", routerNode("scratch.confidence > 0.5 ? 'finish' : '__END__'"))
    .addNode("finish", gmiNode({ instructions: "Finish." }))
    .addEdge(START, "triage")
    .addEdge("triage", "write")
    .addEdge("triage", "lookup")
    .addEdge("write", "gate")
    .addDiscoveryEdge("lookup", { query: "pdf reader", kind: "tool", fallbackTarget: "gate" })
    .addEdge("gate", "finish")
    .addEdge("gate", END)
    .addEdge("finish", END)
    .compile();
  return asJson(graph.toIR());
}

/** `workflow()`: steps of every kind, a branch, a parallel step, a nested workflow. */
function stepsWorkflow(): Ir {
  const inner = workflow("inner")
    .input(z.object({ topic: z.string() }))
    .returns(z.object({ text: z.string() }))
    .step("write", { gmi: { instructions: "Write." } })
    .compile();
  const wf = workflow("triage-and-answer")
    .input(z.object({ topic: z.string() }))
    .returns(z.object({ answer: z.string() }))
    .step("fetch", { tool: "web_fetch", timeout: 5_000 })
    .branch(() => "long", {
      long: { gmi: { instructions: "Summarise at length.", maxTokens: 800 } },
      short: { gmi: { instructions: "Summarise briefly." } },
    })
    .parallel([{ tool: "tag" }, { extension: { extensionId: "ext.lang", method: "detect" } }], {
      strategy: "all",
      merge: { tags: "concat" },
    })
    .step("nested", { subgraph: inner.toIR() })
    .step("approve", { human: { prompt: "Publish?" } })
    .compile();
  return asJson(wf.toIR());
}

/** `mission()`: the planner's research plan with anchors and mission-wide guardrails. */
function researchMission(): Ir {
  const m = mission("market-scan")
    .input(z.object({ topic: z.string() }))
    .goal("Research {{topic}} and report the three largest players")
    .returns(z.object({ report: z.string() }))
    .planner({ strategy: "linear", maxSteps: 6, style: "research" })
    .policy({ guardrails: ["pii-redaction"] })
    .anchor("fact check", toolNode("fact_check"), { phase: "validate", required: true })
    .anchor("sign-off", humanNode({ prompt: "Ship it?" }), { phase: "deliver", required: true })
    .compile();
  return asJson(m.toIR());
}

/** `mission()` with a plan given to the planner: tool, human and validation steps. */
function plannedMission(): Ir {
  const m = mission("planned")
    .input(z.object({ topic: z.string() }))
    .goal("Answer {{topic}}")
    .returns(z.object({ answer: z.string() }))
    .planner({
      strategy: "linear",
      maxSteps: 4,
      plan: {
        steps: [
          {
            id: "search",
            action: "tool_call",
            toolName: "web_search",
            description: "Search.",
            phase: "gather",
          },
          { id: "think", action: "reasoning", description: "Think.", phase: "process" },
          { id: "check", action: "validation", description: "Check.", phase: "validate" },
          { id: "ask", action: "human_input", description: "Confirm?", phase: "deliver" },
        ],
      },
    })
    .compile();
  return asJson(m.toIR());
}

const BUILT: [string, () => Ir][] = [
  ["AgentGraph: conditional and personality edges, odd ids", researchGraph],
  ["AgentGraph: routers, discovery, a subgraph", routedGraph],
  ["workflow(): steps, branch, parallel, nested workflow", stepsWorkflow],
  ["mission(): research plan with anchors and guardrails", researchMission],
  ["mission(): injected plan with tool, validation and human steps", plannedMission],
];

describe("AgentOS 0.9 contract: every real export imports whole", () => {
  it.each(BUILT)("%s: every node and edge survives or is declared", (_name, build) => {
    const ir = build();
    const result = importAgentOs(ir);
    expect(lost(ir, result)).toEqual([]);
    for (const w of result.warnings) expect([w.path, resolves(ir, w.path)]).toEqual([w.path, true]);
    expect(result.workflow.nodes.length).toBeGreaterThanOrEqual(ir.nodes.length);
  });
});

describe("AgentOS 0.9 contract: AgentGraph", () => {
  it("keeps renamed ids as names and turns addConditionalEdge into a non-simulable decision", () => {
    const ir = researchGraph();
    expect(ir.id).toMatch(/^graph-agent-graph-\d+$/);
    expect(ir.edges[3]).toMatchObject({ id: "edge-4", target: "__CONDITIONAL__" });
    const { workflow: imported, warnings } = importAgentOs(ir);
    // every gmi node (AgentOS's default mode, react_bounded) is followed by its tool loop
    const loops = imported.nodes.filter((n) => n.id.endsWith(".tools")).map((n) => n.id);
    expect(loops).toEqual(["plan.tools", "evaluate.tools", "r-sum-.tools"]);
    const wf = unfoldToolLoops(imported).wf;
    expect(wf.nodes.map((n) => [n.id, n.name, n.type])).toEqual([
      ["plan", undefined, "llm"],
      ["fetch-data", "fetch data", "tool"],
      ["evaluate", undefined, "llm"],
      ["r-sum-", "résumé", "llm"],
      ["review", undefined, "tool"],
      ["evaluate.conditional", undefined, "decision"],
      ["r-sum-.personality", undefined, "decision"],
    ]);
    expect(wf.nodes[5]?.config).toStrictEqual({
      cases: [
        { condition: 'route("edge-4") = "plan"', next: "plan" },
        { condition: 'route("edge-4") = "fetch data"', next: "fetch-data" },
        { condition: 'route("edge-4") = "evaluate"', next: "evaluate" },
        { condition: 'route("edge-4") = "résumé"', next: "r-sum-" },
        { condition: 'route("edge-4") = "review"', next: "review" },
      ],
      otherwise: { next: "end" },
    });
    const renames = warnings.filter((w) => w.code === "VALUE_NORMALIZED" && w.path !== "/id");
    expect(renames.map((w) => [w.path, w.data])).toEqual([
      ["/nodes/1/id", { from: "fetch data", to: "fetch-data", reason: "invalid" }],
      ["/nodes/3/id", { from: "résumé", to: "r-sum-", reason: "invalid" }],
    ]);
    expect(warned(warnings, "/edges/3/target").map((w) => [w.code, w.data])).toEqual([
      [
        "HEURISTIC",
        {
          edgeId: "edge-4",
          nodeId: "evaluate",
          decisionId: "evaluate.conditional",
          targets: ["plan", "fetch data", "evaluate", "résumé", "review", END],
        },
      ],
    ]);
    const found = createValidator().validateSync(imported);
    const at = imported.nodes.findIndex((n) => n.id === "evaluate.conditional");
    const notSimulable = found.filter(
      (d) => d.code === "CONDITION_NOT_SIMULABLE" && d.path.startsWith(`/nodes/${String(at)}/`),
    );
    expect(notSimulable.map((d) => d.path)).toEqual(
      [0, 1, 2, 3, 4].map((k) => `/nodes/${String(at)}/config/cases/${String(k)}/condition`),
    );
  });

  it("reads routers from their declared targets, a discovery edge, a subgraph as a tool", () => {
    const ir = routedGraph();
    const { workflow: wf, warnings } = importAgentOs(ir);
    const byId = new Map(wf.nodes.map((n) => [n.id, n]));
    expect(routeTargets(byId.get("triage")?.config)).toEqual(["write", "lookup"]);
    expect(routeTargets(byId.get("gate")?.config)).toEqual(["finish", "end"]);
    expect(byId.get("gate")?.config).toMatchObject({
      conditionLanguage: "text",
      cases: [
        {
          condition:
            "router 'gate' picks 'finish' (router condition: scratch.confidence > 0.5 ? 'finish' : '__END__')",
        },
      ],
    });
    // addDiscoveryEdge writes the fallback as the edge's target: a match leads there too.
    expect(ir.edges[4]).toMatchObject({ target: "gate", discoveryFallback: "gate" });
    expect(routeTargets(byId.get("lookup.discovery")?.config)).toEqual(["gate", "gate"]);
    expect(byId.get("write")).toStrictEqual({
      id: "write",
      type: "tool",
      config: {
        usesTool: "tool:agentos.subgraph@1.0.0",
        params: {
          graphId: expect.stringMatching(/^graph-agent-graph-\d+$/) as unknown,
          inputMapping: { topic: "topic" },
        },
      },
    });
    expect(warned(warnings, "/nodes/1/type").map((w) => [w.code, w.data?.nodeId])).toEqual([
      ["HEURISTIC", "write"],
    ]);
  });
});

describe("AgentOS 0.9 contract: workflow() and mission()", () => {
  it("workflow(): the branch router routes to its arms, the parallel arms fan out and rejoin", () => {
    const ir = stepsWorkflow();
    const { workflow: imported, warnings } = importAgentOs(ir);
    const wf = unfoldToolLoops(imported).wf;
    const ids = wf.nodes.map((n) => n.id);
    expect(ids).toEqual(ir.nodes.map((n) => n.id));
    const router = ir.nodes.find((n) => n.type === "router")?.id ?? "";
    const arms = ir.edges.filter((e) => e.source === router).map((e) => e.target);
    expect(arms).toEqual([
      expect.stringMatching(/^branch-long-/),
      expect.stringMatching(/^branch-short-/),
    ]);
    expect(routeTargets(wf.nodes.find((n) => n.id === router)?.config)).toEqual(arms);
    const parallel = ids.filter((id) => id.startsWith("parallel-"));
    for (const arm of arms) expect([...successors(wf, arm)]).toEqual(parallel);
    for (const p of parallel) expect([...successors(wf, p)]).toEqual(["nested"]);
    expect(wf.nodes.find((n) => n.id === "nested")?.config).toMatchObject({
      usesTool: "tool:agentos.subgraph@1.0.0",
      params: { graphId: expect.stringMatching(/^graph-inner-\d+$/) as unknown },
    });
    expect(codesAt(warnings).filter(([, p]) => !p.startsWith("/nodes"))).toEqual([
      ["FIELD_DROPPED", "/reducers"],
      ["FIELD_DROPPED", "/checkpointPolicy"],
      ["FIELD_DROPPED", "/memoryConsistency"],
      ["HEURISTIC", ""],
      ["FIELD_DROPPED", "/stateSchema/scratch"],
      ["HEURISTIC", "/edges/2/condition"],
      ["HEURISTIC", "/edges/3/condition"],
    ]);
  });

  it("mission(): nodes in IR order, the phase-ordered chain through the anchors, guardrails declared", () => {
    const ir = researchMission();
    const { workflow: imported, warnings } = importAgentOs(ir);
    // planner_controlled gmi nodes run the same tool loop: one each
    expect(imported.nodes.filter((n) => n.id.endsWith(".tool")).map((n) => n.id)).toEqual([
      "gather-info.tool",
      "process-info.tool",
      "deliver-result.tool",
      "refine-output.tool",
    ]);
    const wf = unfoldToolLoops(imported).wf;
    expect(wf.nodes.map((n) => [n.id, n.name, n.type])).toEqual([
      ["gather-info", undefined, "llm"],
      ["process-info", undefined, "llm"],
      ["deliver-result", undefined, "llm"],
      ["refine-output", undefined, "llm"],
      ["fact-check", "fact check", "tool"],
      ["sign-off", undefined, "tool"],
    ]);
    expect(wf.edges.map((e) => `${e.from}>${e.to}`)).toEqual([
      "gather-info>process-info",
      "process-info>fact-check",
      "fact-check>deliver-result",
      "deliver-result>refine-output",
      "refine-output>sign-off",
    ]);
    const guardrails = warnings.filter((w) => w.path.endsWith("/guardrailPolicy"));
    expect(guardrails.map((w) => [w.code, w.data?.nodeId])).toEqual(
      ir.nodes.map((n) => ["FIELD_DROPPED", n.id]),
    );
  });

  it("mission() with a given plan: tool, llm, guardrail and human nodes in plan order", () => {
    const wf = unfoldToolLoops(importAgentOs(plannedMission()).workflow).wf;
    expect(
      wf.nodes.map((n) => [n.id, n.type, (n.config as { usesTool?: string }).usesTool]),
    ).toEqual([
      ["search", "tool", "tool:web_search@1.0.0"],
      ["think", "llm", undefined],
      ["check", "tool", "tool:agentos.guardrail@1.0.0"],
      ["ask", "tool", "tool:agentos.human@1.0.0"],
    ]);
  });
});
