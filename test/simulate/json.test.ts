/**
 * The simulator's JSON copy and text: the same values as `JSON.parse(JSON.stringify(x))` and
 * `JSON.stringify(x)`, at depths where those throw a RangeError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlainJson, jsonCopy, jsonText } from "../../src/simulate/json.js";

/** `{ d: { d: ... leaf } }`, `depth` levels, built without recursion. */
function deep(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
}

/** The leaf under `depth` levels of `d`, read without recursion. */
function bottom(value: unknown, depth: number): unknown {
  let current = value;
  for (let i = 0; i < depth; i++) current = (current as { d: unknown }).d;
  return current;
}

/**
 * Any value, plain or not: undefined members, -0, NaN, holes, null-prototype objects, __proto__
 * keys, dates, boxed values.
 */
const anyValue = fc.anything({
  withBoxedValues: true,
  withDate: true,
  withNullPrototype: true,
  withSparseArray: true,
  withObjectString: true,
  maxDepth: 4,
});

const samples: readonly [string, unknown][] = [
  ["scalars and nesting", { a: 1, b: "x", c: [true, null, { d: [2.5] }], e: {} }],
  ["members without a JSON form", { u: undefined, f: () => 1, s: Symbol("s"), k: 1 }],
  ["array items without a JSON form", [undefined, () => 1, Symbol("s"), 1]],
  ["numbers JSON cannot write", { nan: Number.NaN, inf: Infinity, negZero: -0 }],
  ["toJSON and dates", { when: new Date(0), custom: { toJSON: (key: string) => `at ${key}` } }],
  [
    "boxed primitives",
    { n: Object(3) as unknown, s: Object("t") as unknown, b: Object(false) as unknown },
  ],
  ["integer-like keys", { b: 1, 10: 2, 2: 3, a: 4 }],
  ["an array with a hole", [1, , 3]], // eslint-disable-line no-sparse-arrays
];

/** What JSON makes of `value` as the member `d` of an object. */
function reference(value: unknown): unknown {
  return (JSON.parse(JSON.stringify({ d: value })) as { d?: unknown }).d;
}

