/**
 * A node that is a target of two choices AgentOS makes (`src/interop/agentos/waits.ts`,
 * `sharedTargets`). AgentOS 0.9.164 marks skipped every target a choice does not pick and never
 * runs a node so marked, so such a node runs only when every one of those choices picks it;
 * agentflow runs it when any does (two decisions each routing to it), and cannot say "only if
 * both". The runtime behaviour is run in AgentOS's own `GraphRuntime` (its `NodeExecutor` for the
 * routers); the import declares each such node.
 */
import { describe, expect, it } from "vitest";
import { importAgentOs } from "../../src/interop/agentos/index.js";
import { startedInAgentOs } from "./agentos-run.js";

type Obj = Record<string, unknown>;

/** Every node AgentOS starts in a run, as a sorted set. */
async function runInAgentOs(doc: Obj, input: Obj): Promise<string[]> {
  const run = await startedInAgentOs(doc, () => ({ output: {} }), input);
  return [...new Set(run.started)].sort();
}

const tool = (id: string): Obj => ({
  id,
  type: "tool",
  executorConfig: { type: "tool", toolName: id },
});
/** A router that routes to the node `input.<key>` names. */
const router = (id: string, key: string): Obj => ({
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
    nodes,
    edges: [["__START__", first], ...edges].map(([source, target], k) => ({
      id: `e${String(k)}`,
      source,
      target,
      type: "static",
    })),
  };
}

/** `s` before two routers, `r1` routing to `x` or `a`, `r2` to `x` or `b`. */
const TWO_ROUTERS = graph(
  [tool("s"), router("r1", "one"), router("r2", "two"), tool("x"), tool("a"), tool("b")],
  [
    ["s", "r1"],
    ["s", "r2"],
    ["r1", "x"],
    ["r1", "a"],
    ["r2", "x"],
    ["r2", "b"],
  ],
);

describe("AgentOS runs a target of two choices only when both pick it", () => {
  it.each([
    { one: "x", two: "b", runs: ["b", "r1", "r2", "s"] },
    { one: "a", two: "x", runs: ["a", "r1", "r2", "s"] },
    { one: "x", two: "x", runs: ["r1", "r2", "s", "x"] },
  ])("r1 picks $one, r2 picks $two", async ({ one, two, runs }) => {
    expect(await runInAgentOs(TWO_ROUTERS, { one, two })).toEqual(runs);
  });
});

/** `r1` routing to `x` or `a`, and `n`'s personality edges: `x` above warmth 0.5, else `y`. */
function personalityAndRouter(): Obj {
  const doc = graph(
    [tool("s"), router("r1", "one"), tool("n"), tool("x"), tool("a"), tool("y")],
    [
      ["s", "r1"],
      ["s", "n"],
      ["r1", "x"],
      ["r1", "a"],
    ],
  );
  const personalityCondition = { trait: "warmth", threshold: 0.5, above: "x", below: "y" };
  (doc.edges as Obj[]).push(
    ...["x", "y"].map((target, k) => ({
      id: `p${String(k)}`,
      source: "n",
      target,
      type: "personality",
      personalityCondition,
    })),
  );
  return doc;
}

interface Row {
  readonly name: string;
  readonly doc: Obj;
  /** The declarations: path and data. */
  readonly declared: readonly (readonly [string, Obj])[];
}

const ROWS: readonly Row[] = [
  {
    name: "a node two routers target: declared at it, with both",
    doc: TWO_ROUTERS,
    declared: [["/nodes/3", { nodeId: "x", choices: ["r1", "r2"] }]],
  },
  {
    name: "a node three routers target, the third after it in source order",
    doc: graph(
      [
        tool("s"),
        router("r1", "one"),
        router("r2", "two"),
        tool("x"),
        router("r3", "three"),
        tool("a"),
      ],
      [
        ["s", "r1"],
        ["s", "r2"],
        ["s", "r3"],
        ["r1", "x"],
        ["r1", "a"],
        ["r2", "x"],
        ["r2", "a"],
        ["r3", "x"],
        ["r3", "__END__"],
      ],
    ),
    declared: [
      ["/nodes/3", { nodeId: "x", choices: ["r1", "r2", "r3"] }],
      ["/nodes/5", { nodeId: "a", choices: ["r1", "r2"] }],
    ],
  },
  {
    name: "a router and a personality choice: the decision ids of both",
    doc: personalityAndRouter(),
    declared: [["/nodes/3", { nodeId: "x", choices: ["r1", "n.personality"] }]],
  },
  {
    name: "a node one router targets: not declared",
    doc: graph(
      [tool("s"), router("r1", "one"), tool("x"), tool("a")],
      [
        ["s", "r1"],
        ["r1", "x"],
        ["r1", "a"],
      ],
    ),
    declared: [],
  },
  {
    name: "a node two routers on a cycle target: not declared (AgentOS makes neither choice)",
    doc: graph(
      [tool("s"), router("r1", "one"), router("r2", "two"), tool("x"), tool("a")],
      [
        ["s", "r1"],
        ["r1", "r2"],
        ["r1", "x"],
        ["r2", "r1"],
        ["r2", "x"],
        ["r1", "a"],
      ],
    ),
    declared: [],
  },
];

describe("importAgentOs: a target of two choices is declared", () => {
  it.each(ROWS)("$name", ({ doc, declared }) => {
    const { warnings } = importAgentOs(doc);
    const found = warnings.filter((w) => w.data?.choices !== undefined);
    expect(found.map((w) => [w.path, w.data])).toEqual(declared);
    expect(found.every((w) => w.code === "HEURISTIC")).toBe(true);
  });

  it("words it: AgentOS runs it only when every choice picks it", () => {
    const { warnings } = importAgentOs(TWO_ROUTERS);
    expect(warnings.filter((w) => w.path === "/nodes/3").map((w) => w.message)).toEqual([
      "'x' is a target of router 'r1', router 'r2': AgentOS runs it only when every one of these choices that it makes picks it (each marks it skipped when it picks another target, and never runs a node so marked), while the workflow runs it when any of them does",
    ]);
  });
});
