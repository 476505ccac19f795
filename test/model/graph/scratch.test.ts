import { describe, expect, it } from "vitest";
import { scratchScope } from "../../../src/model/graph/scratch.js";

describe("scratchScope", () => {
  it("takes zero-filled arrays of the asked length that do not overlap", () => {
    scratchScope((take) => {
      const a = take(5);
      const b = take(3);
      expect([...a]).toStrictEqual([0, 0, 0, 0, 0]);
      expect(b.length).toBe(3);
      a.fill(7);
      expect([...b]).toStrictEqual([0, 0, 0]);
      expect(b.byteOffset).toBeGreaterThanOrEqual(a.byteOffset + a.byteLength);
    });
  });

  it("gives the arrays back when the scope returns, zeroed again when taken next", () => {
    const offset = scratchScope((take) => {
      const a = take(4);
      a.fill(9);
      return a.byteOffset;
    });
    scratchScope((take) => {
      const again = take(4);
      expect(again.byteOffset).toBe(offset);
      expect([...again]).toStrictEqual([0, 0, 0, 0]);
    });
  });

  it("gives them back when the scope throws", () => {
    const offset = scratchScope((take) => take(1).byteOffset);
    expect(() =>
      scratchScope((take) => {
        take(100);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(scratchScope((take) => take(1).byteOffset)).toBe(offset);
  });

  it("nests: an inner scope keeps the outer arrays intact and gives back only its own", () => {
    scratchScope((take) => {
      const outer = take(3);
      outer.set([1, 2, 3]);
      const inner = scratchScope((innerTake) => {
        const a = innerTake(10);
        a.fill(5);
        return a.byteOffset;
      });
      expect([...outer]).toStrictEqual([1, 2, 3]);
      expect(take(2).byteOffset).toBe(inner);
    });
  });

  it("keeps earlier arrays valid when the pool grows, and returns the value of the body", () => {
    const sum = scratchScope((take) => {
      const first = take(8);
      first.fill(3);
      const big = take(1 << 20); // past the pool: a new, larger buffer
      big[big.length - 1] = 1;
      expect([...first]).toStrictEqual(new Array<number>(8).fill(3));
      return first.reduce((a, b) => a + b, 0) + (big[big.length - 1] ?? 0);
    });
    expect(sum).toBe(25);
  });

  it("allocates, without pooling, past 4 Mi elements in use", () => {
    scratchScope((take) => {
      const huge = take((1 << 22) + 1);
      expect(huge.length).toBe((1 << 22) + 1);
      expect(huge.byteOffset).toBe(0);
      expect(huge.buffer.byteLength).toBe(huge.byteLength);
    });
  });
});
