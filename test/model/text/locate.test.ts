import { describe, expect, it } from "vitest";
import type { SourceLocation } from "../../../src/model/diagnostic.js";
import { createLineIndex, lineColumnAt, locatePointers } from "../../../src/model/text/index.js";

type Case = [pointer: string, line: number, column: number];

const JSON_TEXT = [
  "{",
  '  "nodes": [',
  '    { "id": "a", "config": { "x": 1 } },',
  '    { "id": "b" }',
  "  ],",
  '  "a/b": { "m~n": true },',
  '  "list": []',
  "}",
].join("\n");

const JSON_CASES: Case[] = [
  ["", 1, 1],
  ["/nodes", 2, 12],
  ["/nodes/0", 3, 5],
  ["/nodes/0/id", 3, 13],
  ["/nodes/0/config", 3, 28],
  ["/nodes/0/config/x", 3, 35],
  ["/nodes/1/id", 4, 13],
  ["/a~1b", 6, 10],
  ["/a~1b/m~0n", 6, 19],
  ["/list", 7, 11],
  // Missing: the nearest ancestor that exists.
  ["/nodes/1/config/promptRef", 4, 5],
  ["/nodes/0/config/y", 3, 28],
  ["/nodes/9", 2, 12],
  ["/nodes/01", 2, 12],
  ["/nodes/-", 2, 12],
  ["/list/0", 7, 11],
  ["/missing", 1, 1],
  ["/a/b", 1, 1],
];

const YAML_TEXT = [
  "nodes:",
  "  - id: a",
  "    config:",
  "      x: 1",
  "  - id: b",
  '"a/b":',
  "  m~n: true",
  "base: &b",
  "  k: 1",
  "use: *b",
  "list: []",
  "empty:",
  "1: one",
  "",
].join("\n");

const YAML_CASES: Case[] = [
  ["", 1, 1],
  ["/nodes", 2, 3],
  ["/nodes/0", 2, 5],
  ["/nodes/0/id", 2, 9],
  ["/nodes/0/config", 4, 7],
  ["/nodes/0/config/x", 4, 10],
  ["/nodes/1", 5, 5],
  ["/nodes/1/id", 5, 9],
  ["/a~1b", 7, 3],
  ["/a~1b/m~0n", 7, 8],
  ["/base/k", 9, 6],
  // An alias is located where it is used; what is inside it, in its anchor.
  ["/use", 10, 6],
  ["/use/k", 9, 6],
  ["/list", 11, 7],
  ["/empty", 12, 7],
  ["/1", 13, 4],
  // Missing: the nearest ancestor that exists.
  ["/nodes/1/config/promptRef", 5, 5],
  ["/nodes/0/config/y", 4, 7],
  ["/nodes/9", 2, 3],
  ["/nodes/01", 2, 3],
  ["/list/0", 11, 7],
  ["/empty/x", 12, 7],
  ["/use/missing", 10, 6],
  ["/missing", 1, 1],
];

function table(found: Map<string, SourceLocation>): Case[] {
  return [...found].map(([pointer, at]) => [pointer, at.line, at.column]);
}

describe("locatePointers", () => {
  it.each(JSON_CASES)("JSON %s → %i:%i", (pointer, line, column) => {
    expect(locatePointers(JSON_TEXT, "json", [pointer]).get(pointer)).toEqual({ line, column });
  });

  it.each(YAML_CASES)("YAML %s → %i:%i", (pointer, line, column) => {
    expect(locatePointers(YAML_TEXT, "yaml", [pointer]).get(pointer)).toEqual({ line, column });
  });

  it("locates many pointers in one call, once each", () => {
    const pointers = [...JSON_CASES.map(([p]) => p), "/nodes", "/nodes"];
    expect(table(locatePointers(JSON_TEXT, "json", pointers))).toEqual(JSON_CASES);
    expect(
      table(
        locatePointers(
          YAML_TEXT,
          "yaml",
          YAML_CASES.map(([p]) => p),
        ),
      ),
    ).toEqual(YAML_CASES);
  });

  it("counts positions after a BOM and treats CRLF as one line break", () => {
    const pointers = JSON_CASES.map(([p]) => p);
    expect(table(locatePointers("\uFEFF" + JSON_TEXT, "json", pointers))).toEqual(JSON_CASES);
    const crlf = JSON_TEXT.replaceAll("\n", "\r\n");
    expect(table(locatePointers(crlf, "json", pointers))).toEqual(JSON_CASES);
    const yamlPointers = YAML_CASES.map(([p]) => p);
    expect(table(locatePointers("\uFEFF" + YAML_TEXT, "yaml", yamlPointers))).toEqual(YAML_CASES);
  });

  it("uses the last of duplicate keys, as JSON.parse does", () => {
    const found = locatePointers('{"a": 1,\n "a": 2}', "json", ["/a"]);
    expect(found.get("/a")).toEqual({ line: 2, column: 7 });
  });

  it("locates what it can in invalid JSON", () => {
    const found = locatePointers('{"a": {"b": 1}, "c": ', "json", ["/a/b", "/c"]);
    expect(table(found)).toEqual([
      ["/a/b", 1, 13],
      ["/c", 1, 1],
    ]);
  });

  it("leaves out what is not a pointer, and texts with no value", () => {
    expect(table(locatePointers(JSON_TEXT, "json", ["nodes", "nodes/0"]))).toEqual([]);
    expect(table(locatePointers("", "json", ["", "/a"]))).toEqual([]);
    expect(table(locatePointers("[".repeat(300), "yaml", [""]))).toEqual([]);
  });

  it("works through 10,000 levels of JSON", () => {
    const text = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const deepest = "/a".repeat(10_000);
    const found = locatePointers(text, "json", [deepest, deepest + "/x"]);
    expect(found.get(deepest)).toEqual({ line: 1, column: 50_001 });
    expect(found.get(deepest + "/x")).toEqual({ line: 1, column: 50_001 });
  });
});

describe("lineColumnAt", () => {
  const text = "a\nb\r\nc\rd";
  const cases: [offset: number, line: number, column: number][] = [
    [0, 1, 1],
    [1, 1, 2],
    [2, 2, 1],
    [3, 2, 2],
    [4, 2, 3],
    [5, 3, 1],
    [6, 3, 2],
    [7, 4, 1],
    [8, 4, 2],
    // Outside the text: clamped to it.
    [-5, 1, 1],
    [100, 4, 2],
    [Number.NaN, 1, 1],
    [2.7, 2, 1],
  ];
  it.each(cases)("offset %d → %i:%i", (offset, line, column) => {
    expect(lineColumnAt(text, offset)).toEqual({ line, column });
    expect(createLineIndex(text)(offset)).toEqual({ line, column });
  });

  it("takes the text as given: a BOM is a character here", () => {
    expect(lineColumnAt("\uFEFFab", 1)).toEqual({ line: 1, column: 2 });
  });

  it("handles an empty text", () => {
    expect(lineColumnAt("", 0)).toEqual({ line: 1, column: 1 });
  });
});
