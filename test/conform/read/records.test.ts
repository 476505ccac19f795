/**
 * The record splitter: a byte-order mark before a whole JSON document is no reason to fail, a
 * document written on one line is a document, and integers past 2^53 keep their digits.
 */
import { describe, expect, it } from "vitest";
import { createRecordSplitter } from "../../../src/conform/index.js";

const split = (text: string) => {
  const splitter = createRecordSplitter("runs.json");
  return [...splitter.push(text), ...splitter.end()];
};

describe("createRecordSplitter", () => {
  it("reads a JSON document that begins with a byte-order mark, as one without", () => {
    const doc = '[\n  {"a": 1},\n  {"a": 2}\n]\n';
    const expected = [
      { value: { a: 1 }, index: 0, file: "runs.json" },
      { value: { a: 2 }, index: 1, file: "runs.json" },
    ];
    expect(split(doc)).toEqual(expected);
    expect(split(`\uFEFF${doc}`)).toEqual(expected);
  });

  it("reads JSON lines that begin with a byte-order mark", () => {
    expect(split('\uFEFF{"a":1}\n{"a":2}\n')).toEqual([
      { value: { a: 1 }, index: 0, line: 1, file: "runs.json" },
      { value: { a: 2 }, index: 1, line: 2, file: "runs.json" },
    ]);
  });

  it("reads a JSON array written on one line as its elements, as jq -c writes it", () => {
    expect(split('[{"a":1},{"a":2}]\n')).toEqual([
      { value: { a: 1 }, index: 0, line: 1, file: "runs.json" },
      { value: { a: 2 }, index: 1, line: 1, file: "runs.json" },
    ]);
    expect(split('[["updates",{"a":1}],["debug",{"b":2}]]')).toEqual([
      { value: ["updates", { a: 1 }], index: 0, line: 1, file: "runs.json" },
      { value: ["debug", { b: 2 }], index: 1, line: 1, file: "runs.json" },
    ]);
  });

  it("keeps a LangGraph stream tuple on a line as one record", () => {
    expect(split('["updates",{"a":1}]\n["updates",{"a":2}]\n')).toEqual([
      { value: ["updates", { a: 1 }], index: 0, line: 1, file: "runs.json" },
      { value: ["updates", { a: 2 }], index: 1, line: 2, file: "runs.json" },
    ]);
  });

  it("keeps the digits of an integer past 2^53, which JSON.parse would round", () => {
    const lines =
      '{"key":9007199254740993,"n":1.5}\n{"key":9007199254740992,"small":2251799813685249}\n';
    expect(split(lines)).toEqual([
      { value: { key: "9007199254740993", n: 1.5 }, index: 0, line: 1, file: "runs.json" },
      {
        value: { key: "9007199254740992", small: 2251799813685249 },
        index: 1,
        line: 2,
        file: "runs.json",
      },
    ]);
    expect(split('[\n  {"key": 18014398509481985}\n]')).toEqual([
      { value: { key: "18014398509481985" }, index: 0, file: "runs.json" },
    ]);
  });
});
