import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rewriteJsOperators } from "../../../src/model/condition/index.js";
import { originalOffset } from "../../../src/model/condition/rewrite.js";

describe("rewriteJsOperators", () => {
  const cases: readonly [string, string, readonly [string, string, number][]][] = [
    ["output.is_complete === true", "output.is_complete = true", [["===", "=", 19]]],
    ["output.is_complete !== true", "output.is_complete != true", [["!==", "!=", 19]]],
    ["output.x == 1", "output.x = 1", [["==", "=", 9]]],
    ["output.x===1", "output.x=1", [["===", "=", 8]]],
    [
      "output.a === 1 and output.b !== 2",
      "output.a = 1 and output.b != 2",
      [
        ["===", "=", 9],
        ["!==", "!=", 28],
      ],
    ],
    // Untouched: FEEL operators, strings, comments.
    ["output.x = 1", "output.x = 1", []],
    ["output.x != 1", "output.x != 1", []],
    ["output.x <= 1", "output.x <= 1", []],
    ["output.x >= 1", "output.x >= 1", []],
    ['output.s = "a === b"', 'output.s = "a === b"', []],
    ['output.s = "a \\" === b"', 'output.s = "a \\" === b"', []],
    ['output.s = "a \\\\" == "b"', 'output.s = "a \\\\" = "b"', [["==", "=", 18]]],
    ["output.x = 1 // was ===", "output.x = 1 // was ===", []],
    ["output.x = 1 /* was !== */", "output.x = 1 /* was !== */", []],
    ["output.x // ==\n == 1", "output.x // ==\n = 1", [["==", "=", 16]]],
    // `>=` keeps its `=`, so `>==` stays a syntax error rather than becoming `>=`.
    ["output.x >== 1", "output.x >== 1", []],
    ["output.x <== 1", "output.x <== 1", []],
    // An unterminated string or comment protects everything after it.
    ['output.s = "a === b', 'output.s = "a === b', []],
    ["output.x /* === 1", "output.x /* === 1", []],
    ["", "", []],
  ];
  it.each(cases)("%j → %j", (input, text, rewrites) => {
    const result = rewriteJsOperators(input);
    expect(result.text).toBe(text);
    expect(result.rewrites).toEqual(rewrites.map(([from, to, offset]) => ({ from, to, offset })));
  });

  it("returns the same string when nothing is rewritten", () => {
    const text = "output.a = 1";
    expect(rewriteJsOperators(text).text).toBe(text);
  });

  // The timeout guards against a regression to quadratic work: the call takes about 50 ms, and
  // 20 s (400×) is beyond what a loaded machine adds, while quadratic work on 600,000
  // characters is not.
  it("rewrites long hostile input, leaving what is inside strings alone", () => {
    const text = '"'.repeat(200_000) + "=".repeat(200_000) + "\\".repeat(200_000);
    const result = rewriteJsOperators(text);
    // 200,000 quotes are 100,000 closed empty strings; the run of = outside them is read as
    // 66,666 `===` and one `==`, each rewritten to `=`; the backslashes are left alone.
    expect(result.rewrites).toHaveLength(66_667);
    expect(result.rewrites.every((r) => r.offset >= 200_000 && r.to === "=")).toBe(true);
    expect(result.text).toBe('"'.repeat(200_000) + "=".repeat(66_667) + "\\".repeat(200_000));
  }, 20_000);

  it("never throws, and only shortens operators outside strings", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("=", "!", '"', "\\", "a", " ", "/", "*", "<", "\n") }),
        (text) => {
          const result = rewriteJsOperators(text);
          const removed = result.rewrites.reduce((n, r) => n + r.from.length - r.to.length, 0);
          expect(result.text.length).toBe(text.length - removed);
          for (const r of result.rewrites) expect(text.startsWith(r.from, r.offset)).toBe(true);
        },
      ),
    );
  });
});

describe("originalOffset", () => {
  const original = "output.x === 1 and output.y !== 2";
  const { text, rewrites } = rewriteJsOperators(original);
  const cases: readonly [number, number][] = [
    [0, 0],
    [8, 8],
    [9, 9], // the `=` that replaced `===`
    [10, 12],
    [11, 13],
    [text.indexOf("!="), original.indexOf("!==")],
    [text.indexOf("!=") + 1, original.indexOf("!==") + 1],
    [text.indexOf("!=") + 2, original.indexOf("!==") + 3],
    [text.length, original.length],
  ];
  it.each(cases)("rewritten offset %i → original %i", (offset, expected) => {
    expect(originalOffset(rewrites, offset)).toBe(expected);
  });

  it("maps every character outside a rewrite to the same character", () => {
    for (let i = 0; i < text.length; i += 1) {
      const j = originalOffset(rewrites, i);
      if (text[i] !== "=") expect(original[j]).toBe(text[i]);
    }
  });
});
