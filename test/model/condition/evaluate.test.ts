import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCondition, evaluateCondition } from "../../../src/model/condition/index.js";

describe("evaluateCondition: truth tables", () => {
  const cases: readonly [string, unknown, boolean][] = [
    ["output.is_complete = true", { is_complete: true }, true],
    ["output.is_complete = true", { is_complete: false }, false],
    ["output.is_complete != true", { is_complete: false }, true],
    ["output.is_complete = false", { is_complete: false }, true],
    ["output.is_complete === true", { is_complete: true }, true],
    ["output.is_complete !== true", { is_complete: true }, false],
    ["output.is_complete == true", { is_complete: true }, true],
    ["output.score >= 0.8", { score: 0.8 }, true],
    ["output.score >= 0.8", { score: 0.79 }, false],
    ["output.score >= 0.8", { score: 1 }, true],
    ["output.a = 2", { a: 1 }, false],
    ["output.a = 2", { a: 2 }, true],
    ["output.a != 2", { a: 1 }, true],
    ["output.a != 2", { a: 2 }, false],
    ["output.a < 2", { a: 1 }, true],
    ["output.a < 2", { a: 2 }, false],
    ["output.a < 2", { a: 3 }, false],
    ["output.a <= 2", { a: 1 }, true],
    ["output.a <= 2", { a: 2 }, true],
    ["output.a <= 2", { a: 3 }, false],
    ["output.a > 2", { a: 1 }, false],
    ["output.a > 2", { a: 2 }, false],
    ["output.a > 2", { a: 3 }, true],
    ["output.a >= 2", { a: 1 }, false],
    ["output.a >= 2", { a: 2 }, true],
    ["output.a >= 2", { a: 3 }, true],
    ["2 < output.a", { a: 3 }, true],
    ['output.status = "approved"', { status: "approved" }, true],
    ['output.status = "approved"', { status: "Approved" }, false],
    ['output.status != "rejected"', { status: "approved" }, true],
    ['output.status != "rejected"', { status: "rejected" }, false],
    ['output.s = ""', { s: "" }, true],
    ['output.s = "a\\"b"', { s: 'a"b' }, true],
    ['output.s = "\\u00e9"', { s: "é" }, true],
    ['output.s = "line\\nbreak"', { s: "line\nbreak" }, true],
    ['output.s = "a === b"', { s: "a === b" }, true],
    ["output.a = output.b", { a: "x", b: "x" }, true],
    ["output.a != output.b", { a: true, b: false }, true],
    // Exact decimals: a double would say false to each of these.
    ["output.a + output.b = 0.3", { a: 0.1, b: 0.2 }, true],
    ["0.1 + 0.2 = 0.3", {}, true],
    ["output.a * 3 = 0.3", { a: 0.1 }, true],
    ["output.a - output.b = 0.1", { a: 0.3, b: 0.2 }, true],
    ["1 / 3 + 1 / 3 + 1 / 3 = 1", {}, true],
    ["output.a / 3 * 3 = output.a", { a: 1 }, true],
    ["output.total / output.count >= 0.7", { total: 7, count: 10 }, true],
    ["output.a = 1.0", { a: 1 }, true],
    ["output.a = 00.500", { a: 0.5 }, true],
    ["-output.a = 5", { a: -5 }, true],
    ["output.a = -(-(5))", { a: 5 }, true],
    ["(output.a + 1) * 2 = 6", { a: 2 }, true],
    ["output.a - 1 - 1 = 0", { a: 2 }, true],
    ["output.a / 2 / 2 = 1", { a: 4 }, true],
    // Numbers from data are read by their shortest decimal text.
    ["output.x = 0.0000001", { x: 1e-7 }, true],
    ["output.x = 1500000000000000000000", { x: 1.5e21 }, true],
    // JSON.parse rounds 9007199254740993 to the double 9007199254740992: that is what is compared.
    ["output.x = 9007199254740993", { x: Number("9007199254740993") }, false],
    ["output.x = 9007199254740992", { x: Number("9007199254740993") }, true],
    ["123456789012345678901234567890 < output.x", { x: 1.2345678901234568e29 }, true],
    ["output.x = -0", { x: -0 }, true],
    ["output.x = 0", { x: -0 }, true],
    ["output.a.b.c = 1", { a: { b: { c: 1 } } }, true],
    ['output.first name = "Ann"', { "first name": "Ann" }, true],
    ["1 < 2", undefined, true],
    ["(output.a = 1)", { a: 1 }, true],
    ["output.a = 1 // a comment", { a: 1 }, true],
  ];
  it.each(cases)("%s with %j is %s", (text, data, value) => {
    expect(evaluateCondition(text, data)).toEqual({ value });
  });

  it("reads BigInt values exactly", () => {
    expect(evaluateCondition("output.big = 10", { big: 10n })).toEqual({ value: true });
    expect(evaluateCondition("output.big > 9007199254740992", { big: 2n ** 53n + 1n })).toEqual({
      value: true,
    });
  });

  it("reads own properties named __proto__ as data", () => {
    const data: unknown = JSON.parse('{"__proto__": 5}');
    expect(evaluateCondition("output.__proto__ = 5", data)).toEqual({ value: true });
  });

  it("reads objects without a prototype", () => {
    const data = Object.create(null) as Record<string, unknown>;
    data.a = 1;
    expect(evaluateCondition("output.a = 1", data)).toEqual({ value: true });
  });

  it("handles numbers near the size bound exactly", () => {
    const max = 1.7976931348623157e308;
    expect(evaluateCondition("output.a * output.a > output.a", { a: max })).toEqual({
      value: true,
    });
    expect(evaluateCondition("output.a * output.a < output.a", { a: 5e-324 })).toEqual({
      value: true,
    });
    expect(evaluateCondition(`output.a = ${"9".repeat(100)}`, { a: 1e100 })).toEqual({
      value: false,
    });
  });
});

