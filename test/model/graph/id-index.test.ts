import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashOf, indexIds, MAX_COLLISIONS, MAX_PROBE } from "../../../src/model/graph/id-index.js";

const nodesOf = (ids: readonly unknown[]) => ids.map((id) => ({ id }));

/** The reference: a Map of first occurrences, and each node's first index. */
function reference(ids: readonly string[]): { map: Map<string, number>; firstOf: number[] } {
  const map = new Map<string, number>();
  const firstOf = ids.map((id, i) => {
    const first = map.get(id);
    if (first === undefined) map.set(id, i);
    return first ?? i;
  });
  return { map, firstOf };
}

/** Checks `indexIds` against the Map reference, absent keys included. */
function expectLikeMap(ids: readonly string[], absent: readonly string[] = []): void {
  const { index, firstOf } = indexIds(nodesOf(ids));
  const expected = reference(ids);
  expect([...firstOf]).toStrictEqual(expected.firstOf);
  expect(index.size).toBe(expected.map.size);
  expect(new Map(index)).toStrictEqual(expected.map);
  for (const id of ids) expect(index.get(id)).toBe(expected.map.get(id));
  for (const id of absent) {
    expect(index.get(id)).toBe(expected.map.get(id));
    expect(index.has(id)).toBe(expected.map.has(id));
  }
}

const FNV_PRIME = 0x01000193;

/**
 * `count` distinct strings of one length with the same {@link hashOf}, built from the hash's
 * definition (FNV-1a seeded with the length): a block of two code units `[c, 0]` and another
 * `[c', d]` leave the same state when `(h ^ c) * P` and `(h ^ c') * P` agree on their high 16
 * bits and `d` is the XOR of their low ones; chaining k such pairs gives 2^k strings.
 */
function collidingIds(count: number): string[] {
  const k = Math.ceil(Math.log2(count));
  let h = 0x811c9dc5 ^ (2 * k);
  const blocks: [string, string][] = [];
  for (let j = 0; j < k; j++) {
    const byHigh = new Map<number, number>();
    let pair: [number, number] | undefined;
    for (let c = 0; c < 0x10000 && pair === undefined; c++) {
      const high = Math.imul(h ^ c, FNV_PRIME) >>> 16;
      const other = byHigh.get(high);
      if (other === undefined) byHigh.set(high, c);
      else pair = [other, c];
    }
    if (pair === undefined) throw new Error("no colliding block");
    const x1 = Math.imul(h ^ pair[0], FNV_PRIME);
    const x2 = Math.imul(h ^ pair[1], FNV_PRIME);
    blocks.push([
      String.fromCharCode(pair[0], 0),
      String.fromCharCode(pair[1], (x1 ^ x2) & 0xffff),
    ]);
    h = Math.imul(x1, FNV_PRIME);
  }
  return Array.from({ length: count }, (_, mask) =>
    blocks.map((choice, b) => choice[(mask >> b) & 1]).join(""),
  );
}

describe("indexIds", () => {
  it("indexes first occurrences, in document order, like a Map", () => {
    const { index, firstOf } = indexIds(nodesOf(["a", "b", "a", "c", "b"]));
    expect([...firstOf]).toStrictEqual([0, 1, 0, 3, 1]);
    expect(index.size).toBe(3);
    expect([...index]).toStrictEqual([
      ["a", 0],
      ["b", 1],
      ["c", 3],
    ]);
    expect([...index.keys()]).toStrictEqual(["a", "b", "c"]);
    expect([...index.values()]).toStrictEqual([0, 1, 3]);
    expect([...index.entries()]).toStrictEqual([...index]);
    const seen: string[] = [];
    index.forEach((value, key, map) => {
      seen.push(`${key}=${String(value)}`);
      expect(map).toBe(index);
    });
    expect(seen).toStrictEqual(["a=0", "b=1", "c=3"]);
  });

  it("answers absent keys and keys that are not strings with undefined", () => {
    const { index } = indexIds(nodesOf(["a", "", "b"]));
    expect(index.get("")).toBe(1);
    expect(index.get("z")).toBeUndefined();
    expect(index.has("z")).toBe(false);
    expect((index as ReadonlyMap<unknown, number>).get(0)).toBeUndefined();
    expect((index as ReadonlyMap<unknown, number>).get(null)).toBeUndefined();
  });

  it("matches a Map on any ids, duplicates and long ids included", () => {
    const id = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.nat({ max: 50 }).map((n) => `n${String(n)}`),
      fc.string({ minLength: 200, maxLength: 400 }),
    );
    fc.assert(
      fc.property(
        fc.array(id, { maxLength: 300 }),
        fc.array(id, { maxLength: 20 }),
        (ids, absent) => {
          expectLikeMap(ids, absent);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("matches a Map on 100,000 ids", () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `n${String(i % 70_000)}`);
    expectLikeMap(ids, ["n70000", "n-1", "n"]);
  });

  it("visits every node once, in order, also when it falls back to a Map", () => {
    for (const ids of [
      ["a", "b", "a"],
      ["a", 7, "b"],
    ] as const) {
      const visited: number[] = [];
      indexIds(nodesOf(ids), (i, node) => {
        expect(node.id).toBe(ids[i]);
        visited.push(i);
      });
      expect(visited).toStrictEqual([0, 1, 2]);
    }
  });

  it("falls back to a Map when an id is not a string", () => {
    const { index, firstOf } = indexIds(nodesOf(["a", 7, "a"]));
    expect(index).toBeInstanceOf(Map);
    expect([...firstOf]).toStrictEqual([0, 1, 0]);
  });

  it("falls back to a Map past MAX_COLLISIONS ids with one hash, with the same answers", () => {
    const ids = collidingIds(2 * MAX_COLLISIONS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map(hashOf)).size).toBe(1);
    expect(indexIds(nodesOf(ids)).index).toBeInstanceOf(Map);
    expectLikeMap([...ids, ...ids], ["x"]);
    // Below the bound the table copes, colliding ids and all.
    const few = ids.slice(0, MAX_COLLISIONS / 4);
    expect(indexIds(nodesOf(few)).index).not.toBeInstanceOf(Map);
    expectLikeMap([...few, ...few]);
  });

  it("falls back to a Map when a probe would pass MAX_PROBE slots", () => {
    // More ids than MAX_PROBE that all start at one slot of the 2^k-slot table.
    const n = MAX_PROBE + 8;
    let slots = 16;
    while (slots < 2 * n) slots *= 2;
    const ids: string[] = [];
    for (let k = 0; ids.length < n; k++) {
      const id = `p${String(k)}`;
      if ((hashOf(id) & (slots - 1)) === 0) ids.push(id);
    }
    expect(indexIds(nodesOf(ids)).index).toBeInstanceOf(Map);
    expectLikeMap(ids, ["p-1"]);
  });
});
