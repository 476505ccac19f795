/**
 * The per-node and per-route arrays the flow graph resolves once for the rules: node kinds, route
 * targets, delegate edges, and the shared topological order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFlowGraph, NODE_KIND } from "../../../src/model/graph/flow-graph.js";
import { decisionRoutes } from "../../../src/model/graph/routes.js";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../../../src/model/types.js";
import { workflow as baseWorkflow } from "../../validate/builders.js";

const llm = (id: string): AgentNode => ({
  id,
  type: "llm",
  config: { model: "m", promptRef: "prm:p@1.0.0" },
});
const tool = (id: string): AgentNode => ({
  id,
  type: "tool",
  config: { usesTool: "tool:t@1.0.0" },
});
const multi = (id: string, targets: readonly string[], otherwise: string): AgentNode => ({
  id,
  type: "decision",
  config: {
    cases: targets.map((next, i) => ({ condition: `output.n = ${String(i)}`, next })),
    otherwise: { next: otherwise },
  },
});
/** A workflow of the shared test builder, at autonomy 2 with a text output. */
const workflow = (nodes: readonly AgentNode[], edges: readonly AgentEdge[] = []): AgentWorkflow =>
  baseWorkflow(nodes, edges, { autonomyLevel: 2, outputSchema: { a: "text" } });

/** What `routeTarget` must hold: the first node with the id, -2 for "end", -1 for no node. */
function expectedTargets(wf: AgentWorkflow): number[] {
  const ids = wf.nodes.map((n) => n.id);
  return buildFlowGraph(wf).routes.flatMap((routes) =>
    routes.map((r) => (r.next === "end" ? -2 : ids.indexOf(r.next))),
  );
}

describe("flow graph fields", () => {
  it("kind gives each node's type as a number", () => {
    const g = buildFlowGraph(workflow([llm("a"), tool("b"), multi("c", ["a"], "end")]));
    expect([...g.kind]).toStrictEqual([NODE_KIND.llm, NODE_KIND.tool, NODE_KIND.decision]);
  });

  it("routeStart/routeTarget resolve every route once, in route order", () => {
    const wf = workflow([
      multi("d", ["b", "a", "ghost", "b", "end"], "d"),
      llm("a"),
      tool("b"),
      llm("a"),
      multi("e", [], "end"),
    ]);
    const g = buildFlowGraph(wf);
    expect([...g.routeStart]).toStrictEqual([0, 6, 6, 6, 6, 7]);
    // ghost is no node (-1), end is -2, and the repeated "a" resolves to its first node.
    expect([...g.routeTarget]).toStrictEqual([2, 1, -1, 2, -2, 0, -2]);
    expect([...g.routeTarget]).toStrictEqual(expectedTargets(wf));
  });

  it("routes are built on first read, once, as decisionRoutes lists them", () => {
    const wf = workflow([
      multi("d", ["a", "end"], "a"),
      llm("a"),
      // A malformed case is no route, in the routes and in routeStart alike.
      {
        id: "e",
        type: "decision",
        config: { cases: [{ condition: "c", next: 7 }], otherwise: { next: "end" } },
      } as unknown as AgentNode,
    ]);
    const g = buildFlowGraph(wf);
    const first = g.routes;
    expect(g.routes).toBe(first);
    expect(first).toStrictEqual(
      wf.nodes.map((n) => (n.type === "decision" ? decisionRoutes(n.config) : [])),
    );
    expect(first.map((r) => r.length)).toStrictEqual([3, 0, 1]);
    expect([...g.routeStart]).toStrictEqual([0, 3, 3, 4]);
    expect(first[2]?.[0]).toStrictEqual({
      label: "otherwise",
      next: "end",
      pointerSuffix: "/otherwise",
    });
  });

  it("routeTarget agrees with the ids for any order of case targets", () => {
    const ids = ["n0", "n1", "n2", "n3", "n4", "n5"];
    const next = fc.constantFrom(...ids, "end", "nowhere");
    fc.assert(
      fc.property(fc.array(next, { maxLength: 12 }), fc.array(fc.nat({ max: 5 })), (cases, dup) => {
        const nodes = [multi("n0", cases, "n1"), ...ids.slice(1).map(llm)];
        for (const d of dup) nodes.push(llm(ids[d] ?? "n1")); // repeats resolve to the first
        const wf = workflow(nodes);
        expect([...buildFlowGraph(wf).routeTarget]).toStrictEqual(expectedTargets(wf));
      }),
      { numRuns: 200 },
    );
  });

  it("delegateEdges lists the delegate edges, ascending", () => {
    const edges: AgentEdge[] = [
      { from: "a", to: "agnt-x@1.0.0", edgeType: "delegate" },
      { from: "a", to: "b", edgeType: "data" },
      { from: "b", to: "agnt-y@1.0.0", edgeType: "delegate" },
    ];
    const g = buildFlowGraph(workflow([llm("a"), tool("b")], edges));
    expect([...g.delegateEdges]).toStrictEqual([0, 2]);
    expect([...g.edgeTarget]).toStrictEqual([-1, 1, -1]);
    expect([...buildFlowGraph(workflow([llm("a")])).delegateEdges]).toStrictEqual([]);
  });

  it("sccTopoOrder is frozen, and shared by graphs with as many components", () => {
    const a = buildFlowGraph(workflow([llm("a"), llm("b")]));
    const b = buildFlowGraph(workflow([tool("x"), tool("y")]));
    expect(a.sccTopoOrder).toStrictEqual([1, 0]);
    expect(Object.isFrozen(a.sccTopoOrder)).toBe(true);
    expect(b.sccTopoOrder).toBe(a.sccTopoOrder);
    expect(buildFlowGraph(workflow([llm("a")])).sccTopoOrder).toStrictEqual([0]);
  });
});
