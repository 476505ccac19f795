import { describe, expect, it } from "vitest";
import {
  buildFlowGraph,
  canReachItself,
  flowGraph,
  forwardDataflow,
  isForwardRoute,
  upstreamOf,
} from "../../../src/model/graph/flow-graph.js";
import { adjacencyToLists, neighbours } from "../../../src/model/graph/adjacency.js";
import type { AgentEdge, AgentNode, AgentWorkflow, EdgeType } from "../../../src/model/types.js";

const LLM = { model: "gpt-4o", promptRef: "prm:p@1.0.0" };
const llm = (id: string): AgentNode => ({ id, type: "llm", config: LLM });
const TOOL = { usesTool: "tool:t@1.0.0" };
const tool = (id: string): AgentNode => ({ id, type: "tool", config: TOOL });
const binary = (id: string, t: string, f: string): AgentNode => ({
  id,
  type: "decision",
  config: { condition: "output.ok = true", onTrue: { next: t }, onFalse: { next: f } },
});
const multi = (id: string, targets: readonly string[], otherwise: string): AgentNode => ({
  id,
  type: "decision",
  config: {
    cases: targets.map((next, i) => ({ condition: `output.n = ${i}`, next })),
    otherwise: { next: otherwise },
  },
});
const edge = (from: string, to: string, edgeType: EdgeType = "data") => ({ from, to, edgeType });
const HEAD = { kind: "AgentWorkflow", id: "agnt-test", version: "1.0.0", name: "Test" } as const;
const SCHEMAS = { autonomyLevel: 2, inputSchema: { q: "text" }, outputSchema: { a: "t" } } as const;
const workflow = (nodes: readonly AgentNode[], edges: readonly AgentEdge[]): AgentWorkflow => ({
  ...HEAD,
  ...SCHEMAS,
  nodes,
  edges,
});

/** Sorted-array union: a semilattice join for "which nodes are upstream". */
const union = (a: readonly number[], b: readonly number[]): readonly number[] =>
  [...new Set([...a, ...b])].sort((x, y) => x - y);
const ones = (bits: Uint8Array): number[] => [...bits.keys()].filter((i) => bits[i] === 1);

interface Case {
  readonly name: string;
  readonly wf: AgentWorkflow;
  readonly successors: readonly (readonly number[])[];
  readonly sccMembers: readonly (readonly number[])[];
  readonly entry: number | undefined;
  /** Per-node flags as "0"/"1" strings in node order. */
  readonly bits: Readonly<Record<"cyclic" | "reachable" | "endsRun" | "canReachExit", string>>;
  /** Per node, the nodes with a path of >= 1 step to it. */
  readonly upstream: readonly (readonly number[])[];
  /** Decision index → isForwardRoute per route, in route order. */
  readonly forward?: Readonly<Record<number, readonly boolean[]>>;
}

const ALL3 = [0, 1, 2];
const LOOP = [0, 1, 2, 3, 4];

const research = workflow(
  [llm("llm-1"), tool("tool-2"), binary("dec-3", "end", "llm-1")],
  [edge("llm-1", "tool-2", "toolCall"), edge("tool-2", "dec-3"), edge("dec-3", "llm-1")],
);

