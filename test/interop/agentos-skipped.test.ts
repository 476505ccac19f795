/**
 * What AgentOS runs after a choice, read by the import (`src/interop/agentos/skipped.ts`). AgentOS
 * 0.9.164 runs a node once every predecessor is done or skipped, and a choice skips only the
 * targets it does not pick: the nodes after them still run. Each case is run in AgentOS's own
 * `GraphRuntime` (its `NodeExecutor` for routers and personality edges), and each route of the
 * imported decision must reach exactly the nodes AgentOS runs after the choice.
 */
import type { CompiledExecutionGraph } from "@framers/agentos/orchestration";
import {
  AgentGraph,
  humanNode,
  routerNode,
  toolNode,
} from "@framers/agentos/orchestration/builders/index";
import { END, START } from "@framers/agentos/orchestration/ir/index";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { importAgentOs } from "../../src/interop/agentos/index.js";
import type { AgentWorkflow, FlowGraph } from "../../src/model/index.js";
import { minCoherentLevel } from "../../src/autonomy/index.js";
import { decisionRoutes, flowGraph, neighbours } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import { startedInAgentOs } from "./agentos-run.js";

type Obj = Record<string, unknown>;

/** The nodes AgentOS starts after `choice` has started, as a sorted set. */
async function runsAfter(
  graph: CompiledExecutionGraph,
  choice: string,
  input: Obj,
  scratch: Obj,
): Promise<string[]> {
  const { started } = await startedInAgentOs(
    graph,
    () => ({ output: {}, scratchUpdate: scratch }),
    input,
  );
  return started.slice(started.indexOf(choice) + 1).sort();
}

/** The nodes `start` reaches in the flow, itself included, never entering `blocked`. */
function reach(graph: FlowGraph, start: number, blocked = -1): Set<number> {
  const seen = new Set([start]);
  // A for-of reads what is pushed while it runs: the queue of a breadth-first search.
  const queue = [start];
  for (const u of queue) {
    for (const v of neighbours(graph.successors, u)) {
      if (v === blocked || seen.has(v)) continue;
      seen.add(v);
      queue.push(v);
    }
  }
  return seen;
}

/** The source nodes a route reaches in the imported flow (inserted steps left out), sorted. */
function reached(wf: AgentWorkflow, next: string, source: readonly string[]): string[] {
  const graph = flowGraph(wf);
  const start = graph.index.get(next);
  if (start === undefined) return [];
  return [...reach(graph, start)]
    .map((v) => wf.nodes[v]?.id ?? "")
    .filter((id) => source.includes(id))
    .sort();
}

const tool = (id: string): Obj => ({
  id,
  type: "tool",
  executorConfig: { type: "tool", toolName: id },
});
/** A router that routes to the node `input.pick` names. */
const router = (id: string): Obj => ({
  id,
  type: "router",
  executorConfig: { type: "router", condition: { type: "expression", expr: "input.pick" } },
});

/**
 * A graph from `__START__` to the first node, with static edges `[source, target]`; `reducers`
 * as AgentOS writes it (its state manager reads it on every scratch update).
 */
function graph(nodes: readonly Obj[], edges: readonly (readonly [string, string])[]): Obj {
  const first = String(nodes[0]?.id);
  return {
    id: "g",
    name: "g",
    reducers: {},
    nodes,
    edges: [[START, first], ...edges].map(([source, target], k) => ({
      id: `e${String(k)}`,
      source,
      target,
      type: "static",
    })),
  };
}

/** The payout graph of the defect, as AgentOS's builders write it. */
function payout(): Obj {
  const state = {
    input: z.object({ claim: z.string() }),
    scratch: z.object({ approved: z.boolean().optional() }),
    artifacts: z.object({ receipt: z.string() }),
  };
  const built = new AgentGraph(state)
    .addNode("assess", toolNode("score_claim"))
    .addNode("triage", routerNode("scratch.approved === true ? 'review' : 'reject'"))
    .addNode("review", humanNode({ prompt: "Approve the payout?" }))
    .addNode("payout", toolNode("wire_money"))
    .addNode("reject", toolNode("send_rejection"))
    .addEdge(START, "assess")
    .addEdge("assess", "triage")
    .addEdge("triage", "review")
    .addEdge("triage", "reject")
    .addEdge("review", "payout")
    .addEdge("payout", END)
    .addEdge("reject", END)
    .compile();
  return JSON.parse(JSON.stringify(built.toIR())) as Obj;
}

