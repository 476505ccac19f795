import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_CONDITION_LENGTH,
  analyzeCondition,
  applyRewrites,
} from "../../../src/model/condition/index.js";
import type { ConditionAnalysis } from "../../../src/model/condition/index.js";

/** The problems of an analysis as [kind, offset, construct] triples, messages left out. */
function problemsOf(analysis: ConditionAnalysis): [string, number, string | undefined][] {
  return analysis.problems.map((p) => [p.kind, p.offset, p.construct]);
}

describe("analyzeCondition: the S-FEEL allow-list", () => {
  const simulable: readonly [string, readonly string[]][] = [
    ["output.is_complete = true", ["output.is_complete"]],
    ["output.is_complete = false", ["output.is_complete"]],
    ["output.score >= 0.8", ["output.score"]],
    ['output.status != "rejected"', ["output.status"]],
    ["output.a = 1", ["output.a"]],
    ["output.a != 1", ["output.a"]],
    ["output.a < 1", ["output.a"]],
    ["output.a <= 1", ["output.a"]],
    ["output.a > 1", ["output.a"]],
    ["output.a >= 1", ["output.a"]],
    ["output.a=1", ["output.a"]],
    ["output.a.b.c = 1", ["output.a.b.c"]],
    ["output.a + output.b = 0.3", ["output.a", "output.b"]],
    ["output.a - 1 > 0", ["output.a"]],
    ["output.a * 2 <= 10", ["output.a"]],
    ["output.a / 4 = 0.25", ["output.a"]],
    ["output.a = -1", ["output.a"]],
    ["output.a = -.5", ["output.a"]],
    ["output.a = .5", ["output.a"]],
    ["-output.a = 1", ["output.a"]],
    ["-(output.a) = -(-1)", ["output.a"]],
    ["(output.a + 1) * 2 = 4", ["output.a"]],
    ["(output.a = 1)", ["output.a"]],
    ["((output.a = 1))", ["output.a"]],
    ['output.s = "a\\"b"', ["output.s"]],
    ['output.s = "\\u0041\\n\\t\\r\\\\"', ["output.s"]],
    ['output.s = ""', ["output.s"]],
    ["output.a = output.b", ["output.a", "output.b"]],
    ["output.first name = 1", ["output.first name"]],
    ["output.a? = 1", ["output.a?"]],
    ["output.a = 1 // why", ["output.a"]],
    ["/* why */ output.a = 1", ["output.a"]],
    ["  output.a = 1  ", ["output.a"]],
    ["1 < 2", []],
    ['"a" = "a"', []],
    ["output.a + output.a * output.b = output.a", ["output.a", "output.b"]],
  ];
  it.each(simulable)("%s is simulable and reads %j", (text, fields) => {
    expect(analyzeCondition(text)).toEqual({
      ok: true,
      simulable: true,
      structured: fields.length > 0,
      fields,
      rewrites: [],
      problems: [],
    });
  });

  const notSimulable: readonly [string, string, number][] = [
    ["output.a = 1 and output.b = 2", "Conjunction", 0],
    ["output.a = 1 or output.b = 2", "Disjunction", 0],
    ["not(output.a = 1)", "FunctionInvocation", 0],
    ["count(output.items) > 1", "FunctionInvocation", 0],
    ["output.a.b(1) = 2", "FunctionInvocation", 0],
    ["if output.a > 1 then true else false", "IfExpression", 0],
    ["output.a in [1..5]", "in", 0],
    ["output.a in (1, 2)", "in", 0],
    ["output.a between 1 and 5", "between", 0],
    ["output.a instance of number", "InstanceOfExpression", 0],
    ["some x in output.items satisfies x > 1", "QuantifiedExpression", 0],
    ["every x in output.items satisfies x > 1", "QuantifiedExpression", 0],
    ["for x in output.items return x", "ForExpression", 0],
    ["function(x) x", "FunctionDefinition", 0],
    ["output.items[1] = 2", "FilterExpression", 0],
    ["output.items[1].b = 2", "FilterExpression", 0],
    ["[1, 2] = output.a", "List", 0],
    ["{a: 1}.a = output.a", "Context", 0],
    ['date("2024-01-01") < output.d', "DateTimeLiteral", 0],
    ['@"2024-01-01" < output.d', "DateTimeLiteral", 0],
    ['output.d > date and time("2024-01-01T00:00:00")', "DateTimeLiteral", 11],
    ["output.a ** 2 = 4", "Exponentiation", 9],
    ["+output.a = 1", "UnaryPlus", 0],
    ["output.a = null", "NullLiteral", 11],
    ["null = output.a", "NullLiteral", 0],
    ["output.a = ?", "?", 11],
    ["output.a = 1 = true", "Comparison", 0],
    ["1 < 2 < 3", "Comparison", 0],
    ["output.done", "PathExpression", 0],
    ["true", "BooleanLiteral", 0],
    ["42", "NumericLiteral", 0],
    ["output.a + 1", "ArithmeticExpression", 0],
    ["(output.done)", "PathExpression", 1],
    ["output = 1", "VariableName", 0],
    ["output.a = 1e3", "NumericLiteral", 11],
    ["output.a = - 1", "NumericLiteral", 11],
    [`output.a = ${"9".repeat(101)}`, "NumericLiteral", 11],
    ['output.a < "x"', "Comparison", 0],
    ['"a" < "b"', "Comparison", 0],
    ["output.flag >= true", "Comparison", 0],
    ['1 = "1"', "Comparison", 0],
    ["true = 1", "Comparison", 0],
    ['output.a + "x" = 1', "ArithmeticExpression", 0],
    ["output.a = true + 1", "ArithmeticExpression", 11],
    ['output.a = -("x")', "ArithmeticExpression", 11],
    ['output.s = "\\q"', "StringLiteral", 12],
    ['output.s = "\\u41"', "StringLiteral", 12],
    ['output.s = "\\u00411"', "StringLiteral", 12],
    ["output.a ==== 1", "SimplePositiveUnaryTest", 12],
  ];
  it.each(notSimulable)("%s is valid FEEL, not simulable: %s at %i", (text, construct, offset) => {
    const analysis = analyzeCondition(text);
    expect(analysis.ok).toBe(true);
    expect(analysis.simulable).toBe(false);
    expect(problemsOf(analysis)).toEqual([["not-simulable", offset, construct]]);
    expect(analysis.problems[0]?.message).not.toBe("");
  });

  it("reports every outermost offending construct, in source order", () => {
    const analysis = analyzeCondition("output.items[item > 1] = [1]");
    expect(problemsOf(analysis)).toEqual([
      ["not-simulable", 0, "FilterExpression"],
      ["not-simulable", 25, "List"],
    ]);
  });

  it("suggests the comparison a bare boolean name needs", () => {
    expect(analyzeCondition("output.done").problems[0]?.message).toContain("output.done = true");
  });
});

