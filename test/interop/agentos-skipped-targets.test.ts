/**
 * A target a choice does not pick never runs (`src/interop/agentos/waits.ts`). AgentOS 0.9.164
 * marks skipped every target a router (or a personality edge) does not pick and never runs a node
 * so marked, even once its other predecessors are done: so an edge into a target from another
 * node only makes it wait, and the import reads it as none, declared with the choice. Each case
 * is run in AgentOS's own `GraphRuntime` (its `NodeExecutor` for the routers and personality
 * edges), and each route of the import must reach from the entry exactly the nodes AgentOS runs
 * for that choice; agentflow's simulation of the route visits none that AgentOS does not run.
 */
import { describe, expect, it } from "vitest";
import { importAgentOs } from "../../src/interop/agentos/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { decisionRoutes, flowGraph, neighbours } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import { startedInAgentOs } from "./agentos-run.js";

type Obj = Record<string, unknown>;

/** Every node AgentOS starts in a run, as a sorted set. */
async function runInAgentOs(doc: Obj, input: Obj, scratch: Obj): Promise<string[]> {
  const run = await startedInAgentOs(doc, () => ({ output: {}, scratchUpdate: scratch }), input);
  return [...new Set(run.started)].sort();
}

/**
 * The source nodes agentflow reaches from the entry when each decision of `decide` takes only
 * the route of that label (every other node follows all its edges), as a sorted set.
 */
function reached(wf: AgentWorkflow, decide: Readonly<Record<string, string>>): string[] {
  const graph = flowGraph(wf);
  const entry = graph.entry ?? 0;
  const seen = new Set([entry]);
  // A for-of reads what is pushed while it runs: the queue of a breadth-first search.
  const queue = [entry];
  for (const u of queue) {
    const node = wf.nodes[u];
    const label = node === undefined ? undefined : decide[node.id];
    const next =
      node?.type === "decision" && label !== undefined
        ? decisionRoutes(node.config)
            .filter((r) => r.label === label)
            .map((r) => graph.index.get(r.next) ?? -1)
        : neighbours(graph.successors, u);
    for (const v of next) {
      if (v < 0 || seen.has(v)) continue;
      seen.add(v);
      queue.push(v);
    }
  }
  return [...seen].map((v) => wf.nodes[v]?.id ?? "").sort();
}

const tool = (id: string): Obj => ({
  id,
  type: "tool",
  executorConfig: { type: "tool", toolName: id },
});
/** A person's approval. */
const human = (id: string): Obj => ({
  id,
  type: "human",
  executorConfig: { type: "human", prompt: "Approve the payout?" },
});
/** A router that routes to the node `input.<key>` names. */
const router = (id: string, key = "pick"): Obj => ({
  id,
  type: "router",
  executorConfig: { type: "router", condition: { type: "expression", expr: `input.${key}` } },
});

/** A graph from `__START__` to the first node, with static edges `[source, target]`. */
function graph(nodes: readonly Obj[], edges: readonly (readonly [string, string])[]): Obj {
  const first = String(nodes[0]?.id);
  return {
    id: "g",
    name: "g",
    reducers: {},
    nodes,
    edges: [["__START__", first], ...edges].map(([source, target], k) => ({
      id: `e${String(k)}`,
      source,
      target,
      type: "static",
    })),
  };
}

/** `n`'s personality edges: `up` when warmth is at least 0.5, else `down`; `down → up`. */
function personality(): Obj {
  const doc = graph(
    [tool("n"), tool("up"), tool("down"), tool("z")],
    [
      ["down", "up"],
      ["up", "z"],
    ],
  );
  const personalityCondition = { trait: "warmth", threshold: 0.5, above: "up", below: "down" };
  (doc.edges as Obj[]).push(
    ...["up", "down"].map((target, k) => ({
      id: `p${String(k)}`,
      source: "n",
      target,
      type: "personality",
      personalityCondition,
    })),
  );
  return doc;
}

interface Run {
  /** The route label each decision takes, and the run input and scratch that make AgentOS. */
  readonly decide: Readonly<Record<string, string>>;
  readonly input: Obj;
  readonly scratch?: Obj;
  /** What AgentOS runs, sorted. */
  readonly runs: readonly string[];
  /** The source nodes agentflow's simulation of those routes moves through, in order. */
  readonly simulated: readonly string[];
}

interface Row {
  readonly name: string;
  readonly doc: Obj;
  /** The warning's path (the choosing node) and its `data.waits`. */
  readonly at: string;
  readonly waits: readonly (readonly [string, string])[];
  readonly runs: readonly Run[];
}