/** Personality edges of `n`: `above` when the trait is at least 0.5, else `below`. */
function personality(above: string, below: string): Obj[] {
  const personalityCondition = { trait: "warmth", threshold: 0.5, above, below };
  return [above, below].map((target, k) => ({
    id: `p${String(k)}`,
    source: "n",
    target,
    type: "personality",
    personalityCondition,
  }));
}

interface Route {
  /** The route's `next` after the import. */
  readonly next: string;
  /** The run input and the scratch update that make AgentOS take it. */
  readonly input: Obj;
  readonly scratch?: Obj;
}

interface Case {
  readonly name: string;
  readonly doc: Obj;
  /** The source node whose out-edges the choice picks among (its warning's node). */
  readonly choice: string;
  readonly at: string;
  readonly decision: string;
  readonly routes: Readonly<Record<string, Route>>;
  /** Each inserted step and the nodes it leads to. */
  readonly steps: Readonly<Record<string, readonly string[]>>;
  /** The warning's `runs`: the nodes after a skipped target. */
  readonly runs: readonly string[];
}

const withPersonality = graph([tool("n"), tool("up"), tool("down"), tool("z")], [["up", "z"]]);
(withPersonality.edges as Obj[]).push(...personality("up", "down"));

const CASES: readonly Case[] = [
  {
    name: "the payout graph: the route to reject runs payout, without review",
    doc: payout(),
    choice: "triage",
    at: "/nodes/1",
    decision: "triage",
    routes: {
      "cases/0": { next: "review", input: { claim: "c" }, scratch: { approved: true } },
      otherwise: { next: "triage.reject", input: { claim: "c" }, scratch: { approved: false } },
    },
    steps: { "triage.reject": ["payout", "reject"] },
    runs: ["payout"],
  },
  {
    name: "every predecessor skipped: d runs when c is picked",
    doc: graph(
      [router("r"), tool("a"), tool("b"), tool("c"), tool("d")],
      [
        ["r", "a"],
        ["r", "b"],
        ["r", "c"],
        ["a", "d"],
        ["b", "d"],
      ],
    ),
    choice: "r",
    at: "/nodes/0",
    decision: "r",
    routes: {
      "cases/0": { next: "a", input: { pick: "a" } },
      "cases/1": { next: "b", input: { pick: "b" } },
      otherwise: { next: "r.c", input: { pick: "c" } },
    },
    steps: { "r.c": ["c", "d"] },
    runs: ["d"],
  },
  {
    name: "a chain after a skipped target runs on: x, then y",
    doc: graph(
      [router("r"), tool("a"), tool("x"), tool("y"), tool("b")],
      [
        ["r", "a"],
        ["r", "b"],
        ["a", "x"],
        ["x", "y"],
      ],
    ),
    choice: "r",
    at: "/nodes/0",
    decision: "r",
    routes: {
      "cases/0": { next: "a", input: { pick: "a" } },
      otherwise: { next: "r.b", input: { pick: "b" } },
    },
    steps: { "r.b": ["x", "b"] },
    runs: ["x"],
  },
  {
    name: "no duplicate: c, which b reaches, is left to b; d is not",
    doc: graph(
      [router("r"), tool("a"), tool("b"), tool("c"), tool("d")],
      [
        ["r", "a"],
        ["r", "b"],
        ["a", "c"],
        ["a", "d"],
        ["b", "c"],
      ],
    ),
    choice: "r",
    at: "/nodes/0",
    decision: "r",
    routes: {
      "cases/0": { next: "a", input: { pick: "a" } },
      otherwise: { next: "r.b", input: { pick: "b" } },
    },
    steps: { "r.b": ["b", "d"] },
    runs: ["d"],
  },
  {
    name: "a route to __END__ still runs what follows the target it skips",
    doc: graph(
      [router("r"), tool("a"), tool("p")],
      [
        ["r", "a"],
        ["r", END],
        ["a", "p"],
      ],
    ),
    choice: "r",
    at: "/nodes/0",
    decision: "r",
    routes: {
      "cases/0": { next: "a", input: { pick: "a" } },
      otherwise: { next: "r.end", input: { pick: END } },
    },
    steps: { "r.end": ["p"] },
    runs: ["p"],
  },
  {
    name: "personality edges skip alike: below still runs z, after the skipped above",
    doc: withPersonality,
    choice: "n",
    at: "/nodes/0",
    decision: "n.personality",
    routes: {
      onTrue: { next: "up", input: {}, scratch: { _personaTraits: { warmth: 0.9 } } },
      onFalse: {
        next: "n.personality.down",
        input: {},
        scratch: { _personaTraits: { warmth: 0.1 } },
      },
    },
    steps: { "n.personality.down": ["down", "z"] },
    runs: ["z"],
  },
];

