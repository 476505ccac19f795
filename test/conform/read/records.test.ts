/** The record splitter: a byte-order mark before a whole JSON document is no reason to fail. */
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
});