const ROWS: readonly Row[] = [
  {
    name: "a → review between the targets: on the route to a, the payout runs without the review",
    doc: graph(
      [tool("s"), router("r"), tool("a"), human("review"), tool("payout")],
      [
        ["s", "r"],
        ["r", "a"],
        ["r", "review"],
        ["a", "review"],
        ["review", "payout"],
      ],
    ),
    at: "/nodes/1",
    waits: [["a", "review"]],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "a" },
        runs: ["a", "payout", "r", "s"],
        simulated: ["s", "r", "a"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "review" },
        runs: ["payout", "r", "review", "s"],
        simulated: ["s", "r", "review", "payout"],
      },
    ],
  },
  {
    name: "a chain from one target to the other: m runs, the other target does not",
    doc: graph(
      [tool("s"), router("r"), tool("a"), tool("m"), human("b"), tool("payout")],
      [
        ["s", "r"],
        ["r", "a"],
        ["r", "b"],
        ["a", "m"],
        ["m", "b"],
        ["b", "payout"],
      ],
    ),
    at: "/nodes/1",
    waits: [["m", "b"]],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "a" },
        runs: ["a", "m", "payout", "r", "s"],
        simulated: ["s", "r", "a", "m"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "b" },
        runs: ["b", "m", "payout", "r", "s"],
        simulated: ["s", "r", "m"],
      },
    ],
  },
  {
    name: "a branch joining into a target: x runs, the target it leads to does not",
    doc: graph(
      [tool("s"), router("r"), tool("x"), tool("a"), human("b"), tool("payout")],
      [
        ["s", "r"],
        ["s", "x"],
        ["r", "a"],
        ["r", "b"],
        ["x", "b"],
        ["b", "payout"],
      ],
    ),
    at: "/nodes/1",
    waits: [["x", "b"]],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "a" },
        runs: ["a", "payout", "r", "s", "x"],
        simulated: ["s", "r", "a"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "b" },
        runs: ["b", "payout", "r", "s", "x"],
        simulated: ["s", "r", "b", "payout"],
      },
    ],
  },
  {
    name: "the node before the router leads to a target",
    doc: graph(
      [tool("s"), router("r"), tool("a"), human("b"), tool("payout")],
      [
        ["s", "r"],
        ["s", "b"],
        ["r", "a"],
        ["r", "b"],
        ["b", "payout"],
      ],
    ),
    at: "/nodes/1",
    waits: [["s", "b"]],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "a" },
        runs: ["a", "payout", "r", "s"],
        simulated: ["s", "r", "a"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "b" },
        runs: ["b", "payout", "r", "s"],
        simulated: ["s", "r", "b", "payout"],
      },
    ],
  },
  {
    name: "a route to __END__ skips the target the node before leads to",
    doc: graph(
      [tool("s"), router("r"), human("t"), tool("payout")],
      [
        ["s", "r"],
        ["s", "t"],
        ["r", "t"],
        ["r", "__END__"],
        ["t", "payout"],
      ],
    ),
    at: "/nodes/1",
    waits: [["s", "t"]],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "t" },
        runs: ["payout", "r", "s", "t"],
        simulated: ["s", "r", "t", "payout"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "__END__" },
        runs: ["payout", "r", "s"],
        simulated: ["s", "r", "payout"],
      },
    ],
  },
  {
    name: "personality edges alike: below's node leads to above, which it skips",
    doc: personality(),
    at: "/nodes/0",
    waits: [["down", "up"]],
    runs: [
      {
        decide: { "n.personality": "onTrue" },
        input: {},
        scratch: { _personaTraits: { warmth: 0.9 } },
        runs: ["n", "up", "z"],
        simulated: ["n", "up", "z"],
      },
      {
        decide: { "n.personality": "onFalse" },
        input: {},
        scratch: { _personaTraits: { warmth: 0.1 } },
        runs: ["down", "n", "z"],
        simulated: ["n", "down"],
      },
    ],
  },
  {
    name: "a router picked past: c → b carries a run (r is skipped then), a → b does not",
    doc: graph(
      [router("r0", "first"), router("r", "second"), tool("c"), tool("a"), tool("b")],
      [
        ["r0", "r"],
        ["r0", "c"],
        ["r", "a"],
        ["r", "b"],
        ["c", "b"],
        ["a", "b"],
      ],
    ),
    at: "/nodes/1",
    waits: [["a", "b"]],
    runs: [
      {
        decide: { r0: "cases/0", r: "cases/0" },
        input: { first: "r", second: "a" },
        runs: ["a", "r", "r0"],
        simulated: ["r0", "r", "a"],
      },
      {
        decide: { r0: "cases/0", r: "otherwise" },
        input: { first: "r", second: "b" },
        runs: ["b", "r", "r0"],
        simulated: ["r0", "r", "b"],
      },
      {
        decide: { r0: "otherwise" },
        input: { first: "c", second: "a" },
        runs: ["a", "b", "c", "r0"],
        simulated: ["r0", "c", "b"],
      },
    ],
  },
  {
    name: "targets with no edge between them: imported as before",
    doc: graph(
      [tool("s"), router("r"), tool("a"), tool("b"), tool("z")],
      [
        ["s", "r"],
        ["r", "a"],
        ["r", "b"],
        ["a", "z"],
        ["b", "z"],
      ],
    ),
    at: "/nodes/1",
    waits: [],
    runs: [
      {
        decide: { r: "cases/0" },
        input: { pick: "a" },
        runs: ["a", "r", "s", "z"],
        simulated: ["s", "r", "a", "z"],
      },
      {
        decide: { r: "otherwise" },
        input: { pick: "b" },
        runs: ["b", "r", "s", "z"],
        simulated: ["s", "r", "b", "z"],
      },
    ],
  },
];

