import { describe, expect, it } from "vitest";
import { agentOs, exportAgentOs, importAgentOs } from "../../src/interop/agentos/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates, parseWorkflow } from "../../src/model/index.js";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import { codes, readFixture } from "./helpers.js";

const ROUTED = "agentos/research-graph-routed.compiled-execution-graph.derived.json";

describe("exportAgentOs", () => {
  it("round trip import → export → import is deep-equal on the derived fixture", () => {
    const first = importAgentOs(readFixture(ROUTED)).workflow;
    const exported = exportAgentOs(first);
    expect(agentOs.detect(exported.document)).toBe(true);
    expect(importAgentOs(exported.document).workflow).toStrictEqual(first);
    expect(codes(exported.warnings)).toEqual([
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      // the router's text condition: a function the host supplies, as AgentOS's toIR() leaves it
      // (route-quality is node 11: the gmi tool loops before it are written back into their nodes)
      ["NOT_EXPORTABLE", "/nodes/11/config/cases/0"],
      // route-quality → __END__ skips summarize only: AgentOS still runs review after it
      ["NOT_EXPORTABLE", "/nodes/11/config/cases/0"],
      // the import's step for that (route-quality.end, leading on to review) is skipped alike
      ["NOT_EXPORTABLE", "/nodes/11/config/otherwise"],
    ]);
    expect(exported.warnings.slice(2).map((w) => w.data)).toEqual([
      {
        nodeId: "route-quality",
        reason: "a text condition is judged by a model; AgentOS evaluates expressions",
      },
      { nodeId: "route-quality", next: "summarize" },
      { nodeId: "route-quality", next: "route-quality.end" },
    ]);
  });

  it("writes the graph's edges: start, static, router routes, personality pair, ends", () => {
    const { document } = exportAgentOs(importAgentOs(readFixture(ROUTED)).workflow);
    const edges = (document.edges as Record<string, unknown>[]).map((e) => [
      e.source,
      e.target,
      e.type,
    ]);
    expect(edges).toEqual([
      ["__START__", "plan", "static"],
      ["plan", "search", "static"],
      ["search", "evaluate", "static"],
      ["evaluate", "route-quality", "static"],
      ["route-quality", "summarize", "conditional"],
      // the import's route to __END__ leads on to review, which AgentOS runs when it skips summarize
      ["route-quality", "route-quality.end", "conditional"],
      ["summarize", "review", "personality"],
      ["summarize", "__END__", "personality"],
      ["route-quality.end", "review", "static"],
      ["review", "__END__", "static"],
    ]);
  });

  it("writes a subgraph's stand-in tool back as a subgraph node; the round trip is deep-equal", () => {
    const graph = {
      id: "g1",
      name: "g",
      nodes: [
        {
          id: "inner",
          type: "subgraph",
          executorConfig: {
            type: "subgraph",
            graphId: "graph-inner-1",
            outputMapping: { "artifacts.text": "scratch.text" },
          },
        },
      ],
      edges: [
        { id: "e1", source: "__START__", target: "inner", type: "static" },
        { id: "e2", source: "inner", target: "__END__", type: "static" },
      ],
    };
    const first = importAgentOs(graph).workflow;
    const { document } = exportAgentOs(first);
    expect((document.nodes as unknown[])[0]).toStrictEqual({
      id: "inner",
      type: "subgraph",
      executorConfig: {
        type: "subgraph",
        graphId: "graph-inner-1",
        outputMapping: { "artifacts.text": "scratch.text" },
      },
      executionMode: "single_turn",
      checkpoint: "none",
      effectClass: "read",
    });
    expect(importAgentOs(document).workflow).toStrictEqual(first);
  });

  it.each(listTemplates().map((t) => t.id))(
    "template %s exports and re-imports its nodes and flow",
    (id) => {
      const wf = getTemplate(id);
      if (wf === undefined) throw new Error(`no template ${id}`);
      const { document, warnings } = exportAgentOs(wf);
      expect(codes(warnings).slice(0, 2)).toEqual([
        ["NOT_EXPORTABLE", "/version"],
        ["NOT_EXPORTABLE", "/autonomyLevel"],
      ]);
      // every llm node becomes a gmi node, which runs AgentOS's tool loop: declared at its type
      const llms = wf.nodes.flatMap((n, i) =>
        n.type === "llm" ? [`/nodes/${String(i)}/type`] : [],
      );
      expect(
        warnings
          .filter((w) => w.data?.nodeId !== undefined && w.path.endsWith("/type"))
          .map((w) => w.path),
      ).toEqual(llms);
      const back = importAgentOs(document).workflow;
      const steps = unfoldToolLoops(back).wf;
      expect(steps.nodes.map((n) => [n.id, n.type])).toEqual(wf.nodes.map((n) => [n.id, n.type]));
      // the tool loops an import reads back are loops
      expect(back.autonomyLevel).toBeGreaterThanOrEqual(Math.max(wf.autonomyLevel, 2));
    },
  );
});