describe("importAgentOs: routes lead on past the targets AgentOS skips", () => {
  it.each(CASES)("$name: exact routes, steps and warning", (c) => {
    const { workflow, warnings } = importAgentOs(c.doc);
    const decision = workflow.nodes.find((n) => n.id === c.decision);
    if (decision?.type !== "decision") throw new Error(`no decision ${c.decision}`);
    const routes = Object.fromEntries(
      decisionRoutes(decision.config).map((r) => [r.label, r.next]),
    );
    expect(routes).toEqual(
      Object.fromEntries(Object.entries(c.routes).map(([k, r]) => [k, r.next])),
    );
    for (const [id, members] of Object.entries(c.steps)) {
      expect(workflow.nodes.find((n) => n.id === id)).toEqual({
        id,
        type: "tool",
        config: { usesTool: "tool:agentos.router@1.0.0", params: { expr: "''" } },
      });
      expect(workflow.edges.filter((e) => e.from === id).map((e) => e.to)).toEqual(members);
    }
    const declared = warnings.filter((w) => w.path === c.at);
    expect(declared.map((w) => [w.code, w.data?.nodeId, w.data?.decisionId, w.data?.runs])).toEqual(
      [["HEURISTIC", c.choice, c.decision, c.runs]],
    );
  });

  it.each(CASES)("$name: each route reaches what AgentOS runs", async (c) => {
    const { workflow } = importAgentOs(c.doc);
    const source = (c.doc.nodes as Obj[]).map((n) => String(n.id));
    const doc = c.doc as unknown as CompiledExecutionGraph;
    for (const route of Object.values(c.routes)) {
      const ran = await runsAfter(doc, c.choice, route.input, route.scratch ?? {});
      expect([route.next, ran]).toEqual([route.next, reached(workflow, route.next, source)]);
    }
  });
});

describe("importAgentOs: the payout graph", () => {
  const { workflow, warnings } = importAgentOs(payout());

  it("simulates the route to reject running payout", () => {
    const state = simulate(workflow, { decide: { triage: ["otherwise"] } });
    expect(state.visitedNodes).toEqual(["assess", "triage", "triage.reject", "payout"]);
  });

  it("reads no path on which review guards payout, at the same level, every tool reachable", () => {
    const graph = flowGraph(workflow);
    const review = graph.index.get("review");
    const entry = graph.entry ?? 0;
    const seen = reach(graph, entry, review);
    expect(seen.has(graph.index.get("payout") ?? -1)).toBe(true);
    expect([workflow.autonomyLevel, minCoherentLevel(workflow)]).toEqual([3, 3]);
    const tools = workflow.nodes.filter((n) => n.type === "tool").map((n) => n.id);
    expect(tools.every((id) => graph.reachable[graph.index.get(id) ?? -1] === 1)).toBe(true);
  });

  it("words the router as AgentOS runs it", () => {
    const condition = warnings.find((w) => w.path === "/nodes/1/executorConfig/condition");
    expect(condition?.message).toContain(
      "AgentOS runs that node and skips only the router's other targets, not the nodes after them",
    );
    expect(warnings.find((w) => w.path === "/nodes/1")?.message).toBe(
      "router 'triage' runs the target it picks and skips only its other targets; AgentOS runs a node once each predecessor is done or skipped, so the nodes after a skipped target still run, and these run whichever way it routes: 'payout'. So its route to 'reject' leads to the inserted step 'triage.reject', which leads to 'payout', 'reject'",
    );
  });
});