describe("analyzeCondition: the seed's JavaScript-like dialect", () => {
  it.each([
    ["output.a === 1 && output.b === 2", "output.a = 1 and output.b = 2", ["a", "b"]],
    ["output.a == 1 || output.b != 2", "output.a = 1 or output.b != 2", ["a", "b"]],
    ["!output.done", "not(output.done)", ["done"]],
    ["!(output.a && output.b)", "not((output.a and output.b))", ["a", "b"]],
    ["output.status === 'rejected'", 'output.status = "rejected"', ["status"]],
    ["output.q === 'say \\'hi\\' \"x\"'", 'output.q = "say \'hi\' \\"x\\""', ["q"]],
  ])("%j is read as the FEEL %j, structured", (text, feel, fields) => {
    const analysis = analyzeCondition(text);
    expect(analysis.ok).toBe(true);
    expect(analysis.structured).toBe(true);
    expect(analysis.fields).toEqual(fields.map((f) => `output.${f}`));
    expect(applyRewrites(text, analysis.rewrites)).toBe(feel);
  });

  it("never touches a condition that is FEEL as written", () => {
    for (const text of [
      'output.name = "it\'s && || !x"',
      "not(output.a) and output.b != 1",
      "output.a = 1 // && a comment",
    ]) {
      expect(analyzeCondition(text).rewrites).toEqual([]);
    }
  });

  it("points problems into the text as written", () => {
    // `other` is no output field: its offset is where the author wrote it.
    const analysis = analyzeCondition("output.a === 'x' && other = 1");
    expect(analysis.problems.find((p) => p.kind === "unknown-name")?.offset).toBe(20);
  });
});