describe("exportAgentOs state partitions", () => {
  it("compiles each field as it would be alone, a shared expression once", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no research template");
    // the same expressions under plain names, and names the shape reader takes apart
    const fields = JSON.parse(
      '{"a": "text", "b?": "text", "c": "integer[]", "d": "integer[]", "e??": "text",' +
        ' "__proto__": "text", "": "text", "f": {"type": "string", "format": "uri"}, "g": "Nope"}',
    ) as AgentWorkflow["inputSchema"];
    const input = exportAgentOs({ ...wf, inputSchema: fields }).document.stateSchema as Record<
      string,
      { properties: Record<string, unknown>; required: string[] }
    >;
    const { properties, required } = input.input ?? { properties: {}, required: [] };
    expect(Object.entries(properties)).toEqual([
      ["a", { type: "string" }],
      ["b", { type: "string" }],
      ["c", { type: "array", items: { type: "integer" } }],
      ["d", { type: "array", items: { type: "integer" } }],
      // the reader strips one more "?" and refuses "__proto__": alone, they compile to nothing
      ["e?", {}],
      ["__proto__", {}],
      ["", { type: "string" }],
      ["f", { type: "string", format: "uri" }],
      ["g", {}],
    ]);
    expect(required).toEqual(["a", "c", "d", "__proto__", "", "f", "g"]);
    // each field has its own copy
    expect(properties.c).not.toBe(properties.d);
  });
});

