/** The importers' JSON helpers: `cloneJson` copies deep values iteratively and keeps keys as data. */
import { describe, expect, it } from "vitest";
import { cloneJson } from "../../src/interop/json.js";

/** `{ d: { d: ... { d: leaf } } }`, `depth` levels, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = { d: value, e: [i] };
  return value;
}

interface Level {
  readonly d: unknown;
  readonly e: readonly number[];
}

/** The levels of a {@link nested} value, walked without recursion, then its leaf. */
function levelsOf(value: unknown): { levels: Level[]; leaf: unknown } {
  const levels: Level[] = [];
  let current = value;
  while (typeof current === "object" && current !== null && "d" in current) {
    levels.push(current as Level);
    current = (current as Level).d;
  }
  return { levels, leaf: current };
}

describe("cloneJson", () => {
  it("copies a 10,000-deep value without exhausting the stack, sharing nothing", () => {
    const source = levelsOf(nested(10_000, "leaf"));
    const copy = levelsOf(cloneJson(nested(10_000, "leaf")));
    expect(copy.levels).toHaveLength(10_000);
    expect(copy.leaf).toBe("leaf");
    expect(copy.levels.map((l) => l.e[0])).toEqual(source.levels.map((l) => l.e[0]));
    const original = nested(3, "leaf");
    const shallow = levelsOf(cloneJson(original));
    levelsOf(original).levels.forEach((level, k) => {
      expect(shallow.levels[k]).not.toBe(level);
      expect(shallow.levels[k]?.e).not.toBe(level.e);
    });
  });

  it("copies a `__proto__` key at any depth as data, never as the prototype", () => {
    const source = JSON.parse('{"a":{"__proto__":{"polluted":true},"b":[{"__proto__":1}]}}') as {
      a: Record<string, unknown>;
    };
    const copy = cloneJson(source);
    expect(Object.keys(copy.a)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy.a, "__proto__")?.value).toEqual({
      polluted: true,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
  });

  it("keeps leaves, array holes and a subtree shared twice (copied twice)", () => {
    const shared = { x: 1 };
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    const source = { a: shared, b: shared, list: [1, , "s", null, true] };
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(copy.a).not.toBe(copy.b);
    expect(1 in copy.list).toBe(false);
    expect(copy.list).toHaveLength(5);
    expect(cloneJson("text")).toBe("text");
    expect(cloneJson(null)).toBeNull();
  });

  it("refuses a value that contains itself with a TypeError", () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => cloneJson(cyclic)).toThrow(TypeError);
  });
});