/** The `next` of each route of decision `id`. */
function routesOf(wf: AgentWorkflow, id: string): string[] {
  const node = wf.nodes.find((n) => n.id === id);
  return node?.type === "decision" ? decisionRoutes(node.config).map((r) => r.next) : [];
}

/** `s → r`, the router `r` between `a` and `b`, and `extra` edges. */
function beside(extra: readonly (readonly [string, string])[]): Obj {
  const edges: [string, string][] = [
    ["s", "r"],
    ["r", "a"],
    ["r", "b"],
  ];
  return graph([tool("s"), router("r"), tool("a"), tool("b"), tool("c")], [...edges, ...extra]);
}

describe("importAgentOs: choices AgentOS never makes are left as read", () => {
  it("a router on a cycle, which AgentOS never starts; off the cycle it leads on", async () => {
    const cyclic = beside([
      ["b", "c"],
      ["a", "s"],
    ]);
    const ran = await runsAfter(
      cyclic as unknown as CompiledExecutionGraph,
      "-",
      { pick: "a" },
      {},
    );
    expect(ran).toEqual([]);
    const { workflow, warnings } = importAgentOs(cyclic);
    expect(routesOf(workflow, "r")).toEqual(["a", "b"]);
    expect(warnings.filter((w) => w.path === "/nodes/1")).toEqual([]);
    // the same router without the edge back: the route to a runs c, after the skipped b
    expect(routesOf(importAgentOs(beside([["b", "c"]])).workflow, "r")).toEqual(["r.a", "b"]);
  });

  it("a graph with a __CONDITIONAL__ edge, of which AgentOS runs no node", async () => {
    const wild = beside([["a", "c"]]);
    const placeholder = { type: "conditional", condition: { type: "function" } };
    (wild.edges as Obj[]).push({
      id: "c1",
      source: "b",
      target: "__CONDITIONAL__",
      ...placeholder,
    });
    const ran = await runsAfter(wild as unknown as CompiledExecutionGraph, "-", { pick: "b" }, {});
    expect(ran).toEqual([]);
    expect(routesOf(importAgentOs(wild).workflow, "r")).toEqual(["a", "b"]);
    // without it: the route to b runs c, after the skipped a
    expect(routesOf(importAgentOs(beside([["a", "c"]])).workflow, "r")).toEqual(["a", "r.b"]);
  });
});

describe("importAgentOs: a wide router whose targets each lead on", () => {
  it("shares one step for the nodes after its targets past 100,000 route-node pairs", () => {
    const n = 400;
    const targets = Array.from({ length: n }, (_, i) => `t${String(i)}`);
    const doc = graph(
      [router("r"), ...targets.flatMap((t) => [tool(t), tool(`${t}-next`)])],
      targets.flatMap<[string, string]>((t) => [
        ["r", t],
        [t, `${t}-next`],
      ]),
    );
    const { workflow } = importAgentOs(doc);
    const to = (from: string): string[] =>
      workflow.edges.filter((e) => e.from === from).map((e) => e.to);
    expect(to("r.skipped")).toEqual(targets.map((t) => `${t}-next`));
    expect(routesOf(workflow, "r").slice(0, 2)).toEqual(["r.t0", "r.t1"]);
    expect([to("r.t0"), to("r.t399")]).toEqual([
      ["t0", "r.skipped"],
      ["t399", "r.skipped"],
    ]);
    // one step per route and the shared one: linear in the routes
    expect(workflow.nodes).toHaveLength(3 * n + 2);
  });
});
