/**
 * Comparisons that cannot hold as meant, refused when the pack compiles: a typed side against a
 * side of another type — a fact, a literal, a built-in's result (red team: `level in ["4", "5"]`
 * compiled and never fired; `today() >= "2090-01-01"` and `count(tools) > "0"` compiled and
 * feelin ordered them by JavaScript's rules) — and an enumerated fact against a literal that is
 * none of its values (`effect = "external_commitment"`, `gateStatus = "Bypassed"`). Unknown
 * types and null never are.
 */
import { describe, expect, it } from "vitest";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string, subject: PolicySubject = "agentTask") =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const never =
  "FEEL neither equates nor orders values of different types (feelin's answer for them means nothing), so this comparison cannot hold as meant";
const LEVEL = "a level (0-5) or null";
const EFFECTS =
  '"read", "propose", "notify", "write-reversible", "write-irreversible", "external-commitment"';

describe("typed comparisons", () => {
  it("refuses a number fact in a list of strings, at each literal", () => {
    expect(problemsOf('level in ["4", "5"]')).toEqual([
      {
        from: 10,
        message: `'level' is ${LEVEL}, but "4" is a string: ${never} (compare values of one type)`,
      },
      {
        from: 15,
        message: `'level' is ${LEVEL}, but "5" is a string: ${never} (compare values of one type)`,
      },
    ]);
  });

  it.each([
    ['"4" = level', "agentTask", 0, `'level' is ${LEVEL}, but "4" is a string`],
    ['effect < 3 or id in <"x"', "tool", 9, "'effect' is an effect or null, but 3 is a number"],
    ["camunda in [1..2]", "agentTask", 12, "'camunda' is a boolean, but 1 is a number"],
    ["level >= true", "agentTask", 9, `'level' is ${LEVEL}, but true is a boolean`],
    ['level between "4" and "5"', "agentTask", 14, `'level' is ${LEVEL}, but "4" is a string`],
    ['count(tools) > "0"', "agentTask", 15, "'count(tools)' is a number, but \"0\" is a string"],
    [
      'years and months duration(date("2020-01-01"), today()) > 3',
      "agentTask",
      57,
      "'years and months duration(date(\"2020-01-01\"), today())' is a duration, but 3 is a number",
    ],
    ['abs(level) = "4"', "agentTask", 13, "'abs(level)' is a number, but \"4\" is a string"],
    [
      "upper case(element.id) = 1",
      "agentTask",
      25,
      "'upper case(element.id)' is a string, but 1 is a number",
    ],
    [
      "count(tools) > level or string(level) = level",
      "agentTask",
      40,
      "'string(level)' is a string, but level is a level (0-5) or null",
    ],
    [
      '@"P1D" > count(gates)',
      "agentTask",
      9,
      `'@"P1D"' is a duration, but count(gates) is a number`,
    ],
  ] as const)(
    "refuses %s (on either side, =, <, between, intervals, calls)",
    (when, subject, from, words) => {
      const [first] = problemsOf(when, subject);
      expect(first?.from).toBe(from);
      expect(first?.message.startsWith(`${words}: ${never} (`)).toBe(true);
    },
  );

  it("says how to write a date a string literal was meant to be", () => {
    expect(problemsOf('level >= 4 and today() >= "2090-01-01"')).toEqual([
      {
        from: 26,
        message: `'today()' is a date, but "2090-01-01" is a string: ${never} (write date("2090-01-01"))`,
      },
    ]);
    expect(problemsOf('now() < "2090-01-01T00:00:00"')[0]?.message).toContain(
      'write date and time("2090-01-01T00:00:00")',
    );
  });

  it("refuses a field of a bound name and a filter's field", () => {
    expect(
      problemsOf("some t in tools satisfies t.effect = 1 or count(tools[authorization = 2]) > 0"),
    ).toEqual([
      {
        from: 37,
        message: `'t.effect' is an effect or null, but 1 is a number: ${never} (compare values of one type)`,
      },
      {
        from: 70,
        message: `'authorization' is an authorization or null, but 2 is a number: ${never} (compare values of one type)`,
      },
    ]);
  });

  it.each([
    "level in [4, 5]",
    "level = null",
    "ref = null or lane.name != null",
    "budget.maxCost.EUR > 10",
    'get value(element, "id") = 4',
    'string(level) in ["4", "5"]',
    "level in [3..5]",
    "count(tools) > level and level = declaredLevel",
    'today() > date("2027-01-01") and now() < @"2090-01-01T00:00:00"',
    'some c in "a".."z" satisfies c = element.id',
    "some n in 1..3 satisfies n = level",
  ])("accepts %s", (when) => {
    expect(problemsOf(when)).toEqual([]);
  });
});

describe("enumerated facts", () => {
  it.each([
    [
      'effect = "external_commitment"',
      "tool",
      9,
      "'effect' is an effect or null",
      EFFECTS,
      '"external_commitment"',
      ' (write "external-commitment")',
    ],
    [
      'authorization != "Gate"',
      "tool",
      17,
      "'authorization' is an authorization or null",
      '"automatic", "gate", "forbidden"',
      '"Gate"',
      ' (write "gate")',
    ],
    [
      'gateStatus = "Bypassed"',
      "agentTask",
      13,
      "'gateStatus' is a gate status",
      '"reached", "bypassed", "missing"',
      '"Bypassed"',
      ' (write "bypassed")',
    ],
    ["level in [4, 5, 7]", "agentTask", 16, `'level' is ${LEVEL}`, "0, 1, 2, 3, 4, 5", "7", ""],
    [
      'some t in tools satisfies t.effect in ["read", "writes"]',
      "agentTask",
      47,
      "'t.effect' is an effect or null",
      EFFECTS,
      '"writes"',
      "",
    ],
    [
      'count(tools[effect = "read "]) > 0',
      "agentTask",
      21,
      "'effect' is an effect or null",
      EFFECTS,
      '"read "',
      ' (write "read")',
    ],
    [
      'some n in nodes satisfies n.type = "LLM"',
      "workflow",
      35,
      "'n.type' is a node type",
      '"llm", "tool", "decision"',
      '"LLM"',
      ' (write "llm")',
    ],
  ] as const)(
    "refuses %s, naming the legal values (and the one meant, but for case, '-', '_', spaces)",
    (when, subject, from, fact, values, literal, meant) => {
      expect(problemsOf(when, subject)).toEqual([
        {
          from,
          message: `${fact}, one of ${values}; ${literal} is none of them, so this comparison never holds as meant${meant}`,
        },
      ]);
    },
  );

  it("refuses a literal list contains can never find", () => {
    expect(problemsOf('list contains(tools.effect, "external_commitment")')).toEqual([
      {
        from: 28,
        message: `the items of 'tools.effect' are each an effect or null, one of ${EFFECTS}; "external_commitment" is none of them, so it is never in the list (write "external-commitment")`,
      },
    ]);
  });

  it("refuses a path into a record whose keys cannot be so (budget.maxCost.usd)", () => {
    expect(problemsOf("budget != null and budget.maxCost.usd > 0.5")).toEqual([
      {
        from: 34,
        message:
          "unknown field 'budget.maxCost.usd' (the keys of maxCost (amounts by currency code) are each a currency code of three capital letters (USD, EUR), so 'usd' is never present)",
      },
    ]);
  });

  it.each([
    'effect in ["external-commitment", "write-irreversible"]',
    'effect > "a" or authorization = null',
    'id = "external_commitment"',
  ])("accepts %s (legal values, an ordering, a free string)", (when) => {
    expect(problemsOf(when, "tool")).toEqual([]);
  });
});
