/**
 * The asynchronous reader loads the YAML support only for a YAML text, and reads every text as
 * the synchronous one does: the same value, problems, positions and locations.
 */
import { describe, expect, it } from "vitest";
import { readWithLocator, readWithLocatorAsync } from "../../../src/model/text/index.js";
import type { ReadOptions } from "../../../src/model/text/index.js";

const TEXTS: readonly (readonly [string, string, ReadOptions?])[] = [
  ["JSON", '{ "a": [1, { "b": "x" }], "c": null }'],
  ["JSON with a duplicate key", '{\n  "a": 1,\n  "a": 2\n}'],
  ["JSON with a syntax error", '{ "a": [1, 2 }'],
  ["JSON with a BOM", '\uFEFF{ "a": 1 }'],
  ["YAML", "a:\n  - 1\n  - b: x\nc: null\n"],
  ["YAML with a duplicate key", "a: 1\nb: 2\na: 3\n"],
  ["YAML with an unknown tag", "a: !!binary aGVsbG8=\n"],
  ["YAML with a syntax error", "a: [1, 2\nb: 3\n"],
  ["YAML with an alias", "base: &b { x: 1 }\nuse: *b\n"],
  ["a flow mapping read as YAML when told", "{a: 1}", { format: "yaml" }],
  ["a lone surrogate", '{ "s": "\\ud800" }'],
];
const POINTERS = ["", "/a", "/a/1/b", "/c", "/use/x", "/missing/deeper", "not-a-pointer"];

describe("readWithLocatorAsync", () => {
  const cases = TEXTS.map(([name, text, options]) => ({ name, text, options }));
  it.each(cases)("reads $name as readWithLocator does", async ({ text, options }) => {
    const sync = readWithLocator(text, options);
    const lazy = await readWithLocatorAsync(text, options);
    expect(lazy.result).toEqual(sync.result);
    expect(lazy.locate(POINTERS)).toEqual(sync.locate(POINTERS));
  });

  it("locates in a YAML text it read, after an alias, at the anchor", async () => {
    const { result, locate } = await readWithLocatorAsync("base: &b\n  x: 1\nuse: *b\n");
    expect(result).toMatchObject({ ok: true, format: "yaml", value: { use: { x: 1 } } });
    expect(locate(["/use", "/use/x"])).toEqual([
      { line: 3, column: 6 },
      { line: 2, column: 6 },
    ]);
  });

  it("rejects misuse as readWithLocator throws", async () => {
    await expect(readWithLocatorAsync("{}", { format: "toml" as "json" })).rejects.toThrow(
      'format must be "json" or "yaml", not "toml"',
    );
  });
});
