/**
 * Id allocation and placement helpers of the importers: clash suffixes stay the same when many
 * names share one base (and are found in linear time), and routers are placed after their step.
 */
import { describe, expect, it } from "vitest";
import { mapIds } from "../../src/interop/agent2model/ids.js";
import { appendTo, flowEdgesBy } from "../../src/interop/edge-index.js";
import { allocateId } from "../../src/interop/ids.js";
import { placeDecisions } from "../../src/interop/langgraph-graph/graph-build.js";
import type { AgentWorkflow } from "../../src/model/index.js";

describe("allocateId (every importer's)", () => {
  const allocate = allocateId;
  it("suffixes -2, -3, ... in order, skipping ids taken in between and `end`", () => {
    const used = new Set(["a-3"]);
    const ids = ["a", "a", "a", "a", "end", "end"].map((w) => allocate(w, used));
    expect(ids).toEqual(["a", "a-2", "a-4", "a-5", "end-2", "end-3"]);
    used.add("a-6");
    expect(allocate("a", used)).toBe("a-7");
  });

  it("gives 20,000 clashing names 20,000 distinct ids, in order", () => {
    const used = new Set<string>();
    const ids = Array.from({ length: 20_000 }, () => allocate("x", used));
    expect(new Set(ids).size).toBe(20_000);
    expect(ids.slice(0, 3)).toEqual(["x", "x-2", "x-3"]);
    expect(ids.at(-1)).toBe("x-20000");
  });

  it("keeps separate suffixes for separate id sets", () => {
    const first = new Set<string>();
    const second = new Set<string>();
    expect([allocate("b", first), allocate("b", first)]).toEqual(["b", "b-2"]);
    expect([allocate("b", second), allocate("b", second)]).toEqual(["b", "b-2"]);
  });
});

describe("mapIds (agent2model)", () => {
  it("gives 20,000 names with one sanitized form the suffixes -2, -3, ... in input order", () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `a ${String.fromCharCode(0x4e00 + i)}`);
    const mapped = mapIds(["a---3", ...names]);
    // each name becomes `a--`; `a---3` is valid and keeps itself, so the clashes skip it
    expect([names[0], names[1], names[2]].map((n) => mapped.get(n ?? ""))).toEqual([
      "a--",
      "a---2",
      "a---4",
    ]);
    expect(new Set(mapped.values()).size).toBe(20_001);
  });
});

describe("placeDecisions", () => {
  it("puts each decision after its node, a later one first, and an unplaced one in front", () => {
    const nodes = [{ id: "s1" }, { id: "s2" }];
    const placed = placeDecisions(nodes, [
      ["s1", { id: "d1" }],
      ["nowhere", { id: "d0" }],
      ["s1", { id: "d2" }],
      ["nowhere", { id: "d3" }],
    ]);
    expect(placed.map((n) => n.id)).toEqual(["d3", "d0", "s1", "d2", "d1", "s2"]);
  });
});

describe("edge indexes", () => {
  it("groups flow edges by end, in edge order, leaving delegate edges out", () => {
    const wf = {
      edges: [
        { from: "a", to: "b", edgeType: "data" },
        { from: "a", to: "c", edgeType: "delegate" },
        { from: "b", to: "b", edgeType: "toolCall" },
        { from: "a", to: "b", edgeType: "data", when: "w" },
      ],
    } as unknown as AgentWorkflow;
    const from = flowEdgesBy(wf, "from");
    expect(from.get("a")?.map((x) => x.j)).toEqual([0, 3]);
    expect(
      flowEdgesBy(wf, "to")
        .get("b")
        ?.map((x) => x.j),
    ).toEqual([0, 2, 3]);
    expect(flowEdgesBy(wf, "to").has("c")).toBe(false);
    const map = new Map<string, number[]>();
    appendTo(map, "k", 1);
    appendTo(map, "k", 2);
    expect(map.get("k")).toEqual([1, 2]);
  });
});
