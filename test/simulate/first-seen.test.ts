/**
 * The first-seen lists behind `visitedNodes` and `traversedEdges`: values by number or, without
 * one, by value, each once, in the order first seen.
 */
import { describe, expect, it } from "vitest";
import { firstSeen, see, seenList } from "../../src/simulate/first-seen.js";

const names = ["a", "b", "c", "d"];

describe("first-seen lists", () => {
  it.each([
    [
      "numbered values, repeats dropped",
      [
        ["b", 1],
        ["a", 0],
        ["b", 1],
        ["c", 2],
      ],
      ["b", "a", "c"],
    ],
    [
      "values without a number",
      [
        ["x", undefined],
        ["a", 0],
        ["x", undefined],
        ["y", undefined],
      ],
      ["x", "a", "y"],
    ],
    [
      "a value numbered after it was seen",
      [
        ["d", undefined],
        ["a", 0],
        ["d", 3],
      ],
      ["d", "a"],
    ],
    [
      "empty values",
      [
        ["", undefined],
        ["", 0],
        ["c", 2],
      ],
      ["c"],
    ],
    ["nothing", [], []],
  ] as const)("%s", (_name, seen, expected) => {
    const list = firstSeen(names.length);
    for (const [value, n] of seen) see(list, value, n);
    expect(seenList(list, names)).toEqual(expected);
  });

  it("grows past its first capacity, keeping the order", () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `n${i}`);
    const list = firstSeen(ids.length);
    // Every third value has no number, so both kinds cross the growth.
    for (let i = ids.length - 1; i >= 0; i--) see(list, ids[i] ?? "", i % 3 === 0 ? undefined : i);
    for (let i = 0; i < ids.length; i++) see(list, ids[i] ?? "", i % 3 === 0 ? undefined : i);
    expect(seenList(list, ids)).toEqual([...ids].reverse());
  });
});