describe("jsonCopy", () => {
  it.each(samples)("copies %s as JSON.parse(JSON.stringify(x)) does", (_name, value) => {
    expect(jsonCopy(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
  });

  // Nested 10,000 deep, the copy cannot be JSON.parse(JSON.stringify(x)): the explicit stack runs.
  it.each(samples)("copies %s 10,000 levels down as JSON does", (_name, value) => {
    expect(bottom(jsonCopy(deep(10_000, value)), 10_000)).toStrictEqual(reference(value));
  });

  it("gives what the round trip gives, key order and prototypes included, for any value", () => {
    // Plain data takes the direct copy; everything else (undefined members, -0, NaN, holes,
    // null-prototype objects, __proto__ keys, dates, boxed values) the round trip.
    fc.assert(
      fc.property(anyValue, (value) => {
        const text = JSON.stringify(value) as string | undefined;
        const copy = jsonCopy(value);
        if (text === undefined) return copy === undefined;
        const expected: unknown = JSON.parse(text);
        expect(copy).toStrictEqual(expected);
        // toStrictEqual ignores key order; the text does not.
        expect(JSON.stringify(copy)).toBe(text);
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it("copies plain data detached from the original", () => {
    const original = { a: [1, { b: "c" }], d: { e: null } };
    const copy = jsonCopy(original) as typeof original;
    expect(copy).toStrictEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a[1]).not.toBe(original.a[1]);
    expect(copy.d).not.toBe(original.d);
  });

  it("turns negative zero into zero, as JSON does, at any depth", () => {
    expect(Object.is((jsonCopy({ z: -0 }) as { z: number }).z, 0)).toBe(true);
    expect(Object.is(bottom(jsonCopy(deep(10_000, -0)), 10_000), 0)).toBe(true);
  });

  it("keeps a __proto__ key as data, as JSON.parse does, at any depth", () => {
    const value: unknown = JSON.parse('{"__proto__":{"polluted":"yes"},"a":1}');
    for (const copy of [jsonCopy(value), bottom(jsonCopy(deep(10_000, value)), 10_000)]) {
      expect(Object.keys(copy as object)).toEqual(["__proto__", "a"]);
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("returns undefined for a value without a JSON form", () => {
    expect(jsonCopy(undefined)).toBeUndefined();
    expect(jsonCopy(() => 1)).toBeUndefined();
  });

  it("throws a TypeError on a BigInt and on a cycle, at any depth", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const bad of [{ n: 1n }, cyclic]) {
      expect(() => jsonCopy(bad)).toThrow(TypeError);
      expect(() => jsonCopy(deep(10_000, bad))).toThrow(TypeError);
    }
  });

  it("copies a shared (not cyclic) object once per place, as JSON does, at any depth", () => {
    const shared = { x: 1 };
    const copy = bottom(jsonCopy(deep(10_000, { a: shared, b: [shared] })), 10_000) as {
      a: object;
      b: object[];
    };
    expect(copy).toEqual({ a: { x: 1 }, b: [{ x: 1 }] });
    expect(copy.a).not.toBe(copy.b[0]);
  });

  it("copies an object nested 10,000 deep, detached from the original", () => {
    const original = deep(10_000, [1, "leaf"]);
    const copy = jsonCopy(original);
    expect(bottom(copy, 10_000)).toEqual([1, "leaf"]);
    (bottom(original, 10_000) as unknown[]).push("later");
    expect(bottom(copy, 10_000)).toEqual([1, "leaf"]);
  });
});

describe("isPlainJson", () => {
  class Items extends Array<number> {}
  class Point {
    x = 1;
  }
  const valid: readonly [string, unknown][] = [
    ["scalars and nesting", { a: 1, b: "x", c: [true, null, { d: [2.5] }], e: {} }],
    ["a string", "s"],
    ["null", null],
    ["an empty array", []],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 })],
    ["integer-like keys", { b: 1, 10: 2, a: 4 }],
    ["64 levels", deep(63, { leaf: 1 })],
    ["a shared (not cyclic) object", ((x) => ({ a: x, b: [x] }))({ x: 1 })],
  ];
  const invalid: readonly [string, unknown][] = [
    ["an undefined member", { u: undefined, k: 1 }],
    ["a function member", { f: () => 1 }],
    ["a symbol in an array", [Symbol("s")]],
    ["negative zero", { z: -0 }],
    ["NaN", [Number.NaN]],
    ["an infinity", { i: -Infinity }],
    ["a BigInt", { n: 1n }],
    ["a date", { when: new Date(0) }],
    ["toJSON", { custom: { toJSON: () => 1 } }],
    ["a boxed number", { n: Object(3) as unknown }],
    ["a class instance", { p: new Point() }],
    ["an Array subclass", { items: Items.from([1]) }],
    ["a hole", [1, , 3]], // eslint-disable-line no-sparse-arrays
    ["a __proto__ key", JSON.parse('{"__proto__":{"a":1}}') as unknown],
    ["65 levels", deep(64, { leaf: 1 })],
    ["undefined", undefined],
  ];

  it.each(valid)("takes %s as it is", (_name, value) => {
    expect(isPlainJson(value)).toBe(true);
  });

  it.each(invalid)("leaves %s to the copy", (_name, value) => {
    expect(isPlainJson(value)).toBe(false);
  });

  it("says so only for a value the round trip gives back equal, for any value", () => {
    let plain = 0;
    fc.assert(
      fc.property(anyValue, (value) => {
        if (!isPlainJson(value)) return true;
        plain++;
        const text = JSON.stringify(value);
        expect(jsonCopy(value)).toEqual(value);
        expect(JSON.stringify(jsonCopy(value))).toBe(text);
        return true;
      }),
      { numRuns: 500 },
    );
    // The generator reaches plain values, or the property above says nothing.
    expect(plain).toBeGreaterThan(50);
  });

  it("refuses a cycle, stopping at its depth instead of looping", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(isPlainJson(cyclic)).toBe(false);
  });
});

describe("jsonText", () => {
  it.each(samples)("writes %s as JSON.stringify does", (_name, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it("writes an object nested 10,000 deep", () => {
    const text = jsonText(deep(10_000, { leaf: [1, "x"] }));
    expect(text).toBe('{"d":'.repeat(10_000) + '{"leaf":[1,"x"]}' + "}".repeat(10_000));
  });

  it("writes a deep value with members JSON drops, as JSON.stringify would", () => {
    const text = jsonText(deep(10_000, { u: undefined, n: Number.NaN, a: [undefined] }));
    expect(text?.slice(5 * 10_000, -10_000)).toBe('{"n":null,"a":[null]}');
  });
});
