import { describe, expect, it } from "vitest";
import type { GraphEdge, GraphNode } from "../../../src/report/audit/index.js";
import { layoutGraph } from "../../../src/report/audit/index.js";
import { fitText, FONT, textWidth } from "../../../src/report/audit/layout.js";

function node(id: string, type: GraphNode["type"] = "llm", findings: string[] = []): GraphNode {
  return { id, type, label: id, findings };
}

function edge(from: string, to: string, back = false, label = "data"): GraphEdge {
  return { from, to, label, back };
}

/** A retry loop, a branch, a delegate and the end: every shape and a back edge. */
const GRAPH = {
  nodes: [
    node("fetch", "tool"),
    node("assess"),
    node("ok?", "decision"),
    node("#delegate-4", "delegate"),
    node("#end", "end"),
  ],
  edges: [
    edge("fetch", "assess"),
    edge("assess", "ok?"),
    edge("ok?", "#end", false, "onTrue"),
    edge("ok?", "fetch", true, "onFalse · max 2"),
    edge("assess", "#delegate-4", false, "delegate"),
  ],
};

function oneDecimal(v: number): boolean {
  return Number.isFinite(v) && Math.round(v * 10) / 10 === v && !Object.is(v, -0);
}

describe("layoutGraph", () => {
  it("gives the same coordinates for the same graph, rounded to 1 decimal", () => {
    const a = layoutGraph(GRAPH);
    const b = layoutGraph(structuredClone(GRAPH));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    const numbers = [
      a.width,
      a.height,
      ...a.nodes.flatMap((n) => [n.x, n.y, n.width, n.height]),
      ...a.edges.flatMap((e) => [
        ...e.points.flatMap((p) => [p.x, p.y]),
        ...(e.labelAt === undefined ? [] : [e.labelAt.x, e.labelAt.y]),
      ]),
    ];
    expect(numbers.every(oneDecimal)).toBe(true);
  });

  it("places every node inside the drawing, in the graph's order", () => {
    const layout = layoutGraph(GRAPH);
    expect(layout.nodes.map((n) => n.node.id)).toEqual(GRAPH.nodes.map((n) => n.id));
    for (const n of layout.nodes) {
      expect(n.x - n.width / 2).toBeGreaterThanOrEqual(0);
      expect(n.y - n.height / 2).toBeGreaterThanOrEqual(0);
      expect(n.x + n.width / 2).toBeLessThanOrEqual(layout.width);
      expect(n.y + n.height / 2).toBeLessThanOrEqual(layout.height);
    }
  });

  it("ranks follow the edges top to bottom, except back edges, which point up", () => {
    const layout = layoutGraph(GRAPH);
    const y = new Map(layout.nodes.map((n) => [n.node.id, n.y]));
    for (const { edge: e } of layout.edges) {
      const from = y.get(e.from) ?? NaN;
      const to = y.get(e.to) ?? NaN;
      if (e.back) expect(from).toBeGreaterThan(to);
      else expect(from).toBeLessThan(to);
    }
    // The retry does not pull `fetch` below the decision: it stays the top rank.
    expect(Math.min(...y.values())).toBe(y.get("fetch"));
  });

  it("runs each edge from the source's outline to the target's, drawn back for a back edge", () => {
    const layout = layoutGraph(GRAPH);
    const box = new Map(layout.nodes.map((n) => [n.node.id, n]));
    for (const e of layout.edges) {
      const first = e.points[0];
      const last = e.points[e.points.length - 1];
      const from = box.get(e.edge.from);
      const to = box.get(e.edge.to);
      if (!first || !last || !from || !to) throw new Error("missing geometry");
      expect(e.points.length).toBeGreaterThanOrEqual(2);
      expect(Math.abs(first.x - from.x)).toBeLessThanOrEqual(from.width / 2 + 0.1);
      expect(Math.abs(first.y - from.y)).toBeLessThanOrEqual(from.height / 2 + 0.1);
      expect(Math.abs(last.x - to.x)).toBeLessThanOrEqual(to.width / 2 + 0.1);
      expect(Math.abs(last.y - to.y)).toBeLessThanOrEqual(to.height / 2 + 0.1);
    }
    const end = box.get("#end");
    const toEnd = layout.edges.find((e) => e.edge.to === "#end")?.points.at(-1);
    if (!end || !toEnd) throw new Error("missing end");
    // The end node is a circle: the arrow stops on it, not on its bounding box.
    expect(Math.hypot(toEnd.x - end.x, toEnd.y - end.y)).toBeCloseTo(end.width / 2, 0);
  });

  it("labels edges, shortens long texts, and leaves out edges to unknown nodes", () => {
    const long = "a-very-long-node-label-that-would-not-fit-in-any-reasonable-box-at-all";
    const layout = layoutGraph({
      nodes: [node("a"), { ...node("b"), label: long }],
      edges: [edge("a", "b"), edge("a", "ghost"), edge("b", "b", true, "self")],
    });
    expect(layout.edges.map((e) => e.edge.to)).toEqual(["b", "b"]);
    expect(layout.edges[0]?.labelText).toBe("data");
    expect(layout.edges[0]?.labelAt).toBeDefined();
    const b = layout.nodes[1];
    expect(b?.title.endsWith("…")).toBe(true);
    expect(b?.title.length).toBeLessThan(long.length);
    expect(b?.subtitle).toBe("llm · b");
    expect(fitText("short", 13, 200)).toBe("short");
  });

  it("lays out an empty graph", () => {
    const layout = layoutGraph({ nodes: [], edges: [] });
    expect(layout.nodes).toEqual([]);
    expect(layout.edges).toEqual([]);
  });

  it("fits a label of a million characters by reading only what fits", () => {
    const title = fitText("a.".repeat(500_000), FONT.title, 200);
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThan(100);
    expect(textWidth(title, FONT.title)).toBeLessThanOrEqual(200);
    // Whole graphemes only, and at least one, even when none fits.
    expect(fitText("👩‍👩‍👧‍👦".repeat(100), FONT.title, 40)).toBe("👩‍👩‍👧‍👦…");
    expect(fitText("👩‍👩‍👧‍👦".repeat(100), FONT.title, 170)).toBe("👩‍👩‍👧‍👦".repeat(2) + "…");
    expect(fitText("WWWW", FONT.title, 1)).toBe("W…");
    const layout = layoutGraph({
      nodes: [{ ...node("a"), label: "x".repeat(1_000_000) }, node("b")],
      edges: [{ ...edge("a", "b"), label: "y".repeat(1_000_000) }],
    });
    expect(layout.nodes[0]?.title.length).toBeLessThan(100);
    expect(layout.edges[0]?.labelText.length).toBeLessThan(100);
  });

  it("lays out identical edges once, counted, and other parallel edges apart", () => {
    const layout = layoutGraph({
      nodes: [node("a"), node("b")],
      edges: [
        ...Array.from({ length: 100_000 }, () => edge("a", "b")),
        edge("a", "b", false, "onTrue"),
      ],
    });
    expect(layout.edges.map((e) => [e.edge.label, e.count, e.labelText])).toEqual([
      ["data", 100_000, "data ×100000"],
      ["onTrue", 1, "onTrue"],
    ]);
  });

  it("refuses a graph over the drawing limit instead of overflowing the stack", () => {
    const nodes = Array.from({ length: 2_000 }, (_, i) => node(`n${String(i)}`));
    const edges = nodes.slice(1).map((n, i) => edge(`n${String(i)}`, n.id));
    expect(() => layoutGraph({ nodes, edges })).toThrow(
      new RangeError(
        "layoutGraph: 2000 nodes and 1999 edges exceed the drawing limit of 250 nodes and 250 edges",
      ),
    );
    const small = { nodes: nodes.slice(0, 250), edges: edges.slice(0, 249) };
    expect(layoutGraph(small).nodes).toHaveLength(250);
  });
});
