/**
 * How far a report goes on a big workflow: the drawing limit and its note, the exploration bound,
 * identical edges merged, tooltips cut.
 */
import { describe, expect, it } from "vitest";
import type { GraphEdge } from "../../../src/report/audit/index.js";
import {
  DRAWING_LIMIT,
  drawingVerdict,
  EXPLORE_RUNS,
  exploreRunBound,
  notDrawnNote,
} from "../../../src/report/audit/index.js";
import {
  clipText,
  cutMermaidLabels,
  edgeRows,
  mergeParallelEdges,
  nodeRows,
} from "../../../src/report/audit/limits.js";

describe("drawingVerdict and notDrawnNote", () => {
  it("draws up to the limit of nodes and of edges, and no further", () => {
    expect(DRAWING_LIMIT).toBe(250);
    expect(drawingVerdict(250, 250, 0).drawn).toBe(true);
    expect(drawingVerdict(251, 10, 0).drawn).toBe(false);
    expect(drawingVerdict(4, 251, 0).drawn).toBe(false);
    expect(drawingVerdict(4, 100_004, 100_000)).toEqual({
      drawn: false,
      nodes: 4,
      edges: 100_004,
      dangling: 100_000,
      limit: 250,
    });
  });

  it("says what was not drawn, why, and where the nodes and edges are instead", () => {
    expect(notDrawnNote(drawingVerdict(100_000, 99_999, 0))).toBe(
      "Graph not drawn: 100,000 nodes and 99,999 edges exceed the drawing limit of 250 nodes and 250 edges. The tables below list every node and every edge.",
    );
    expect(notDrawnNote(drawingVerdict(4, 100_002, 100_000))).toBe(
      "Graph not drawn: 4 nodes and 100,002 edges exceed the drawing limit of 250 nodes and 250 edges. The tables below list every node and every edge between two nodes; the 100,000 edge(s) to a missing node are in the findings.",
    );
  });
});

describe("exploreRunBound", () => {
  it("explores 200 runs, fewer as the graph grows, and always at least one", () => {
    expect(exploreRunBound(0)).toBe(EXPLORE_RUNS);
    expect(exploreRunBound(1_000)).toBe(200);
    expect(exploreRunBound(1_001)).toBe(199);
    expect(exploreRunBound(20_000)).toBe(10);
    expect(exploreRunBound(200_001)).toBe(1);
    expect(exploreRunBound(10_000_000)).toBe(1);
  });
});

describe("mergeParallelEdges and the tables of an undrawn graph", () => {
  const edge = (from: string, to: string, label = "data", back = false): GraphEdge => ({
    from,
    to,
    label,
    back,
  });

  it("merges 100,000 identical edges into one, in first-seen order", () => {
    const edges = [
      edge("a", "b"),
      ...Array.from({ length: 100_000 }, () => edge("b", "c")),
      edge("b", "c", "onTrue"),
      edge("c", "a", "data", true),
    ];
    expect(mergeParallelEdges(edges).map((m) => [m.edge.from, m.edge.to, m.count])).toEqual([
      ["a", "b", 1],
      ["b", "c", 100_000],
      ["b", "c", 1],
      ["c", "a", 1],
    ]);
    expect(edgeRows(edges)).toEqual([
      ["a", "b", "data", "1"],
      ["b", "c", "data", "100000"],
      ["b", "c", "onTrue", "1"],
      ["c", "a", "data (loops back)", "1"],
    ]);
  });

  it("lists each node with its type, its name when it has one, and its finding codes", () => {
    expect(
      nodeRows([
        { id: "a", type: "llm", label: "a", findings: [] },
        { id: "b", type: "tool", label: "Fetch", findings: ["X", "Y"] },
      ]),
    ).toEqual([
      ["a", "llm", "", ""],
      ["b", "tool", "Fetch", "X, Y"],
    ]);
  });
});

describe("clipText", () => {
  it("keeps short text, and cuts long text to the limit with …, never inside a code point", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("a".repeat(1_000_000), 500)).toBe("a".repeat(500) + "…");
    expect(clipText("😀".repeat(20), 5)).toBe("😀".repeat(5) + "…");
    expect(clipText("😀".repeat(5), 5)).toBe("😀".repeat(5));
  });
});

describe("cutMermaidLabels", () => {
  it("cuts each line of a long node or edge label, and leaves the rest of the text alone", () => {
    const long = "a.".repeat(500_000);
    const text = [
      "flowchart TD",
      `  n0[/"tool-2<br/>tool:${long}"/]`,
      `  d1[["agnt-${long}"]]`,
      `  n0 -->|${long}| d1`,
      '  n1{"dec<br/>output.ok = true"}',
      "",
    ].join("\n");
    const cut = `${long.slice(0, 200)}…`;
    expect(cutMermaidLabels(text).split("\n")).toEqual([
      "flowchart TD",
      `  n0[/"tool-2<br/>${`tool:${long}`.slice(0, 200)}…"/]`,
      `  d1[["${`agnt-${long}`.slice(0, 200)}…"]]`,
      `  n0 -->|${cut}| d1`,
      '  n1{"dec<br/>output.ok = true"}',
      "",
    ]);
  });
});