describe("analyzeCondition: syntax", () => {
  const errors: readonly [string, number][] = [
    ["output.a >", 10],
    ["output.a = ", 11],
    ["output.a === ", 13],
    ["(output.a", 9],
    ['"unterminated', 0],
    ['output.a = "unterminated', 11],
    ['output.a = "a\nb"', 11],
    // The seed's dialect is read only where that reading parses.
    ["output.a = 1 && ", 13],
    ["!!output.a", 0],
    ["output.a = 'x' 'y'", 11],
    // An unclosed single-quoted string is not closed by a guess.
    ["output.a === 'x", 13],
    ["output.a = 1,2", 12],
    ["output.$a = 1", 7],
    ["output.and = 1", 7],
    ["output.a = 1.", 13],
    ["// only a comment", 17],
    ["", 0],
    ["   \n\t", 0],
  ];
  it.each(errors)("%j is a syntax error at %i", (text, offset) => {
    expect(analyzeCondition(text)).toEqual({
      ok: false,
      simulable: false,
      structured: false,
      fields: [],
      rewrites: expect.any(Array) as unknown,
      problems: [{ kind: "syntax", message: expect.any(String) as unknown, offset }],
    });
  });

  const hints: readonly [string, string][] = [
    ["output.a = 1 && ", "'and'"],
    ["output.a = 1 || ", "'or'"],
    ["!!output.a", "= false"],
    ["output.a = 'x' 'y'", "double quotes"],
    ['"unterminated', "not closed"],
    ["output.a >", "ends too early"],
    ["", "empty"],
  ];
  it.each(hints)("%j explains itself (%s)", (text, words) => {
    expect(analyzeCondition(text).problems[0]?.message).toContain(words);
  });

  it(`refuses more than ${MAX_CONDITION_LENGTH} characters without parsing`, () => {
    const text = "output.a = 1 " + " ".repeat(MAX_CONDITION_LENGTH);
    expect(analyzeCondition(text).problems).toEqual([
      {
        kind: "syntax",
        message: expect.stringContaining("too long") as unknown,
        offset: MAX_CONDITION_LENGTH,
      },
    ]);
    expect(analyzeCondition(" ".repeat(MAX_CONDITION_LENGTH - 12) + "output.a = 1").simulable).toBe(
      true,
    );
  });

  it("answers a 1,000,000-character input at the length limit, without parsing it", () => {
    const text = "(".repeat(500_000) + "output.a === 1" + ")".repeat(499_986);
    expect(text.length).toBe(1_000_000);
    const analysis = analyzeCondition(text);
    expect(analysis.ok).toBe(false);
    // The one problem sits at the limit: the text was refused by its length, not parsed.
    expect(analysis.problems).toEqual([
      {
        kind: "syntax",
        message: `the condition is too long (1000000 characters; the limit is ${String(MAX_CONDITION_LENGTH)})`,
        offset: MAX_CONDITION_LENGTH,
      },
    ]);
  });

  // Each input is under the length limit, and built to make a parser backtrack or nest. The
  // parser gives up at a fixed place (the offset), so the work is bounded by the input's length.
  // The timeout guards against a regression that hangs instead: 20 s is over 20× the slowest
  // cold first call seen on a loaded 2-core machine (about 1 s), so load cannot reach it.
  const hostile: readonly (readonly [string, string, string, number])[] = [
    ["parentheses", "(".repeat(MAX_CONDITION_LENGTH), "unexpected '('", 2800],
    [
      "balanced parentheses",
      "(".repeat(4990) + "output.a = 1" + ")".repeat(4990),
      "unexpected '('",
      2800,
    ],
    ["a long sum", "output.a" + " + 1".repeat(2400) + " = 1", "unexpected '1'", 2402],
    [
      "quotes",
      '"'.repeat(MAX_CONDITION_LENGTH),
      "the string starting here is not closed on its line",
      2,
    ],
    ["brackets", "[".repeat(MAX_CONDITION_LENGTH), "unexpected '['", 2800],
    ["minus signs", "-".repeat(MAX_CONDITION_LENGTH - 1) + "1", "unexpected '-'", 2800],
  ];
  it.each(hostile)(
    "answers hostile input with one syntax problem: %s",
    (_name, text, message, offset) => {
      const analysis = analyzeCondition(text);
      expect(analysis.simulable).toBe(false);
      expect(analysis.problems).toEqual([{ kind: "syntax", message, offset }]);
    },
    20_000,
  );
});

describe("analyzeCondition: the JS-operator rewrite", () => {
  it("accepts === as = and names the rewrite", () => {
    expect(analyzeCondition("output.is_complete === true")).toEqual({
      ok: true,
      simulable: true,
      structured: true,
      fields: ["output.is_complete"],
      rewrites: [{ from: "===", to: "=", offset: 19 }],
      problems: [],
    });
  });

  it("accepts !== as !=", () => {
    expect(analyzeCondition("output.is_complete !== true").rewrites).toEqual([
      { from: "!==", to: "!=", offset: 19 },
    ]);
  });

  it("accepts == as =", () => {
    const analysis = analyzeCondition('output.s == "x"');
    expect(analysis.simulable).toBe(true);
    expect(analysis.rewrites).toEqual([{ from: "==", to: "=", offset: 9 }]);
  });

  it("leaves operators inside strings alone", () => {
    const analysis = analyzeCondition('output.s = "a === b"');
    expect(analysis.rewrites).toEqual([]);
    expect(analysis.simulable).toBe(true);
  });

  it("reports offsets after a rewrite in the original text", () => {
    const analysis = analyzeCondition("output.a === 1 and output.b !== 2 and confidence > 0.5");
    expect(analysis.rewrites.map((r) => r.offset)).toEqual([9, 28]);
    expect(problemsOf(analysis)).toEqual([
      ["not-simulable", 0, "Conjunction"],
      ["unknown-name", 38, undefined],
    ]);
  });
});

