import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locatePointers, readDocumentText } from "../../../src/model/text/index.js";
import type { ReadResult, TextFormat } from "../../../src/model/text/index.js";
import { scanJson } from "../../../src/model/text/json-scan.js";

const CODES = new Set(["SYNTAX_ERROR", "DUPLICATE_KEY"]);
const FORMATS: (TextFormat | undefined)[] = [undefined, "json", "yaml"];

function expectWellFormed(result: ReadResult): void {
  expect(result.ok).toBe(result.problems.length === 0);
  for (const p of result.problems) {
    expect(CODES.has(p.code)).toBe(true);
    expect(p.message.length).toBeGreaterThan(0);
    expect(p.path === "" || p.path.startsWith("/")).toBe(true);
    expect(Number.isInteger(p.location.line) && p.location.line >= 1).toBe(true);
    expect(Number.isInteger(p.location.column) && p.location.column >= 1).toBe(true);
  }
}

/** Text made of JSON's own tokens, so that near-valid documents are common. */
const jsonish = fc
  .array(
    fc.constantFrom(
      ...["{", "}", "[", "]", ",", ":", " ", "\n", '"a"', '"b"', '"', "\\", "\\u00", "0", "1"],
      ...["-", ".", "e", "+", "true", "nul", "null", "\t", "\u0001", "\uFEFF", "/", "'", "é"],
    ),
    { maxLength: 40 },
  )
  .map((tokens) => tokens.join(""));

/** YAML-ish text: indentation, indicators, anchors, aliases, tags, documents. */
const yamlish = fc
  .array(
    fc.constantFrom(
      ...["a", "b", ":", " ", "  ", "\n", "- ", "? ", "&x ", "*x", "!t ", "!!set ", "---\n"],
      ...["{", "}", "[", "]", ",", "'", '"', "#", "|", ">", "\t", "%YAML 1.1\n", "__proto__"],
    ),
    { maxLength: 40 },
  )
  .map((tokens) => tokens.join(""));

const anyText = fc.oneof(fc.string(), fc.json(), jsonish, yamlish, fc.string({ unit: "grapheme" }));

describe("readDocumentText properties", () => {
  it("never throws, and every problem is well formed", () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...FORMATS), (text, format) => {
        expectWellFormed(readDocumentText(text, format === undefined ? {} : { format }));
      }),
      { numRuns: 1_500 },
    );
  });

  it("reads every JSON text as JSON.parse does", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(readDocumentText(text, { format: "json" })).toEqual({
          ok: true,
          value: JSON.parse(text) as unknown,
          format: "json",
          problems: [],
        });
      }),
    );
  });

  it("accepts exactly the texts JSON.parse accepts", () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.string(), fc.json()), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(scanJson(text, {}) === undefined).toBe(parses);
      }),
      { numRuns: 3_000 },
    );
  });

  it("reports one duplicate per repeated key", () => {
    const entries = fc.array(fc.tuple(fc.constantFrom("a", "b", "a/b", "~", ""), fc.nat()));
    fc.assert(
      fc.property(entries, (pairs) => {
        const text = "{" + pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",") + "}";
        const repeats = pairs.length - new Set(pairs.map(([k]) => k)).size;
        const result = readDocumentText(text);
        expect(result.problems.filter((p) => p.code === "DUPLICATE_KEY")).toHaveLength(repeats);
      }),
    );
  });
});

describe("locatePointers properties", () => {
  it("never throws", () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom<TextFormat>("json", "yaml"), (text, format) => {
        const found = locatePointers(text, format, ["", "/a", "/0/a", "/a~1b", "x"]);
        for (const at of found.values()) {
          expect(at.line).toBeGreaterThanOrEqual(1);
          expect(at.column).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });

  it("finds every scalar of a JSON document where it is written", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value, null, 2);
        const leaves: [string, unknown][] = [];
        const pending: [string, unknown][] = [["", value]];
        for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
          const [path, v] = next;
          if (v !== null && typeof v === "object") {
            for (const [k, child] of Object.entries(v)) {
              pending.push([`${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, child]);
            }
          } else {
            leaves.push(next);
          }
        }
        const found = locatePointers(
          text,
          "json",
          leaves.map(([path]) => path),
        );
        const lines = text.split("\n");
        for (const [path, leaf] of leaves) {
          const at = found.get(path);
          expect(at).toBeDefined();
          const rest = (lines[(at?.line ?? 0) - 1] ?? "").slice((at?.column ?? 0) - 1);
          expect(rest.startsWith(JSON.stringify(leaf))).toBe(true);
        }
      }),
    );
  });
});