const cases: readonly Case[] = [
  {
    name: "research template: entry llm-1 although dec-3 loops back to it",
    wf: research,
    successors: [[1], [2], [0]],
    sccMembers: [[0, 1, 2]],
    entry: 0,
    bits: { cyclic: "111", reachable: "111", endsRun: "001", canReachExit: "111" },
    upstream: [ALL3, ALL3, ALL3],
    forward: { 2: [true, false] },
  },
  {
    name: "document-review template: llm-classify is reached only through the decision",
    wf: workflow(
      [llm("llm-extract"), binary("dec-validate", "llm-classify", "end"), llm("llm-classify")],
      [edge("llm-extract", "dec-validate")],
    ),
    successors: [[1], [2], []],
    sccMembers: [[2], [1], [0]],
    entry: 0,
    bits: { cyclic: "000", reachable: "111", endsRun: "011", canReachExit: "111" },
    upstream: [[], [0], [0, 1]],
    forward: { 1: [true, true] },
  },
  {
    name: "document-review reordered: the entry is the first source, not the first node",
    wf: workflow(
      [llm("llm-classify"), binary("dec-validate", "llm-classify", "end"), llm("llm-extract")],
      [edge("llm-extract", "dec-validate")],
    ),
    successors: [[], [0], [1]],
    sccMembers: [[0], [1], [2]],
    entry: 2,
    bits: { cyclic: "000", reachable: "111", endsRun: "110", canReachExit: "111" },
    upstream: [[1, 2], [2], []],
  },
  {
    name: "multi-way decision: route order, duplicate targets once; edges leaving it ignored",
    wf: workflow(
      [llm("a"), multi("d", ["b", "c", "b"], "end"), tool("b"), tool("c")],
      [edge("a", "d"), edge("d", "a"), edge("d", "c", "toolCall"), edge("b", "c", "toolCall")],
    ),
    successors: [[1], [2, 3], [3], []],
    sccMembers: [[3], [2], [1], [0]],
    entry: 0,
    bits: { cyclic: "0000", reachable: "1111", endsRun: "0101", canReachExit: "1111" },
    upstream: [[], [0], [0, 1], [0, 1, 2]],
    forward: { 1: [true, true, true, true] },
  },
  {
    name: "delegate edges, unknown ids and duplicate edges carry no extra flow; no exit",
    wf: workflow(
      [llm("a"), tool("b"), binary("d", "nowhere", "a")],
      [
        edge("a", "agnt-verify@1.0.0", "delegate"),
        edge("a", "b", "delegate"),
        edge("a", "ghost"),
        edge("ghost", "b"),
        edge("b", "a", "delegate"),
        edge("a", "b", "toolCall"),
        edge("a", "b"),
        edge("b", "d"),
      ],
    ),
    successors: [[1], [2], [0]],
    sccMembers: [[0, 1, 2]],
    entry: 0,
    bits: { cyclic: "111", reachable: "111", endsRun: "000", canReachExit: "000" },
    upstream: [ALL3, ALL3, ALL3],
    forward: { 2: [true, false] },
  },
  {
    name: "a decision whose routes all point at unknown ids ends the run",
    wf: workflow([binary("d", "x", "y")], []),
    successors: [[]],
    sccMembers: [[0]],
    entry: 0,
    bits: { cyclic: "0", reachable: "1", endsRun: "1", canReachExit: "1" },
    upstream: [[]],
    forward: { 0: [true, true] },
  },
  {
    name: "duplicate ids resolve to the first node; the later one is isolated",
    wf: workflow(
      [llm("a"), tool("b"), llm("a"), tool("c")],
      [edge("a", "b"), edge("b", "a"), edge("a", "c")],
    ),
    successors: [[1, 3], [0], [], []],
    sccMembers: [[3], [0, 1], [2]],
    entry: 0,
    bits: { cyclic: "1100", reachable: "1101", endsRun: "0011", canReachExit: "1111" },
    upstream: [[0, 1], [0, 1], [], [0, 1]],
  },
  {
    name: "a repeated id is never the entry, even when it is the first source",
    wf: workflow([llm("x"), llm("x"), llm("y")], [edge("y", "x")]),
    successors: [[], [], [0]],
    sccMembers: [[0], [1], [2]],
    entry: 2,
    bits: { cyclic: "000", reachable: "101", endsRun: "110", canReachExit: "111" },
    upstream: [[2], [], []],
  },
  {
    name: "self-loops: an llm edge to itself and a decision retrying itself",
    wf: workflow([llm("a"), binary("d", "d", "end")], [edge("a", "a"), edge("a", "d")]),
    successors: [[0, 1], [1]],
    sccMembers: [[1], [0]],
    entry: 0,
    bits: { cyclic: "11", reachable: "11", endsRun: "01", canReachExit: "11" },
    upstream: [[0], [0, 1]],
    forward: { 1: [false, true] },
  },
  {
    name: "nested cycles form one component",
    wf: workflow(
      [llm("s"), llm("a"), tool("b"), tool("c"), binary("d", "a", "e"), llm("e")],
      [edge("s", "a"), edge("a", "b"), edge("b", "c"), edge("c", "b"), edge("c", "d")],
    ),
    successors: [[1], [2], [3], [2, 4], [1, 5], []],
    sccMembers: [[5], [1, 2, 3, 4], [0]],
    entry: 0,
    bits: { cyclic: "011110", reachable: "111111", endsRun: "000001", canReachExit: "111111" },
    upstream: [[], LOOP, LOOP, LOOP, LOOP, LOOP],
    forward: { 4: [false, true] },
  },
  {
    name: "a node entered only inside a cycle that is entered from elsewhere is not the entry",
    wf: workflow([llm("b"), tool("c"), llm("a")], [edge("a", "b"), edge("b", "c"), edge("c", "b")]),
    successors: [[1], [0], [0]],
    sccMembers: [[0, 1], [2]],
    entry: 2,
    bits: { cyclic: "110", reachable: "111", endsRun: "000", canReachExit: "000" },
    upstream: [[0, 1, 2], [0, 1, 2], []],
  },
  {
    name: "a second source is unreachable from the entry",
    wf: workflow([llm("a"), tool("b"), tool("c")], [edge("a", "c"), edge("b", "c")]),
    successors: [[2], [2], []],
    sccMembers: [[2], [0], [1]],
    entry: 0,
    bits: { cyclic: "000", reachable: "101", endsRun: "001", canReachExit: "111" },
    upstream: [[], [], [0, 1]],
  },
  {
    name: "empty workflow",
    wf: workflow([], []),
    successors: [],
    sccMembers: [],
    entry: undefined,
    bits: { cyclic: "", reachable: "", endsRun: "", canReachExit: "" },
    upstream: [],
  },
];