describe("exportAgentOs conditions", () => {
  const llm = (id: string): AgentWorkflow["nodes"][number] => ({
    id,
    type: "llm",
    config: { model: "m", promptRef: "prm:p@1.0.0" },
  });

  /** `a` → decision `d` (config) → leaves `x`, `y`; the document and warnings of its export. */
  function exported(config: unknown): ReturnType<typeof exportAgentOs> {
    const wf = getTemplate("document-review");
    if (wf === undefined) throw new Error("no template");
    return exportAgentOs({
      ...wf,
      nodes: [
        llm("a"),
        { id: "d", type: "decision", config } as AgentWorkflow["nodes"][number],
        llm("x"),
        llm("y"),
      ],
      edges: [{ from: "a", to: "d", edgeType: "data" }],
    });
  }

  function routes(doc: Record<string, unknown>): [string, unknown][] {
    return (doc.edges as { source: string; target: string; condition?: unknown }[])
      .filter((e) => e.source === "d")
      .map((e) => [e.target, e.condition]);
  }

  const expr = (e: string): unknown => ({ type: "expression", expr: e });

  it("writes first-match routes as exclusive expressions over artifacts.output", () => {
    const { document, warnings } = exported({
      cases: [
        { condition: 'output.kind = "a"', next: "x" },
        { condition: 'output.kind = "b"', next: "y" },
        { condition: "output.score >= 0.5", next: "x" },
        { condition: 'output.kind = "a"', next: "y" },
      ],
      otherwise: { next: "end" },
    });
    const k = "artifacts.output.kind";
    expect(routes(document)).toEqual([
      ["x", expr(`${k} === "a"`)],
      // excludes kind = "a" by itself: nothing to negate
      ["y", expr(`${k} === "b"`)],
      ["x", expr(`artifacts.output.score >= 0.5 && ${k} !== "a" && ${k} !== "b"`)],
      // the same condition as an earlier case: never taken
      ["y", expr("false")],
      ["__END__", expr(`${k} !== "a" && ${k} !== "b" && artifacts.output.score < 0.5`)],
    ]);
    const router = (document.nodes as Record<string, unknown>[]).find((n) => n.id === "d");
    expect(router?.executorConfig).toEqual({ type: "router", condition: expr("''") });
    // every other node keeps its output where the expressions read it
    const kept = (document.nodes as Record<string, unknown>[]).map((n) => [n.id, n.metadata]);
    expect(kept).toEqual([
      ["a", { outputAs: "output" }],
      ["d", undefined],
      ["x", { outputAs: "output" }],
      ["y", { outputAs: "output" }],
    ]);
    expect(warnings.filter((w) => w.code === "HEURISTIC")).toEqual([
      {
        code: "HEURISTIC",
        message:
          "decision 'd': its conditions read artifacts.output, the output of the last node before it (every node keeps its output there); agentflow reads the merged output of every node so far, and stops where a field is absent, which AgentOS reads as undefined",
        path: "/nodes/1/config",
        data: { nodeId: "d", reads: "artifacts.output" },
      },
    ]);
  });

  it("writes literals on either side, negative numbers and booleans, and negates each operator", () => {
    const { document } = exported({
      condition: "-1.5 < output.a.b",
      onTrue: { next: "x" },
      onFalse: { next: "y" },
    });
    expect(routes(document)).toEqual([
      ["x", expr("-1.5 < artifacts.output.a.b")],
      ["y", expr("-1.5 >= artifacts.output.a.b")],
    ]);
  });

  it.each([
    ["output.n + 1 > 2", "output.n + 1 is arithmetic, which AgentOS expressions do not have"],
    [
      'output.s = "a&&b"',
      `the string "a&&b" holds a character AgentOS's expression reader splits on or cannot quote`,
    ],
    [
      "output.n = 0.30000000000000001",
      "the number 0.30000000000000001 has no exact JavaScript number, which AgentOS compares",
    ],
    [
      "output.a and output.b",
      "it is not one S-FEEL comparison (an agentflow simulation cannot decide it either)",
    ],
  ])("keeps a function condition, declared, for %s", (condition, reason) => {
    const { document, warnings } = exported({
      cases: [
        { condition, next: "x" },
        { condition: "output.ok = true", next: "y" },
      ],
      otherwise: { next: "end" },
    });
    expect(routes(document).map(([, c]) => c)).toEqual([
      { type: "function" },
      { type: "function" },
      { type: "function" },
    ]);
    const declared = warnings.filter((w) => w.message.includes("no AgentOS expression form"));
    expect(declared.map((w) => [w.path, w.data?.reason])).toEqual([
      ["/nodes/1/config/cases/0", reason],
      ["/nodes/1/config/cases/1", "another condition of this decision has none"],
    ]);
    expect(warnings.some((w) => w.code === "HEURISTIC")).toBe(false);
    expect(
      (document.nodes as Record<string, unknown>[]).every((n) => n.metadata === undefined),
    ).toBe(true);
  });

  it("keeps a function condition past MAX_COMPARISONS, and stays linear for a switch", () => {
    // 500 conditions on 500 fields exclude nothing: 125,000 negations
    const many = Array.from({ length: 500 }, (_, i) => ({
      condition: `output.f${String(i)} = 1`,
      next: "x",
    }));
    const refused = exported({ cases: many, otherwise: { next: "end" } });
    const reasons = refused.warnings.flatMap((w) =>
      w.data?.reason === undefined ? [] : [w.data.reason],
    );
    expect(reasons).toHaveLength(500);
    expect(new Set(reasons)).toEqual(
      new Set(["its routes need more than 100,000 comparisons as exclusive AgentOS expressions"]),
    );
    // 20,000 cases on one field: each case alone, the otherwise negates them all
    const big = Array.from({ length: 20_000 }, (_, i) => ({
      condition: `output.k = ${String(i)}`,
      next: "x",
    }));
    const written = routes(exported({ cases: big, otherwise: { next: "end" } }).document);
    expect(written[19_999]).toEqual(["x", expr("artifacts.output.k === 19999")]);
    expect((written[20_000]?.[1] as { expr: string }).expr.split(" && ")).toHaveLength(20_000);
  });

  it("declares a looping route and what follows a route not taken", () => {
    const { warnings } = exported({
      condition: "output.ok = true",
      onTrue: { next: "x" },
      onFalse: { next: "a", maxRetries: 2 },
    });
    const flow = warnings.filter((w) => w.path.startsWith("/nodes/1/config/on"));
    expect(flow.map((w) => [w.path, w.data])).toEqual([
      ["/nodes/1/config/onFalse/maxRetries", { nodeId: "d" }],
      ["/nodes/1/config/onFalse", { nodeId: "d", next: "a" }],
    ]);
    expect(flow[1]?.message).toContain("closes a cycle, which AgentOS does not run");
    const branch = exported({
      condition: "output.ok = true",
      onTrue: { next: "x" },
      onFalse: { next: "end" },
    });
    // x has no successor: skipping it skips everything after it
    expect(branch.warnings.some((w) => w.message.includes("is not taken"))).toBe(false);
  });
});