describe("analyzeCondition: names", () => {
  const cases: readonly [string, readonly string[], boolean, readonly [string, number][]][] = [
    ["confidence > 0.5", ["confidence"], false, [["confidence", 0]]],
    ["output.confidence > 0.5", ["output.confidence"], true, []],
    ["input.x = 1", ["input.x"], false, [["input.x", 0]]],
    ["output.a = input.a", ["output.a", "input.a"], true, [["input.a", 11]]],
    ["confidence > 0.5 or confidence < 0.1", ["confidence"], false, [["confidence", 0]]],
    ["output.a = 1 and confidence > 0.5", ["output.a", "confidence"], true, [["confidence", 17]]],
    ["some x in output.items satisfies x.score > 1", ["output.items"], true, []],
    ["for x in output.items return x > 1", ["output.items"], true, []],
    ["output.items[score > 1] = 1", ["output.items"], true, []],
    ["output.items[item.score > output.min] = 1", ["output.items", "output.min"], true, []],
    ["count(output.items) > 1", ["output.items"], true, []],
    ["{a: 1, b: a}.b = output.c", ["output.c"], true, []],
    ["output.a instance of number", ["output.a"], true, []],
    ['date("2024-01-01") < output.d', ["output.d"], true, []],
    ["output = 1", [], false, []],
    ["1 = 1", [], false, []],
    ["output.b.c = output.a and output.b.c = 2", ["output.b.c", "output.a"], true, []],
  ];
  it.each(cases)("%s reads %j (structured %s)", (text, fields, structured, unknown) => {
    const analysis = analyzeCondition(text);
    expect(analysis.fields).toEqual(fields);
    expect(analysis.structured).toBe(structured);
    const unknownNames = analysis.problems.filter((p) => p.kind === "unknown-name");
    expect(unknownNames.map((p) => [p.message.split("'")[1], p.offset])).toEqual(unknown);
    if (unknown.length > 0) expect(analysis.simulable).toBe(false);
  });
});

describe("analyzeCondition: natural language", () => {
  it("never parses a text condition", () => {
    const expected = {
      ok: true,
      simulable: false,
      structured: false,
      fields: [],
      rewrites: [],
      problems: [],
    };
    expect(analyzeCondition("the answer is complete", { language: "text" })).toEqual(expected);
    expect(analyzeCondition("output.a === 1", { language: "text" })).toEqual(expected);
    expect(analyzeCondition("", { language: "text" })).toEqual(expected);
  });

  it("treats an explicit feel language like the default", () => {
    expect(analyzeCondition("output.a = 1", { language: "feel" })).toEqual(
      analyzeCondition("output.a = 1"),
    );
    expect(analyzeCondition("output.a = 1", { language: undefined }).simulable).toBe(true);
  });
});

describe("analyzeCondition: never throws", () => {
  const check = (text: string): void => {
    const analysis = analyzeCondition(text);
    if (analysis.simulable) {
      expect(analysis.ok).toBe(true);
      expect(analysis.problems).toEqual([]);
    }
    if (!analysis.ok) expect(analysis.problems[0]?.kind).toBe("syntax");
    for (const p of analysis.problems) {
      expect(p.offset).toBeGreaterThanOrEqual(0);
      expect(p.offset).toBeLessThanOrEqual(text.length);
    }
    expect(new Set(analysis.fields).size).toBe(analysis.fields.length);
  };

  it("on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), check), { numRuns: 500 });
  });

  it("on FEEL-flavoured strings", () => {
    const token = fc.constantFrom(
      "output",
      ".",
      "a",
      "b",
      " ",
      "=",
      "==",
      "===",
      "!=",
      "!==",
      "<",
      ">=",
      "+",
      "-",
      "*",
      "/",
      "**",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ":",
      ",",
      '"',
      "\\",
      "1",
      "0.5",
      "true",
      "null",
      "and",
      "or",
      "not",
      "if",
      "then",
      "else",
      "in",
      "some",
      "satisfies",
      "..",
      "@",
      "?",
      "//",
      "/*",
      "\n",
      "confidence",
      "date",
      "between",
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 40 }).map((t) => t.join("")),
        check,
      ),
      {
        numRuns: 1000,
      },
    );
  });

  it("on values that are not strings", () => {
    const values: unknown[] = [undefined, null, 42, {}, [], Symbol("x")];
    for (const value of values) {
      const analysis = analyzeCondition(value as string);
      expect(analysis.ok).toBe(false);
      expect(analysis.problems[0]?.kind).toBe("syntax");
    }
  });
});
