/**
 * The parser-free fast path for `output.<field…> <op> <literal>` conditions: whatever it accepts,
 * it must give exactly the analysis and the compiled comparison the lezer-feel parser gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeCondition, evaluateCondition } from "../../../src/model/condition/index.js";
import { parseFeel } from "../../../src/model/condition/feel.js";
import { simpleAnalysis, simpleComparison } from "../../../src/model/condition/simple.js";

/** Words that lezer-feel may read specially after a dot, next to plain names. */
const NAMES = [
  "a",
  "route",
  "_",
  "_x",
  "a_b",
  "A1",
  "score",
  "date",
  "time",
  "duration",
  "string",
  "list",
  "count",
  "is",
  "item",
  "output",
  "input",
  "and",
  "or",
  "not",
  "in",
  "of",
  "if",
  "for",
  "some",
  "every",
  "instance",
  "between",
  "true",
  "false",
  "null",
  "then",
  "else",
  "return",
  "function",
  "external",
  "satisfies",
];
const name = fc.oneof(fc.constantFrom(...NAMES), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/));
const literal = fc.oneof(
  fc.nat().map(String),
  fc.stringMatching(/^[0-9]{1,30}(\.[0-9]{1,30})?$/),
  fc.constantFrom("true", "false", "null", '""', '"a b"', '"é"', '"\\n"', '"1e3"', "1e3", "-1"),
  fc.string({ unit: "binary", maxLength: 6 }).map((s) => `"${s}"`),
);
const condition = fc
  .tuple(
    fc.array(name, { minLength: 1, maxLength: 4 }),
    fc.constantFrom(" ", "", "\t", "  ", "\n"),
    fc.constantFrom("=", "!=", "<", "<=", ">", ">=", "==", "==="),
    literal,
    fc.constantFrom("", " "),
  )
  .map(
    ([path, space, op, value, pad]) =>
      `${pad}output.${path.join(".")}${space}${op}${space}${value}`,
  );