describe("exportAgentOs: a gmi node's tool loop", () => {
  const graph = (cfg: Record<string, unknown>): Record<string, unknown> => ({
    id: "g1",
    name: "g",
    nodes: [
      { id: "a", type: "gmi", executorConfig: { type: "gmi", instructions: "Pay.", ...cfg } },
    ],
    edges: [
      { id: "e1", source: "__START__", target: "a", type: "static" },
      { id: "e2", source: "a", target: "__END__", type: "static" },
    ],
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["AgentOS's default bound", {}, { type: "gmi", instructions: "Pay." }],
    [
      "a bound of 3",
      { maxInternalIterations: 3 },
      { type: "gmi", instructions: "Pay.", maxInternalIterations: 3 },
    ],
  ])("is written back into the gmi node (%s), not as nodes", (_label, cfg, written) => {
    const first = importAgentOs(graph(cfg)).workflow;
    expect(first.nodes.map((n) => n.id)).toEqual(["a", "a.tools", "a.tool"]);
    const { document, warnings } = exportAgentOs(first);
    const nodes = document.nodes as Record<string, unknown>[];
    expect(nodes.map((n) => [n.id, n.type, n.executorConfig])).toEqual([["a", "gmi", written]]);
    expect((document.edges as Record<string, unknown>[]).map((e) => e.target)).toEqual([
      "a",
      "__END__",
    ]);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/autonomyLevel"],
    ]);
    expect(importAgentOs(document).workflow).toStrictEqual(first);
  });

  it("an unbounded loop is written with AgentOS's bound, declared at its case", () => {
    const first = importAgentOs(graph({})).workflow;
    const parsed = parseWorkflow({
      ...first,
      nodes: first.nodes.map((n) =>
        n.id === "a.tools" && n.type === "decision" && "cases" in n.config
          ? {
              ...n,
              config: {
                ...n.config,
                cases: n.config.cases.map(({ condition, next }) => ({ condition, next })),
              },
            }
          : n,
      ),
    });
    const unbounded = parsed.workflow;
    if (unbounded === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
    const { document, warnings } = exportAgentOs(unbounded);
    expect((document.nodes as unknown[]).length).toBe(1);
    expect(warnings.at(-1)).toMatchObject({
      code: "NOT_EXPORTABLE",
      path: "/nodes/1/config/cases/0/maxRetries",
      data: { nodeId: "a" },
    });
  });
});
