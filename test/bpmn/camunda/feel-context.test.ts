/**
 * feelContextEntries: a FEEL context literal split into its entries, or nothing it can split;
 * feelStringList: a FEEL list of string literals (a fixed `activeElementsCollection`), or nothing.
 */
import { describe, expect, it } from "vitest";
import { feelContextEntries, feelStringList } from "../../../src/bpmn/camunda/feel-context.js";

const entries = (text: string) => {
  const map = feelContextEntries(text);
  return map === undefined ? undefined : [...map];
};

describe("feelContextEntries", () => {
  it.each([
    ["{}", []],
    [
      '{containerElementId: "Tools", toolCallResults: toolCallResults}',
      [
        ["containerElementId", '"Tools"'],
        ["toolCallResults", "toolCallResults"],
      ],
    ],
    [
      ' { "max calls": 10, tools: {containerElementId: "a, b: c"} } ',
      [
        ["max calls", "10"],
        ["tools", '{containerElementId: "a, b: c"}'],
      ],
    ],
    [
      "{ids: [1, 2], f: g(x, y)}",
      [
        ["ids", "[1, 2]"],
        ["f", "g(x, y)"],
      ],
    ],
    ['{say: "a \\"quoted\\" }"}', [["say", '"a \\"quoted\\" }"']]],
    // What a hand-written scanner refused, lezer-feel's grammar reads.
    [
      '{a: "}", b: "// not a comment", c: "/* nor this */"}',
      [
        ["a", '"}"'],
        ["b", '"// not a comment"'],
        ["c", '"/* nor this */"'],
      ],
    ],
    [
      '{"a b": 1, "\\u0063": "x", "": 2}',
      [
        ["a b", "1"],
        ["c", '"x"'],
        ["", "2"],
      ],
    ],
    [
      "{limits: {maxModelCalls: 5, nested: {deep: -1.5}}, tools: []}",
      [
        ["limits", "{maxModelCalls: 5, nested: {deep: -1.5}}"],
        ["tools", "[]"],
      ],
    ],
    ["{a: 1 // the bound\n}", [["a", "1"]]],
    [
      "/* limits */ {a: /* one */ 1, /* two */ b: 2}",
      [
        ["a", "1"],
        ["b", "2"],
      ],
    ],
    ["{first name: 1}", [["first name", "1"]]],
    // A value that is no literal is handed back unread: a range, a call, a condition.
    [
      "{a: [1..2), b: if x then 1 else 2, c: x.y}",
      [
        ["a", "[1..2)"],
        ["b", "if x then 1 else 2"],
        ["c", "x.y"],
      ],
    ],
  ])("%j has the entries %j", (text, expected) => {
    expect(entries(text)).toEqual(expected);
  });

  it.each([
    ["cfg.tools"],
    ['"Tools"'],
    ["{a: 1} + {b: 2}"],
    ["{a: 1, a: 2}"],
    ["{a: 1,}"],
    ["{a}"],
    ["{a: }"],
    ["{a: [1..2)] }"],
    ["{`a b`: 1}"],
    ['{a: "open}'],
    ["{a-b: 1}"],
    // Names lezer-feel takes that engines may not read as one key.
    ["{a.b: 1}"],
    ["{?: 1}"],
    ["{first  name: 1}"],
    ["{a /* c */ b: 1}"],
    // A repeated key, however it is written; a key with an escape engines read differently.
    ['{a: 1, "a": 2}'],
    ['{"\\\'": 1}'],
    // Syntax errors anywhere, even inside a value this reader would not read.
    ["{a: 1, /* c */}"],
    ["{a: 1}}"],
    ["{a: 1} {b: 2}"],
    ["{a: 1 b: 2}"],
    ["{a: some var}"],
    ["{a: 1"],
    [""],
    [`{a: ${"1 + ".repeat(2_500)}1}`],
  ])("%j is no context it can split", (text) => {
    expect(feelContextEntries(text)).toBeUndefined();
  });
});

describe("feelStringList", () => {
  it.each([
    ["[]", []],
    ['["Refund", "Notify"]', ["Refund", "Notify"]],
    ['[ "a" /* the first */, "b\\"c" ]', ["a", 'b"c']],
  ])("%j is the list %j", (text, list) => {
    expect(feelStringList(text)).toEqual(list);
  });

  it.each([
    ["tasks"],
    ["[toolCall._meta.name]"],
    ['["a", next]'],
    ['["a", ["b"]]'],
    ['["a",]'],
    ['"a"'],
    ["[1, 2]"],
    ['split(response, ",")'],
    [""],
  ])("%j is no list of string literals", (text) => {
    expect(feelStringList(text)).toBeUndefined();
  });
});
