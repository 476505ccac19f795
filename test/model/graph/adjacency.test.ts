import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adjacencyFromLists,
  adjacencyToLists,
  neighbours,
  nodeCount,
  reverseAdjacency,
} from "../../../src/model/graph/adjacency.js";

describe("adjacency (CSR)", () => {
  it.each([
    [[], []],
    [[[]], [[]]],
    [
      [[1, 2], [2], []],
      [[], [0], [0, 1]],
    ],
    [
      [[0], [0, 1]],
      [[0, 1], [1]],
    ],
  ])("%j reverses to %j", (lists, reversed) => {
    const adjacency = adjacencyFromLists(lists);
    expect(nodeCount(adjacency)).toBe(lists.length);
    expect(adjacencyToLists(adjacency)).toEqual(lists);
    expect(adjacencyToLists(reverseAdjacency(adjacency))).toEqual(reversed);
  });

  it("neighbours are views, not copies", () => {
    const adjacency = adjacencyFromLists([[1], [0]]);
    expect(neighbours(adjacency, 1).buffer).toBe(adjacency.targets.buffer);
  });

  it("reversing twice gives the lists back, sorted per node", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((n) =>
          fc.array(fc.uniqueArray(fc.nat(n - 1), { maxLength: n }), {
            minLength: n,
            maxLength: n,
          }),
        ),
        (lists) => {
          const twice = adjacencyToLists(
            reverseAdjacency(reverseAdjacency(adjacencyFromLists(lists))),
          );
          expect(twice).toEqual(lists.map((l) => [...l].sort((a, b) => a - b)));
        },
      ),
    );
  });
});