describe("buildFlowGraph", () => {
  it.each(cases)("$name", (c) => {
    const g = buildFlowGraph(c.wf);
    expect(adjacencyToLists(g.successors)).toStrictEqual(c.successors);
    // Predecessors are the exact transpose of successors, ascending.
    const transpose = c.successors.map((): number[] => []);
    const sccOf = c.successors.map(() => -1);
    c.sccMembers.forEach((members, k) => {
      for (const m of members) sccOf[m] = k;
    });
    c.successors.forEach((succ, i) => {
      for (const j of succ) {
        transpose[j]?.push(i);
        // Component ids are a reverse topological order: edges never go to a higher id.
        expect(sccOf[i] ?? 0).toBeGreaterThanOrEqual(sccOf[j] ?? 0);
      }
    });
    expect(adjacencyToLists(g.predecessors)).toStrictEqual(transpose);
    expect([...g.sccOf]).toStrictEqual(sccOf);
    expect(adjacencyToLists(g.sccMembers)).toStrictEqual(c.sccMembers);
    expect(g.sccTopoOrder).toStrictEqual(c.sccMembers.map((_, i) => i).reverse());
    expect(g.entry).toBe(c.entry);
    expect({
      cyclic: g.cyclic.join(""),
      reachable: g.reachable.join(""),
      endsRun: g.endsRun.join(""),
      canReachExit: g.canReachExit.join(""),
    }).toStrictEqual(c.bits);
    expect(g.nodes.map((_, i) => (canReachItself(g, i) ? "1" : "0")).join("")).toBe(c.bits.cyclic);
    expect(g.nodes.map((_, i) => ones(upstreamOf(g, i)))).toStrictEqual(c.upstream);
    const flow = forwardDataflow<readonly number[]>(g, (i) => [i], union, []);
    expect(flow).toStrictEqual(c.upstream);
    for (const [decision, expected] of Object.entries(c.forward ?? {})) {
      const d = Number(decision);
      expect(g.routes[d]?.map((r) => isForwardRoute(g, d, r))).toStrictEqual(expected);
    }
  });

  it("indexes ids at their first occurrence and keeps llm/tool routes empty", () => {
    const g = buildFlowGraph(workflow([llm("a"), tool("b"), llm("a"), tool("c")], []));
    expect(Object.fromEntries(g.index)).toStrictEqual({ a: 0, b: 1, c: 3 });
    const labels = buildFlowGraph(research).routes.map((r) => r.map((x) => x.label).join());
    expect(labels).toStrictEqual(["", "", "onTrue,onFalse"]);
  });

  it("resolves an edge or route to the first node of a duplicated id, even next to a repeat", () => {
    // The repeat of "a" sits right after "b", where the lookup looks first.
    const g = buildFlowGraph(
      workflow([llm("a"), tool("b"), llm("a"), binary("d", "a", "b")], [edge("b", "a")]),
    );
    expect([...g.edgeSource]).toStrictEqual([1]);
    expect([...g.edgeTarget]).toStrictEqual([0]);
    expect([...neighbours(g.successors, 3)]).toStrictEqual([0, 1]);
  });

  it("isForwardRoute: end and unknown targets are forward, a member of the loop is not", () => {
    const g = buildFlowGraph(research);
    const forward = ["end", "ghost", "tool-2"].map((next) => isForwardRoute(g, 2, { next }));
    expect(forward).toStrictEqual([true, true, false]);
  });

  it("flowGraph memoises per workflow object", () => {
    const g = flowGraph(research);
    expect(flowGraph(research)).toBe(g);
    const copy = { ...research };
    expect(flowGraph(copy)).not.toBe(g);
    expect(flowGraph(copy)).toStrictEqual(g);
    // The index is not a Map (toStrictEqual only sees its size): compare its entries.
    expect(new Map(flowGraph(copy).index)).toStrictEqual(new Map(g.index));
  });
});
describe("large graphs do not overflow the stack", () => {
  const N = 100_000;
  const ids = Array.from({ length: N }, (_, i) => `n${i}`);
  const chainEdges = ids.slice(1).map((id, i) => edge(ids[i] ?? "", id));

  it("a 100,000-node chain", () => {
    const g = buildFlowGraph(workflow(ids.map(llm), chainEdges));
    expect(g.entry).toBe(0);
    expect(g.sccMembers.offsets.length - 1).toBe(N);
    expect([...neighbours(g.sccMembers, g.sccTopoOrder[0] ?? -1)]).toStrictEqual([0]);
    expect(ones(g.reachable).length).toBe(N);
    expect(ones(g.canReachExit).length).toBe(N);
    expect(ones(g.endsRun)).toStrictEqual([N - 1]);
    expect(ones(g.cyclic)).toStrictEqual([]);
    const deepest = forwardDataflow(g, (i) => i, Math.max, -1);
    expect(deepest.every((v, i) => v === i - 1)).toBe(true);
    expect(ones(upstreamOf(g, N - 1)).length).toBe(N - 1);
  });

  it("a 100,000-node single cycle", () => {
    const g = buildFlowGraph(workflow(ids.map(tool), [...chainEdges, edge(`n${N - 1}`, "n0")]));
    expect(g.entry).toBe(0);
    expect(g.sccMembers.offsets.length - 1).toBe(1);
    expect(neighbours(g.sccMembers, 0).length).toBe(N);
    expect(ones(g.cyclic).length).toBe(N);
    expect(ones(g.reachable).length).toBe(N);
    expect(ones(g.canReachExit)).toStrictEqual([]);
    const highest = forwardDataflow(g, (i) => i, Math.max, -1);
    expect(highest.every((v) => v === N - 1)).toBe(true);
  });
});
