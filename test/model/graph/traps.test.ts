import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adjacencyFromLists,
  adjacencyToLists,
  reverseAdjacency,
} from "../../../src/model/graph/adjacency.js";
import { scratchScope } from "../../../src/model/graph/scratch.js";
import { cyclesAmong, trappedNodes } from "../../../src/model/graph/traps.js";

/** The trapped nodes as a plain list of 0/1. */
function trapped(lists: number[][], exits: number[], steers: number[]): number[] {
  const successors = adjacencyFromLists(lists);
  return scratchScope((take) => [
    ...trappedNodes(take, successors, reverseAdjacency(successors), exits, steers),
  ]);
}

/**
 * Whether some node set is a trap by definition: it holds a cycle through all its members
 * (strongly connected, with an edge inside), has no exit, and every steering member has all its
 * successors inside. Tries every subset: small graphs only.
 */
function someTrap(lists: number[][], exits: number[], steers: number[]): boolean {
  const n = lists.length;
  for (let set = 1; set < 1 << n; set++) {
    const inside = (v: number) => ((set >> v) & 1) === 1;
    const members = lists.map((_, v) => v).filter(inside);
    if (members.some((v) => exits[v] === 1)) continue;
    if (members.some((v) => steers[v] === 1 && !(lists[v] ?? []).every(inside))) continue;
    const reach = (from: number) => {
      const seen = new Set<number>();
      const stack = (lists[from] ?? []).filter(inside);
      while (stack.length > 0) {
        const w = stack.pop() ?? 0;
        if (seen.has(w)) continue;
        seen.add(w);
        stack.push(...(lists[w] ?? []).filter(inside));
      }
      return seen;
    };
    // Every member reaches every member, itself included: strongly connected with a cycle.
    if (members.every((v) => members.every((w) => reach(v).has(w)))) return true;
  }
  return false;
}

describe("trappedNodes", () => {
  it.each([
    { name: "no nodes", lists: [], exits: [], steers: [], out: [] },
    {
      name: "a node with no successor stops the run",
      lists: [[]],
      exits: [0],
      steers: [0],
      out: [0],
    },
    {
      name: "a loop whose only way out is a plain edge",
      lists: [[1], [0, 2], []],
      exits: [0, 0, 1],
      steers: [0, 0, 0],
      out: [1, 1, 0],
    },
    {
      name: "the same loop when node 1 chooses",
      lists: [[1], [0, 2], []],
      exits: [0, 0, 0],
      steers: [0, 1, 0],
      out: [0, 0, 0],
    },
    {
      name: "a chooser whose every choice stays in the loop",
      lists: [[1], [0, 2], [1]],
      exits: [0, 0, 0],
      steers: [0, 1, 0],
      out: [1, 1, 1],
    },
    {
      name: "a plain node all of whose successors lead out",
      lists: [[1, 2], [3], [3], []],
      exits: [0, 0, 0, 0],
      steers: [0, 0, 0, 0],
      out: [0, 0, 0, 0],
    },
    {
      name: "an exit leaves even with successors",
      lists: [[1], [0]],
      exits: [0, 1],
      steers: [0, 1],
      out: [0, 0],
    },
    {
      name: "a self-loop on a plain node beside an exit",
      lists: [[0, 1], []],
      exits: [0, 0],
      steers: [0, 0],
      out: [1, 0],
    },
  ])("$name", ({ lists, exits, steers, out }) => {
    expect(trapped(lists, exits, steers)).toEqual(out);
  });

  it("is iterative: a chain of 200,000 nodes into a loop", () => {
    const n = 200_000;
    const lists = Array.from({ length: n }, (_, v) => (v + 1 < n ? [v + 1] : [n - 2]));
    const out = trapped(lists, new Array<number>(n).fill(0), new Array<number>(n).fill(0));
    expect(out.every((t) => t === 1)).toBe(true);
  });

  it("traps some node exactly when some node set is a trap by definition", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }).chain((n) =>
          fc.record({
            lists: fc.array(fc.uniqueArray(fc.nat(n - 1), { maxLength: 3 }), {
              minLength: n,
              maxLength: n,
            }),
            exits: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: n, maxLength: n }),
            steers: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: n, maxLength: n }),
          }),
        ),
        ({ lists, exits, steers }) => {
          const out = trapped(lists, exits, steers);
          expect(out.includes(1)).toBe(someTrap(lists, exits, steers));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("cyclesAmong", () => {
  it.each([
    { name: "no nodes", lists: [], keep: [], out: [] },
    { name: "nothing kept", lists: [[0]], keep: [0], out: [] },
    {
      name: "two loops and a self-loop, in order of their first members",
      lists: [[1, 2], [0], [3], [2], [4]],
      keep: [1, 1, 1, 1, 1],
      out: [[0, 1], [2, 3], [4]],
    },
    {
      name: "a loop broken by a node left out",
      lists: [[1, 2], [0], [3], [2], [4]],
      keep: [1, 1, 1, 0, 0],
      out: [[0, 1]],
    },
    {
      name: "an inner loop once the node closing the outer one is left out",
      lists: [[1], [2], [1, 3], [0]],
      keep: [1, 1, 1, 0],
      out: [[1, 2]],
    },
    {
      name: "members come out ascending whatever the edge order",
      lists: [[], [3], [], [1]],
      keep: [0, 1, 0, 1],
      out: [[1, 3]],
    },
  ])("$name", ({ lists, keep, out }) => {
    expect(adjacencyToLists(cyclesAmong(adjacencyFromLists(lists), keep))).toEqual(out);
  });

  it("is iterative: a ring of 200,000 nodes", () => {
    const n = 200_000;
    const ring = adjacencyFromLists(Array.from({ length: n }, (_, v) => [(v + 1) % n]));
    const loops = cyclesAmong(ring, new Array<number>(n).fill(1));
    expect(loops.offsets.length - 1).toBe(1);
    expect(loops.targets.length).toBe(n);
  });
});
