import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_RATIONAL_BITS,
  add,
  compare,
  divide,
  formatRational,
  fromBigInt,
  fromNumber,
  multiply,
  negate,
  parseDecimal,
  subtract,
} from "../../../src/model/condition/decimal.js";
import type { Rational } from "../../../src/model/condition/decimal.js";

function dec(text: string): Rational {
  const parsed = parseDecimal(text, true);
  if (!parsed.ok) throw new Error(`bad test literal ${text}`);
  return parsed.value;
}

function show(value: Rational | undefined): string | undefined {
  return value === undefined ? undefined : formatRational(value);
}

describe("parseDecimal", () => {
  const valid: readonly [string, string][] = [
    ["0", "0"],
    ["-0", "0"],
    ["12", "12"],
    ["-12", "-12"],
    ["0.1", "1/10"],
    ["0.50", "1/2"],
    ["00.50", "1/2"],
    [".5", "1/2"],
    ["-.5", "-1/2"],
    ["+3", "3"],
    ["1.25", "5/4"],
    ["3.333", "3333/1000"],
    ["9".repeat(100), "9".repeat(100)],
  ];
  it.each(valid)("%s → %s", (text, expected) => {
    expect(show(dec(text))).toBe(expected);
    expect(parseDecimal(text)).toEqual({ ok: true, value: dec(text) });
  });

  const exponents: readonly [string, string][] = [
    ["1e-7", "1/10000000"],
    ["1.5e+21", "1500000000000000000000"],
    ["-2.5E3", "-2500"],
    ["5e-324", `1/2${"0".repeat(323)}`],
  ];
  it.each(exponents)("%s → %s with exponents allowed", (text, expected) => {
    expect(show(dec(text))).toBe(expected);
    expect(parseDecimal(text)).toEqual({ ok: false, reason: "exponent" });
  });

  const invalid: readonly [string, string][] = [
    ["", "format"],
    ["-", "format"],
    [".", "format"],
    ["1.", "format"],
    ["- 1", "format"],
    ["1 ", "format"],
    ["1.2.3", "format"],
    ["abc", "format"],
    ["1e", "exponent"],
    ["9".repeat(101), "too-many-digits"],
    ["0." + "1".repeat(100), "too-many-digits"],
  ];
  it.each(invalid)("%j is refused (%s)", (text, reason) => {
    expect(parseDecimal(text)).toEqual({ ok: false, reason });
  });

  it("refuses malformed and oversized exponents", () => {
    expect(parseDecimal("1e", true)).toEqual({ ok: false, reason: "format" });
    expect(parseDecimal("1e+", true)).toEqual({ ok: false, reason: "format" });
    expect(parseDecimal("1e99999", true)).toEqual({ ok: false, reason: "format" });
    expect(parseDecimal("1e401", true)).toEqual({ ok: false, reason: "too-many-digits" });
  });
});

describe("fromNumber", () => {
  const cases: readonly [number, string | undefined][] = [
    [0, "0"],
    [-0, "0"],
    [0.1, "1/10"],
    [0.2, "1/5"],
    [0.3, "3/10"],
    [1e-7, "1/10000000"],
    [1.5e21, "1500000000000000000000"],
    [-123.456, "-15432/125"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    [NaN, undefined],
    [Infinity, undefined],
    [-Infinity, undefined],
  ];
  it.each(cases)("%s → %s", (value, expected) => {
    expect(show(fromNumber(value))).toBe(expected);
  });

  it("reads every finite double exactly as its shortest decimal text", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const r = fromNumber(value);
        expect(r).toBeDefined();
        if (r !== undefined) expect(compare(r, dec(String(value)))).toBe(0);
      }),
    );
  });
});

describe("arithmetic", () => {
  const cases: readonly [
    string,
    (a: Rational, b: Rational) => Rational | undefined,
    string,
    string,
    string | undefined,
  ][] = [
    ["add", add, "0.1", "0.2", "3/10"],
    ["add", add, "-1", "1", "0"],
    ["subtract", subtract, "0.3", "0.1", "1/5"],
    ["multiply", multiply, "0.1", "3", "3/10"],
    ["multiply", multiply, "-2", "-0.5", "1"],
    ["divide", divide, "10", "4", "5/2"],
    ["divide", divide, "1", "3", "1/3"],
    ["divide", divide, "1", "0", undefined],
    ["divide", divide, "0", "5", "0"],
  ];
  it.each(cases)("%s(%s, %s) = %s", (_name, op, a, b, expected) => {
    expect(show(op(dec(a), dec(b)))).toBe(expected);
  });

  it("negates", () => {
    expect(show(negate(dec("0.5")))).toBe("-1/2");
    expect(show(negate(dec("0")))).toBe("0");
  });

  it("compares exactly", () => {
    expect(compare(dec("0.1"), dec("0.10"))).toBe(0);
    expect(compare(dec("0.333"), divide(dec("1"), dec("3")) ?? dec("0"))).toBe(-1);
    expect(compare(dec("-1"), dec("-2"))).toBe(1);
    expect(compare(add(dec("0.1"), dec("0.2")) ?? dec("0"), dec("0.3"))).toBe(0);
  });

  it("refuses results beyond the size bound instead of growing without end", () => {
    const big = fromBigInt(2n ** BigInt(MAX_RATIONAL_BITS - 1));
    expect(big).toBeDefined();
    if (big === undefined) return;
    expect(multiply(big, big)).toBeUndefined();
    expect(add(big, big)).toBeUndefined();
    expect(fromBigInt(2n ** BigInt(MAX_RATIONAL_BITS))).toBeUndefined();
  });

  it("agrees with BigInt arithmetic on integers", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        (a, b) => {
          const ra = fromBigInt(a);
          const rb = fromBigInt(b);
          if (ra === undefined || rb === undefined) throw new Error("unreachable");
          expect(show(add(ra, rb))).toBe((a + b).toString());
          expect(show(subtract(ra, rb))).toBe((a - b).toString());
          expect(show(multiply(ra, rb))).toBe((a * b).toString());
          expect(compare(ra, rb)).toBe(a < b ? -1 : a > b ? 1 : 0);
        },
      ),
    );
  });
});
