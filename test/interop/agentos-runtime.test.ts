/**
 * Exports run in AgentOS's own runtime (`@framers/agentos` 0.9.164, a pinned devDependency): each
 * exported graph is written as JSON and read back, as a user would hand it over, then run by
 * AgentOS's `GraphRuntime` with its real `NodeExecutor` for the routers; only llm and tool nodes
 * answer with fixture outputs (no model, no tool is called). The route AgentOS takes is compared
 * with agentflow's simulation of the same outputs, for the nine shipped workflows (the examples'
 * six and the three templates) and for random decisions.
 */
import type { GraphNode } from "@framers/agentos/orchestration";
import { GraphValidator } from "@framers/agentos/orchestration";
import type { CompiledExecutionGraph } from "@framers/agentos/orchestration";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AgentGraph,
  gmiNode,
  routerNode,
  toolNode,
} from "@framers/agentos/orchestration/builders/index";
import { z } from "zod";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import { exportAgentOs, importAgentOs } from "../../src/interop/agentos/index.js";
import { ImportError } from "../../src/interop/index.js";
import type { AgentWorkflow, DecisionNode } from "../../src/model/index.js";
import { analyzeCondition, decisionRoutes, parseWorkflow } from "../../src/model/index.js";
import type { Fixtures, NodeFixture } from "../../src/simulate/index.js";
import { sampleFixtures, simulate } from "../../src/simulate/index.js";
import { runAgentOs } from "./agentos-run.js";
import { SHIPPED } from "./shipped.js";

type Obj = Record<string, unknown>;
type Edge = { id: string; source: string; target: string; type: string } & Obj;

const END = "__END__";

/** The document as a file would carry it. */
function asJson(doc: unknown): CompiledExecutionGraph {
  return JSON.parse(JSON.stringify(doc)) as CompiledExecutionGraph;
}

/** Runs a graph in AgentOS: the non-router nodes started, in order, and any error. */
async function runInAgentOs(
  graph: CompiledExecutionGraph,
  outputOf: (nodeId: string) => unknown,
  input: Obj = {},
): Promise<{ started: string[]; errors: string[] }> {
  const run = await runAgentOs(graph, (node) => ({ output: outputOf(node.id) }), input);
  return { started: run.started.filter((id) => !run.routers.has(id)), errors: [...run.errors] };
}

/**
 * The exported router `id` alone, behind a source node that outputs what is asked and before leaf
 * copies of its targets (`__END__` becomes the leaf `probe-end`): its node and its edges' conditions
 * exactly as exported. Answers which target AgentOS routes to, whatever the rest of the graph is
 * (AgentOS does not run loops at all: see the declared warnings).
 */
function routerProbe(doc: CompiledExecutionGraph, id: string): CompiledExecutionGraph {
  const router = doc.nodes.find((n) => n.id === id);
  if (router === undefined) throw new Error(`no router ${id}`);
  const out = (doc.edges as Edge[]).filter((e) => e.source === id);
  const leaf = (target: string): string => (target === END ? "probe-end" : `probe-${target}`);
  const targets = [...new Set(out.map((e) => e.target))];
  const stub = (nodeId: string): GraphNode => ({
    id: nodeId,
    type: "tool",
    executorConfig: { type: "tool", toolName: nodeId },
    executionMode: "single_turn",
    effectClass: "read",
    checkpoint: "none",
    metadata: { outputAs: "output" },
  });
  return {
    ...doc,
    nodes: [stub("probe-source"), router, ...targets.map((t) => stub(leaf(t)))],
    edges: [
      { id: "p1", source: "__START__", target: "probe-source", type: "static" },
      { id: "p2", source: "probe-source", target: id, type: "static" },
      ...out.map((e) => ({ ...e, target: leaf(e.target) })),
      ...targets.map((t, k) => ({
        id: `p${String(k + 3)}`,
        source: leaf(t),
        target: END,
        type: "static" as const,
      })),
    ],
  } as CompiledExecutionGraph;
}

/** Where AgentOS routes the router `id` when the last output is `output`: a node id or "end". */
async function agentOsRoute(
  doc: CompiledExecutionGraph,
  id: string,
  output: Obj,
): Promise<string[]> {
  const { started, errors } = await runInAgentOs(routerProbe(doc, id), (nodeId) =>
    nodeId === "probe-source" ? output : {},
  );
  expect(errors).toEqual([]);
  return started.slice(1).map((n) => (n === "probe-end" ? "end" : n.slice("probe-".length)));
}

