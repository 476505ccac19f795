import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyCount, memberCount } from "../../../src/model/text/json-valid.js";
import { locatorFor } from "../../../src/model/text/locate.js";
import { textLocator } from "../../../src/model/text/read-sync.js";
import { createLineIndex, readDocumentText } from "../../../src/model/text/index.js";

/** Every pointer into a value, and one missing child of each container. */
function pointersOf(value: unknown): string[] {
  const out: string[] = [];
  const pending: [string, unknown][] = [["", value]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [path, v] = next;
    out.push(path);
    if (v !== null && typeof v === "object") {
      out.push(`${path}/missing`, `${path}/99`);
      for (const [k, child] of Object.entries(v)) {
        pending.push([`${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, child]);
      }
    }
  }
  return out;
}

/** A JSON text of `value` laid out one of several ways (whitespace only). */
const layouts = [
  (v: unknown) => JSON.stringify(v),
  (v: unknown) => JSON.stringify(v, null, 2),
  (v: unknown) => JSON.stringify(v, null, "\t").replaceAll("\n", "\r\n"),
  (v: unknown) => ` \n${JSON.stringify(v, null, 1).replaceAll(":", " :")}\r`,
];

describe("memberCount and keyCount", () => {
  it("count members, not strings that look like them", () => {
    const text = '{"a": "\\":", "b": [":", "x\\\\"], "c" : {"d\\"": 1, "": {}}}';
    expect(memberCount(text)).toBe(5);
    expect(keyCount(JSON.parse(text))).toBe(5);
  });

  it("count a repeated key in the text once per occurrence, in the value once", () => {
    const text = '{"a": 1, "__proto__": 2, "__proto__": 3, "a": {"a": 4}}';
    expect(memberCount(text)).toBe(5);
    expect(keyCount(JSON.parse(text))).toBe(3);
  });

  it("keyCount is -1 for a number out of range", () => {
    expect(keyCount([1, { a: [Infinity] }])).toBe(-1);
    expect(keyCount(JSON.parse("[1, -1e999]"))).toBe(-1);
    expect(keyCount(JSON.parse('{"a": [1.7e308, 1e-400, null, "x"]}'))).toBe(1);
  });

  it("keyCount counts own keys only, even with an enumerable key on Object.prototype", () => {
    const value: unknown = JSON.parse('{"a": {"b": 1, "0": [{"c": null}]}, "__proto__": {}}');
    expect(keyCount(value)).toBe(5);
    // Read while polluted, asserted after: the test runner itself must not see the property.
    let counted: number;
    let problems: readonly { readonly code: string; readonly path: string }[];
    Object.defineProperty(Object.prototype, "polluted", {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      counted = keyCount(value);
      problems = readDocumentText('{"a": 1, "a": 2}').problems;
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(counted).toBe(5);
    expect(problems).toMatchObject([{ code: "DUPLICATE_KEY", path: "/a" }]);
  });

  it("agree on every JSON value, however laid out", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: layouts.length - 1 }), (value, layout) => {
        const text = (layouts[layout] ?? JSON.stringify)(value);
        expect(memberCount(text)).toBe(keyCount(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it("leave the reader's problems as the full scan finds them", () => {
    expect(readDocumentText('{"a": "\\":", "a": 1}').problems).toMatchObject([
      { code: "DUPLICATE_KEY", path: "/a", location: { line: 1, column: 14 } },
    ]);
    expect(readDocumentText('{"a": ["\\":", 1e999]}').problems).toMatchObject([
      { code: "SYNTAX_ERROR", path: "/a/1", location: { line: 1, column: 15 } },
    ]);
    expect(readDocumentText('{"__proto__": 1, "__proto__": 1}').problems).toHaveLength(1);
  });
});

describe("locating in a JSON text JSON.parse accepted", () => {
  it("places every pointer as the validating scan does", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.nat({ max: layouts.length - 1 }),
        (value, layout) => {
          const text = (layouts[layout] ?? JSON.stringify)(value);
          const pointers = [...pointersOf(value), "x", "/"];
          const fast = locatorFor(text, "json", { validJson: true }, undefined)(pointers);
          expect(fast).toEqual(textLocator(text, "json")(pointers));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("decodes escaped member names and skips what no pointer asks into", () => {
    const text = '{"skip": {"x": ["]", "}", {"y": "\\"{"}]}, "a\\u002fb": [10, {"c": true}]}';
    const found = locatorFor(
      text,
      "json",
      { validJson: true },
      undefined,
    )(["/a~1b/1/c", "/skip", "/a~1b/5"]);
    expect(found).toEqual([
      { line: 1, column: 66 },
      { line: 1, column: 10 },
      { line: 1, column: 55 },
    ]);
  });
});

describe("createLineIndex", () => {
  it("answers as a binary search would, in any order of queries", () => {
    const text = fc.array(fc.constantFrom("a", "bc", "\n", "\r", "\r\n"), { maxLength: 30 });
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -2, max: 70 })), (parts, offsets) => {
        const body = parts.join("");
        const naive = (offset: number): { line: number; column: number } => {
          const at = Math.min(Math.max(offset, 0), body.length);
          const before = body.slice(0, at);
          const breaks = before.match(/\r\n|\r|\n/g) ?? [];
          const lastBreak = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r"));
          // A CR whose LF comes at `at` ends its line only after that LF.
          const split = body[at - 1] === "\r" && body[at] === "\n";
          const line = breaks.length + 1 - (split ? 1 : 0);
          const start = split ? before.slice(0, -1).search(/[^\r\n]*$/) : lastBreak + 1;
          return { line, column: at - start + 1 };
        };
        const index = createLineIndex(body);
        for (const offset of offsets) expect(index(offset)).toEqual(naive(offset));
      }),
      { numRuns: 500 },
    );
  });
});