describe("evaluateCondition: undecidable", () => {
  const cases: readonly [string, unknown, string, number | undefined][] = [
    // Absent and empty values: never false.
    ["output.x = 1", {}, "output.x is absent", 0],
    ["output.x != 1", {}, "output.x is absent", 0],
    ["output.a.b = 1", { a: {} }, "output.a.b is absent", 0],
    ["output.a.b = 1", { a: null }, "output.a is null", 0],
    ["output.a.b = 1", { a: 5 }, "output.a is a number", 0],
    ["output.a.b = 1", { a: [{ b: 1 }] }, "output.a is a list", 0],
    ["output.a = 1", undefined, "output is undefined", 0],
    ["output.a = 1", null, "output is null", 0],
    ["output.a = 1", "text", "output is a string", 0],
    ["output.x = 1", { x: null }, "output.x is null", 0],
    ["output.x = 1", { x: undefined }, "output.x is undefined", 0],
    ["output.x = 1", { x: {} }, "output.x is an object", 0],
    ["output.x = 1", { x: [] }, "output.x is a list", 0],
    ["output.x = 1", { x: NaN }, "output.x is NaN", 0],
    ["output.x = 1", { x: Infinity }, "output.x is Infinity", 0],
    ["output.x > 1", { x: -Infinity }, "output.x is -Infinity", 0],
    ["1 = output.x", {}, "output.x is absent", 4],
    ["output.a === output.b", { a: 1 }, "output.b is absent", 13],
    // Own properties only.
    ["output.constructor = 1", {}, "output.constructor is absent", 0],
    ["output.__proto__ = 1", {}, "output.__proto__ is absent", 0],
    ["output.toString = 1", {}, "output.toString is absent", 0],
    ["output.constructor.name = 1", {}, "output.constructor is absent", 0],
    ["output.length = 0", [], "output is a list", 0],
    ["output.length = 1", "x", "output is a string", 0],
    // No coercion.
    ["output.a = 1", { a: "1" }, "FEEL does not convert types", 0],
    ["output.a = 1", { a: true }, "FEEL does not convert types", 0],
    ['output.a = "true"', { a: true }, "FEEL does not convert types", 0],
    ["output.a = output.b", { a: 0, b: false }, "FEEL does not convert types", 0],
    ["output.a < output.b", { a: "a", b: "b" }, "equality only", 0],
    ["output.a > output.b", { a: true, b: false }, "equality only", 0],
    ["output.a + 1 = 2", { a: "1" }, "arithmetic needs numbers", 0],
    ["-output.a = 1", { a: "1" }, "arithmetic needs numbers", 0],
    ["output.a / output.b = 1", { a: 1, b: 0 }, "divides by zero", 0],
    ["1 / 0 = 1", {}, "divides by zero", 0],
    [
      "output.a * output.a * output.a * output.a * output.a > 0",
      { a: 1.7976931348623157e308 },
      "too large for exact arithmetic",
      0,
    ],
    // Nothing to evaluate.
    ["output.a >", { a: 1 }, "does not parse", 10],
    ['output.s = "open', { s: "open" }, "does not parse", 11],
    ["output.a = 1 and output.b = 2", { a: 1, b: 2 }, "not simulable", 0],
    ["output.a in [1..2]", { a: 1 }, "not simulable", 0],
    ["output.done", { done: true }, "not a comparison", 0],
    ["output.a = null", { a: null }, "null", 11],
    ['output.a < "b"', { a: "a" }, "equality only", 0],
    ["confidence > 0.5", { confidence: 0.9 }, "'confidence' does not exist", 0],
    ["input.x = 1", { x: 1 }, "'input.x' does not exist", 0],
    ["", {}, "empty", 0],
  ];
  it.each(cases)("%s with %j: %s", (text, data, reason, offset) => {
    const result = evaluateCondition(text, data);
    expect(result).toEqual({ undecidable: expect.stringContaining(reason) as unknown, offset });
  });

  it("never evaluates a natural-language condition", () => {
    expect(evaluateCondition("output.a = 1", { a: 1 }, { language: "text" })).toEqual({
      undecidable: expect.stringContaining("natural-language") as unknown,
    });
  });

  it("survives data that throws when read", () => {
    const hostile = new Proxy(
      {},
      {
        has: () => true,
        getOwnPropertyDescriptor: () => {
          throw new Error("boom");
        },
        get: () => {
          throw new Error("boom");
        },
      },
    );
    const result = evaluateCondition("output.a = 1", hostile);
    expect(result).toEqual({ undecidable: expect.any(String) as unknown, offset: 0 });
    const getter = Object.defineProperty({}, "a", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    expect(evaluateCondition("output.a = 1", getter)).toHaveProperty("undecidable");
  });
});

describe("compileCondition", () => {
  it("parses once and evaluates many times, deterministically", () => {
    const compiled = compileCondition("output.score >= 0.8");
    expect(compiled.analysis.simulable).toBe(true);
    expect(compiled.evaluate({ score: 0.9 })).toEqual({ value: true });
    expect(compiled.evaluate({ score: 0.7 })).toEqual({ value: false });
    expect(compiled.evaluate({})).toEqual({ undecidable: "output.score is absent", offset: 0 });
    expect(compiled.evaluate({ score: 0.9 })).toEqual({ value: true });
  });

  it("gives the reason for a condition it cannot evaluate", () => {
    const compiled = compileCondition("output.a = 1 or output.b = 1");
    expect(compiled.evaluate({ a: 1 })).toEqual({
      undecidable: expect.stringContaining("'or'") as unknown,
      offset: 0,
    });
  });
});

/** The exact decimal text of `scaled / 10^6`, shortest form. */
function decimalText(scaled: bigint): string {
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const whole = (magnitude / 1_000_000n).toString();
  const fraction = (magnitude % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

describe("evaluateCondition: properties", () => {
  it("never throws on arbitrary conditions and data", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), fc.jsonValue(), (text, data) => {
        const result = evaluateCondition(text, data);
        if ("value" in result) expect(typeof result.value).toBe("boolean");
        else expect(typeof result.undecidable).toBe("string");
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on simulable conditions over arbitrary data", () => {
    const conditions = [
      "output.a = 1",
      "output.a.b < output.c",
      'output.a != "x"',
      "output.a + output.b * output.c / output.d >= -output.e",
      "output.__proto__ = output.constructor",
    ];
    fc.assert(
      fc.property(fc.constantFrom(...conditions), fc.anything(), (text, data) => {
        const result = evaluateCondition(text, data);
        expect("value" in result || "undecidable" in result).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JS on integer comparisons", () => {
    const ops = ["<", "<=", ">", ">=", "=", "!="] as const;
    const js = {
      "<": (a: number, b: number) => a < b,
      "<=": (a: number, b: number) => a <= b,
      ">": (a: number, b: number) => a > b,
      ">=": (a: number, b: number) => a >= b,
      "=": (a: number, b: number) => a === b,
      "!=": (a: number, b: number) => a !== b,
    };
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.maxSafeInteger(), fc.constantFrom(...ops), (a, b, op) => {
        expect(evaluateCondition(`output.a ${op} output.b`, { a, b })).toEqual({
          value: js[op](a, b),
        });
      }),
      { numRuns: 500 },
    );
  });

  it("adds decimals exactly", () => {
    const scaled = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n });
    fc.assert(
      fc.property(scaled, scaled, (a, b) => {
        const data = {
          a: Number(decimalText(a)),
          b: Number(decimalText(b)),
          c: Number(decimalText(a + b)),
        };
        expect(evaluateCondition("output.a + output.b = output.c", data)).toEqual({ value: true });
        expect(evaluateCondition("output.c - output.b = output.a", data)).toEqual({ value: true });
        expect(evaluateCondition(`output.a + output.b = ${decimalText(a + b)}`, data)).toEqual({
          value: true,
        });
      }),
      { numRuns: 500 },
    );
  });
});