/** Values a condition's field may take: around every number literal, and the usual others. */
function candidates(condition: string): unknown[] {
  const numbers = [...condition.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const near = numbers.flatMap((n) => [n - 0.01, n, n + 0.01]);
  return [true, false, 0, 1, "a", ...near];
}

/** Every combination of candidate values for the output fields a decision's conditions read. */
function outputsFor(node: DecisionNode): Obj[] {
  const fields = new Map<string, unknown[]>();
  for (const r of decisionRoutes(node.config)) {
    if (r.condition === undefined) continue;
    for (const f of analyzeCondition(r.condition).fields) {
      const name = f.replace(/^output\./, "");
      fields.set(name, [...(fields.get(name) ?? []), ...candidates(r.condition)]);
    }
  }
  let outputs: Obj[] = [{}];
  for (const [name, values] of fields)
    outputs = outputs.flatMap((o) => [...new Set(values)].map((v) => ({ ...o, [name]: v })));
  return outputs;
}

/**
 * Every llm / tool node outputs its placeholder fixture with the fields of `extra` its
 * `outputSchema` declares (all of them without one), so that no node's own schema stops the run.
 */
function fixturesWith(wf: AgentWorkflow, extra: Obj): Fixtures {
  const samples = sampleFixtures(wf);
  const fixtures: Record<string, NodeFixture> = {};
  for (const n of wf.nodes) {
    if (n.type === "decision") continue;
    const schema = n.type === "llm" ? n.config.outputSchema : undefined;
    const declared = (key: string): boolean =>
      schema === undefined || Object.hasOwn(schema, key) || Object.hasOwn(schema, `${key}?`);
    const own = Object.entries(extra).filter(([key]) => declared(key));
    const sample = samples[n.id]?.outputs?.[0] ?? {};
    fixtures[n.id] = { outputs: [{ ...sample, ...Object.fromEntries(own) }] };
  }
  return fixtures;
}

/**
 * The route agentflow's simulation takes at decision `id` on its first visit: its target, also
 * when the run then stops on that route (a retry without `maxRetries`); "undecidable" when the
 * condition gives no answer; undefined when the run stops before the decision.
 */
function simulatedRoute(
  wf: AgentWorkflow,
  node: DecisionNode,
  fixtures: Fixtures,
): string | undefined {
  const state = simulate(wf, { fixtures });
  const record = state.trail.find((r) => r.nodeId === node.id) as
    { type: string; next?: string; route?: string; cell?: string } | undefined;
  if (record?.type === "decision") return record.next;
  if (record?.type !== "decision-blocked") return undefined;
  if (record.cell === "condition") return "undecidable";
  return decisionRoutes(node.config).find((r) => r.label === record.route)?.next;
}

describe.each(SHIPPED)("%s exported to AgentOS", (_name, wf) => {
  const { document, warnings } = exportAgentOs(wf);
  const graph = asJson(document);
  const decisions = wf.nodes.filter((n): n is DecisionNode => n.type === "decision");

  it("writes every condition as an expression AgentOS evaluates, no function left", () => {
    const routers = graph.nodes.filter((n) => n.type === "router");
    expect(routers.map((r) => r.id)).toEqual(decisions.map((d) => d.id));
    for (const r of routers)
      expect(r.executorConfig).toEqual({
        type: "router",
        condition: { type: "expression", expr: "''" },
      });
    for (const e of graph.edges.filter((x) => x.type === "conditional"))
      expect(e.condition?.type).toBe("expression");
    expect(warnings.some((w) => w.message.includes("function condition"))).toBe(false);
  });

  it("routes every decision where agentflow's simulation routes, for the same outputs", async () => {
    for (const d of decisions) {
      const taken = new Set<string>();
      for (const output of outputsFor(d)) {
        const expected = simulatedRoute(wf, d, fixturesWith(wf, output));
        if (expected === undefined || expected === "undecidable") continue;
        expect([d.id, output, await agentOsRoute(graph, d.id, output)]).toEqual([
          d.id,
          output,
          [expected],
        ]);
        taken.add(expected);
      }
      // not vacuous: both sides of each shipped decision were compared (or its one target)
      expect(taken.size).toBe(new Set(decisionRoutes(d.config).map((r) => r.next)).size);
    }
  });

  it("runs whole in AgentOS as in the simulation when it has no loop; a loop is declared", async () => {
    const loops = warnings.filter((w) => w.message.includes("closes a cycle"));
    const cyclic = GraphValidator.validate(graph).errors.some((e) => e.includes("cycle"));
    expect(cyclic).toBe(loops.length > 0);
    if (loops.length > 0) {
      // AgentOS waits for every predecessor of the loop's head: the loop never starts
      const { started } = await runInAgentOs(graph, () => ({}));
      expect(started).not.toContain(loops[0]?.data?.next);
      return;
    }
    let compared = 0;
    for (const d of decisions)
      for (const output of outputsFor(d)) {
        const fixtures = fixturesWith(wf, output);
        const state = simulate(wf, { fixtures });
        if (!state.complete) continue;
        compared += 1;
        const moves = state.trail.filter((r) => r.type === "move").map((r) => r.nodeId);
        const { started, errors } = await runInAgentOs(
          graph,
          (id) => fixtures[id]?.outputs?.[0] ?? {},
        );
        expect(errors).toEqual([]);
        expect(started).toEqual(moves);
      }
    expect(compared).toBeGreaterThan(0);
  });
});

const FIELDS = ["a", "b"] as const;
const NUMBERS = ["0", "1", "2", "0.5", "-1"];
const OTHERS = ['"x"', '"y"', "true", "false"];
const VALUES: readonly unknown[] = [0, 1, 2, 0.5, -1, "x", "y", true, false];

/** A random S-FEEL comparison: an order only between numbers, equality between anything. */
const comparison = fc
  .tuple(
    fc.constantFrom(...FIELDS),
    fc.constantFrom("=", "!=", "<", "<=", ">", ">="),
    fc.constantFrom(...NUMBERS, ...OTHERS, "output.a", "output.b"),
    fc.boolean(),
  )
  .map(([field, op, other, flip]) => {
    const operand =
      ["=", "!="].includes(op) || NUMBERS.includes(other) || other.startsWith("output.")
        ? other
        : "1";
    const [left, right] = flip ? [operand, `output.${field}`] : [`output.${field}`, operand];
    return `${left} ${op} ${right}`;
  });

const TARGETS = ["t0", "t1", "t2", "end"];

/** A binary or multi-way decision over `output.a` / `output.b`, routing to leaves or the end. */
const decision = fc.oneof(
  fc
    .tuple(comparison, fc.constantFrom(...TARGETS), fc.constantFrom(...TARGETS))
    .map(([condition, t, f]) => ({ condition, onTrue: { next: t }, onFalse: { next: f } })),
  fc
    .tuple(
      fc.array(fc.tuple(comparison, fc.constantFrom(...TARGETS)), { minLength: 1, maxLength: 6 }),
      fc.constantFrom(...TARGETS),
    )
    .map(([cases, otherwise]) => ({
      cases: cases.map(([condition, next]) => ({ condition, next })),
      otherwise: { next: otherwise },
    })),
);

/** An output with each field absent or one of the values the comparisons use. */
const output = fc.record(
  { a: fc.constantFrom(...VALUES), b: fc.constantFrom(...VALUES) },
  { requiredKeys: [] },
);

/** `s` → `d` → the leaves its routes name (AgentOS would run a node nothing leads to at once). */
function decisionWorkflow(config: DecisionNode["config"]): AgentWorkflow {
  const leaves = [...new Set(decisionRoutes(config).map((r) => r.next))].filter((t) => t !== "end");
  const llm = (id: string): Obj => ({
    id,
    type: "llm",
    config: { model: "m", promptRef: "prm:p@1.0.0" },
  });
  const wf = parseWorkflow({
    kind: "AgentWorkflow",
    id: "wf",
    version: "1.0.0",
    name: "wf",
    autonomyLevel: 1,
    inputSchema: {},
    outputSchema: {},
    nodes: [llm("s"), { id: "d", type: "decision", config }, ...leaves.map(llm)],
    edges: [{ from: "s", to: "d", edgeType: "data" }],
  }).workflow;
  if (wf === undefined) throw new Error("the generated workflow does not parse");
  return wf;
}

describe("random decisions exported to AgentOS", () => {
  it("take the route agentflow's simulation takes whenever the simulation decides", async () => {
    let decided = 0;
    await fc.assert(
      fc.asyncProperty(decision, output, async (config, out) => {
        const wf = decisionWorkflow(config);
        const d = wf.nodes[1] as DecisionNode;
        const fixtures: Fixtures = { s: { outputs: [out] } };
        const expected = simulatedRoute(wf, d, fixtures);
        if (expected === undefined || expected === "undecidable") return;
        decided += 1;
        const graph = asJson(exportAgentOs(wf).document);
        const { started, errors } = await runInAgentOs(graph, (id) => (id === "s" ? out : {}));
        expect(errors).toEqual([]);
        expect(started).toEqual(expected === "end" ? ["s"] : ["s", expected]);
      }),
      { numRuns: 400 },
    );
    expect(decided).toBeGreaterThan(100);
  });
});

describe("the harness catches the old export", () => {
  it("a router with a serialised function condition throws in AgentOS's runtime", async () => {
    const [, wf] = SHIPPED.find(([label]) => label === "template document-review") ?? [];
    if (wf === undefined) throw new Error("no document-review template");
    const graph = asJson(exportAgentOs(wf).document);
    // what the export wrote before: JSON keeps `{ type: "function" }` and drops the function
    for (const n of graph.nodes)
      if (n.executorConfig.type === "router")
        n.executorConfig.condition = { type: "function" } as never;
    await expect(runInAgentOs(graph, () => ({ is_valid: true }))).rejects.toThrow(
      "config.condition.fn is not a function",
    );
  });
});

/** `a → r → (notify, refund)` built with AgentOS's own builders, `r` a router on `expr`. */
function routerGraph(expr: string): CompiledExecutionGraph {
  const state = {
    input: z.object({ q: z.string() }),
    scratch: z.object({ route: z.string().optional() }),
    artifacts: z.object({}),
  };
  const ir = new AgentGraph(state)
    .addNode("a", gmiNode({ instructions: "triage" }))
    .addNode("r", routerNode(expr))
    .addNode("notify", toolNode("send_email"))
    .addNode("refund", toolNode("issue_refund"))
    .addEdge("__START__", "a")
    .addEdge("a", "r")
    .addEdge("r", "notify")
    .addEdge("r", "refund")
    .addEdge("notify", "__END__")
    .addEdge("refund", "__END__")
    .compile()
    .toIR();
  return asJson(ir);
}

describe("a router that names no node runs every static out-edge", () => {
  it("AgentOS runs both targets of routerNode(\"''\"), and the import reads a fan-out", async () => {
    const graph = routerGraph("''");
    const { started } = await runInAgentOs(graph, () => ({}));
    expect(started).toEqual(["a", "notify", "refund"]);
    const { workflow: imported, warnings } = importAgentOs(graph);
    // a's tool loop, read back into it: the router's reading is what is asked here
    const workflow = unfoldToolLoops(imported).wf;
    expect(imported.nodes.map((n) => n.id).slice(0, 3)).toEqual(["a", "a.tools", "a.tool"]);
    expect(workflow.nodes[1]).toStrictEqual({
      id: "r",
      type: "tool",
      config: { usesTool: "tool:agentos.router@1.0.0", params: { expr: "''" } },
    });
    expect(workflow.edges).toEqual([
      { from: "a", to: "r", edgeType: "data" },
      { from: "r", to: "notify", edgeType: "data" },
      { from: "r", to: "refund", edgeType: "data" },
    ]);
    // a's tool loop is a loop
    expect(workflow.autonomyLevel).toBe(2);
    const declared = warnings.filter((w) => w.path.startsWith("/nodes/1/"));
    expect(declared.map((w) => [w.code, w.path, w.data])).toEqual([
      [
        "HEURISTIC",
        "/nodes/1/executorConfig/condition",
        { nodeId: "r", conditionType: "expression" },
      ],
      ["FIELD_DROPPED", "/nodes/1/effectClass", { nodeId: "r", key: "effectClass" }],
      [
        "HEURISTIC",
        "/nodes/1/type",
        { nodeId: "r", assumed: "tool:agentos.router@1.0.0", targets: ["notify", "refund"] },
      ],
    ]);
    expect(declared[0]?.message).toBe(
      `router 'r': its expression condition "''" names no node, so AgentOS follows every static out-edge, and each conditional out-edge whose expression holds`,
    );
    // written back as the same router, which imports the same
    const back = exportAgentOs(imported).document;
    expect(importAgentOs(asJson(back)).workflow).toStrictEqual(imported);
  });

  it("a router reading state picks one target, or runs both when it reads an empty value: declared", async () => {
    const graph = routerGraph("input.q");
    expect((await runInAgentOs(graph, () => ({}), { q: "refund" })).started).toEqual([
      "a",
      "refund",
    ]);
    const { started } = await runInAgentOs(graph, () => ({}), { q: "" });
    expect(started).toEqual(["a", "notify", "refund"]);
    const { workflow, warnings } = importAgentOs(graph);
    expect(workflow.nodes[1]?.type).toBe("decision");
    expect(workflow.autonomyLevel).toBe(3);
    expect(warnings.find((w) => w.path === "/nodes/1/executorConfig/condition")?.message).toBe(
      "router 'r': its expression condition returns a node id from AgentOS state; AgentOS runs that node and skips only the router's other targets, not the nodes after them, which still run; when it returns an empty value, AgentOS follows every static out-edge at once (and each conditional one whose expression holds), which these routes do not show. Its routes become text conditions, never simulable",
    );
  });

  it("refuses a router that names no node with static and conditional out-edges", () => {
    const graph = routerGraph("''");
    const edges = graph.edges as Edge[];
    const index = edges.findIndex((e) => e.source === "r" && e.target === "refund");
    const refund = edges[index];
    if (refund === undefined) throw new Error("no edge r -> refund");
    edges[index] = {
      ...refund,
      type: "conditional",
      condition: { type: "expression", expr: "true" },
    };
    let caught: unknown;
    try {
      importAgentOs(graph);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect((caught as ImportError).path).toBe(`/edges/${String(index)}`);
    expect((caught as ImportError).elementId).toBe("r");
  });
});