describe("simpleComparison", () => {
  it("property: whatever it accepts, the parser analyses and compiles the same way", () => {
    let accepted = 0;
    fc.assert(
      fc.property(condition, (text) => {
        const fast = simpleComparison(text);
        if (fast === undefined) return;
        accepted += 1;
        expect(fast).toEqual(parseFeel(text));
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(150); // the generator also makes texts it must refuse
  });

  it("property: takes exactly the texts the former regular expression took", () => {
    // The regular expression the scan replaced, kept as the reference of the accepted form.
    const former =
      /^output((?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t]*(<=|>=|!=|=|<|>)[ \t]*([0-9]+(?:\.[0-9]+)?|"[^"\\\r\n\uD800-\uDFFF]*"|true|false)$/;
    const reserved =
      /\.(and|between|else|every|external|false|for|function|if|in|instance|not|null|of|or|return|satisfies|some|then|true)(?![A-Za-z0-9_])/;
    const noise = fc.stringMatching(/^[ \t.a-z0-9<>=!"]{0,4}$/);
    const text = fc.oneof(
      condition,
      fc.tuple(condition, noise).map(([c, n]) => c + n),
    );
    fc.assert(
      fc.property(text, (t) => {
        const match = former.exec(t);
        const digits = (match?.[3] ?? "").replace(".", "");
        const equality = match?.[2] === "=" || match?.[2] === "!=";
        const ordered = match !== null && !/^[0-9]/.test(match[3] ?? "") && !equality;
        const segments = (match?.[1] ?? "").split(".").length - 1;
        const expected =
          match !== null &&
          !reserved.test(match[1] ?? "") &&
          segments <= 100 &&
          digits.length <= 100 &&
          !ordered;
        expect(simpleAnalysis(t) !== undefined).toBe(expected);
        expect(simpleComparison(t) !== undefined).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it("property: the analysis alone is the parser's analysis", () => {
    fc.assert(
      fc.property(condition, (text) => {
        const fast = simpleAnalysis(text);
        if (fast !== undefined) expect(fast).toEqual(parseFeel(text).analysis);
      }),
      { numRuns: 2000 },
    );
  });

  it("shares one frozen analysis between conditions on one field, and only between those", () => {
    const route = simpleAnalysis("output.route = 1");
    expect(simpleAnalysis("output.route = 2")).toBe(route);
    expect(simpleAnalysis("output.routeX = 1")?.fields).toEqual(["output.routeX"]);
    expect(simpleAnalysis("output.route >= 3")?.fields).toEqual(["output.route"]);
    expect(simpleAnalysis("output.rout = 1")?.fields).toEqual(["output.rout"]);
    expect(simpleAnalysis("output.route.a = 1")?.fields).toEqual(["output.route.a"]);
    expect(Object.isFrozen(route?.fields)).toBe(true);
  });

  it.each([
    ["a string ordered", 'output.a >= "b"'],
    ["a boolean ordered", "output.a < true"],
    ["an unclosed string", 'output.a = "b'],
    ["a lone quote", 'output.a = "'],
    ["a trailing dot", "output.a = 1."],
    ["two dots", "output.a = 1.2.3"],
    ["a truthy word", "output.a = truex"],
    ["an empty segment", "output..a = 1"],
    ["no path", "output = 1"],
    ["a root with a suffix", "outputs.a = 1"],
    ["a lone !", "output.a ! 1"],
    ["nothing after the operator", "output.a = "],
  ])("refuses %s in the scan as well", (_what, text) => {
    expect(simpleAnalysis(text)).toBeUndefined();
    expect(simpleComparison(text)).toBeUndefined();
  });

  it("accepts every BMP character in a string except surrogates, as the parser does", () => {
    for (let c = 0; c < 0x10000; c += 1) {
      const text = `output.a = "x${String.fromCharCode(c)}y"`;
      const fast = simpleComparison(text);
      const surrogate = c >= 0xd800 && c <= 0xdfff;
      const special = c === 0x22 || c === 0x5c || c === 0x0a || c === 0x0d;
      expect(fast === undefined).toBe(surrogate || special);
      if (fast !== undefined && c % 97 === 0) expect(fast).toEqual(parseFeel(text));
    }
  });

  it("builds the analysis and comparison of a comparison with a literal", () => {
    const fast = simpleComparison('output.order.status != "open"');
    expect(fast?.analysis).toEqual({
      ok: true,
      simulable: true,
      structured: true,
      fields: ["output.order.status"],
      rewrites: [],
      problems: [],
    });
    expect(fast?.comparison).toEqual({
      op: "!=",
      left: { kind: "field", path: ["order", "status"], offset: 0, label: "output.order.status" },
      right: { kind: "string", value: "open", offset: 23, label: '"open"' },
      offset: 0,
      label: 'output.order.status != "open"',
    });
    expect(Object.isFrozen(fast?.analysis)).toBe(true);
  });

  it.each([
    ["a keyword in the path", "output.and = 1"],
    ["a JS operator (rewritten and reported by the parser path)", "output.a == 1"],
    ["leading whitespace", " output.a = 1"],
    ["a root other than output", "input.a = 1"],
    ["a negative number", "output.a = -1"],
    ["an exponent", "output.a = 1e3"],
    ["over 100 digits", `output.a = ${"1".repeat(101)}`],
    ["an escape in a string", 'output.a = "\\n"'],
    ["a string ordered with <", 'output.a < "b"'],
    ["null", "output.a = null"],
    ["two comparisons", "output.a = 1 and output.b = 2"],
    ["a path of 101 segments", `output${".a".repeat(101)} = 1`],
    ["over the length limit", `output.a = "${"x".repeat(10_000)}"`],
  ])("leaves %s to the parser", (_what, text) => {
    expect(simpleComparison(text)).toBeUndefined();
  });

  it("takes paths up to 100 segments, which the parser still finds simulable", () => {
    const text = `output${".a".repeat(100)} = 1`;
    expect(simpleComparison(text)).toEqual(parseFeel(text));
    expect(analyzeCondition(`output${".a".repeat(101)} = 1`).simulable).toBe(true);
  });

  it("analyses a decision's 100,000 distinct cases, each with its own field and value", () => {
    const texts = Array.from({ length: 100_000 }, (_, i) => `output.route${i % 7} = ${i}`);
    const analyses = texts.map((t) => analyzeCondition(t));
    expect(analyses.every((a) => a.simulable && a.problems.length === 0)).toBe(true);
    expect(analyses[99_999]?.fields).toEqual(["output.route4"]);
    expect(evaluateCondition(texts[99_999] ?? "", { route4: 99_999 })).toEqual({ value: true });
    expect(evaluateCondition(texts[12] ?? "", { route5: 13 })).toEqual({ value: false });
  });
});