/** The source node ids of a graph. */
const sourceIds = (doc: Obj): Set<string> => new Set((doc.nodes as Obj[]).map((n) => String(n.id)));

describe("importAgentOs: a target the choice does not pick never runs", () => {
  it.each(ROWS)("$name: AgentOS's runs, and the routes reach them", async (row) => {
    const { workflow } = importAgentOs(row.doc);
    const source = sourceIds(row.doc);
    for (const run of row.runs) {
      const ran = await runInAgentOs(row.doc, run.input, run.scratch ?? {});
      const reach = reached(workflow, run.decide).filter((id) => source.has(id));
      expect([run.decide, ran, reach]).toEqual([run.decide, run.runs, run.runs]);
    }
  });

  it.each(ROWS)("$name: the simulation visits only nodes AgentOS runs", (row) => {
    const { workflow } = importAgentOs(row.doc);
    const source = sourceIds(row.doc);
    for (const run of row.runs) {
      const decide = Object.fromEntries(Object.entries(run.decide).map(([d, r]) => [d, [r]]));
      const moved = simulate(workflow, { decide }).visitedNodes.filter((id) => source.has(id));
      expect([run.decide, moved]).toEqual([run.decide, run.simulated]);
      expect(moved.filter((id) => !run.runs.includes(id))).toEqual([]);
    }
  });

  it.each(ROWS)("$name: the edges only making a target wait are declared and gone", (row) => {
    const { workflow, warnings } = importAgentOs(row.doc);
    const declared = warnings.filter((w) => w.path === row.at && w.data?.waits !== undefined);
    const waits = declared.flatMap((w) => w.data?.waits as { from: string; to: string }[]);
    expect(waits.map((w) => [w.from, w.to])).toEqual(row.waits);
    expect(declared.every((w) => w.code === "HEURISTIC")).toBe(true);
    const edges = new Set(workflow.edges.map((e) => `${e.from} -> ${e.to}`));
    expect(row.waits.filter(([from, to]) => edges.has(`${from} -> ${to}`))).toEqual([]);
  });
});

describe("importAgentOs: the review the route to a never runs", () => {
  const row = ROWS[0];
  if (row === undefined) throw new Error("no row 0");
  const { workflow, warnings } = importAgentOs(row.doc);

  it("leads the route to a on to the payout, with no path through the review", () => {
    expect(workflow.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual([
      "s -> r",
      "r -> a",
      "r -> review",
      "r -> r.a",
      "review -> payout",
      "r.a -> a",
      "r.a -> payout",
    ]);
    expect(reached(workflow, { r: "cases/0" })).toEqual(["a", "payout", "r", "r.a", "s"]);
  });

  it("declares it with the router: the route, what it leads to, and the edge read as none", () => {
    const declared = warnings.filter((w) => w.path === "/nodes/1" && w.code === "HEURISTIC");
    expect(declared.map((w) => [w.message, w.data])).toEqual([
      [
        "router 'r' runs the target it picks and skips only its other targets; AgentOS runs a node once each predecessor is done or skipped, so the nodes after a skipped target still run, and these run whichever way it routes: 'payout'. So its route to 'a' leads to the inserted step 'r.a', which leads to 'a', 'payout'. AgentOS never runs a target it skips, even once the target's other predecessors are done, so these edges into its targets only make a target wait, and are read as none: 'a' -> 'review'",
        {
          nodeId: "r",
          decisionId: "r",
          runs: ["payout"],
          routes: [{ target: "a", next: "r.a", leadsTo: ["a", "payout"] }],
          waits: [{ from: "a", to: "review" }],
        },
      ],
    ]);
  });

  it("words a choice that leads no route on but reads an edge as none", () => {
    const { warnings: only } = importAgentOs(
      graph(
        [tool("s"), router("r"), tool("a"), tool("b")],
        [
          ["s", "r"],
          ["r", "a"],
          ["r", "b"],
          ["a", "b"],
        ],
      ),
    );
    expect(only.filter((w) => w.path === "/nodes/1").map((w) => w.message)).toEqual([
      "router 'r' runs the target it picks and skips only its other targets; AgentOS never runs a target it skips, even once the target's other predecessors are done, so these edges into its targets only make a target wait, and are read as none: 'a' -> 'b'",
    ]);
  });
});
