/**
 * The tool-param template language: what a `{{…}}` names, where the strings holding templates
 * are, and that the allocation-free walkers see exactly what the full scanners see.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TemplateKind } from "../../../src/model/index.js";
import { forEachTemplateEntry } from "../../../src/model/params/template.js";
import {
  forEachTemplate,
  forEachTemplateString,
  scanTemplates,
  templateStrings,
} from "../../../src/model/index.js";

const nodes = new Set(["plan", "a.b", "input"]);
const hasNode = (id: string): boolean => nodes.has(id);

describe("scanTemplates", () => {
  it.each([
    ["{{plan.output.query}}", [{ kind: "node", nodeId: "plan", path: ["query"] }]],
    ["x {{a.b.output.c.d}} y", [{ kind: "node", nodeId: "a.b", path: ["c", "d"] }]],
    ["{{input.q.r}}", [{ kind: "input", field: "q", path: ["r"] }]],
    ["{{ }}", [{ kind: "syntax", problem: "empty" }]],
    ["{{plan.query}}", [{ kind: "syntax", problem: "no-output" }]],
    ["{{plan.output.}}", [{ kind: "syntax", problem: "empty-path" }]],
    ["{{plan.output.q", [{ kind: "syntax", problem: "unterminated" }]],
    ["{{input.output.q}}", [{ kind: "node", nodeId: "input", path: ["q"] }]],
  ] as const)("%s", (text, expected) => {
    expect(scanTemplates(text, hasNode)).toMatchObject(expected);
  });
});

describe("templateStrings", () => {
  it("finds nested strings with their pointer tokens, in document order", () => {
    const params = { q: "{{plan.output.q}}", n: 3, deep: { list: ["plain", "{{input.x}}"] } };
    expect(templateStrings(params)).toEqual([
      { tokens: ["q"], text: "{{plan.output.q}}" },
      { tokens: ["deep", "list", "1"], text: "{{input.x}}" },
    ]);
  });

  it("with keep, returns only the strings it accepts", () => {
    const params = { a: "{{plan.output.q}}", b: { c: ["{{input.z}}", "{{input.y}}"] } };
    expect(templateStrings(params, (text) => text.includes("input.z"))).toEqual([
      { tokens: ["b", "c", "0"], text: "{{input.z}}" },
    ]);
    expect(templateStrings({ a: "{{input.z}}", b: 1 }, () => false)).toEqual([]);
  });

  it("walks 10,000-deep params with a template at every level, building tokens only as kept", () => {
    const leaf = "{{input.q}}";
    let deep: unknown = "{{input.leaf}}";
    for (let k = 0; k < 10_000; k += 1) deep = { d: deep, e: [leaf] };
    const kept = templateStrings({ q: deep }, (text) => text !== leaf);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.tokens).toHaveLength(10_001);
    expect(kept[0]?.tokens.slice(0, 3)).toEqual(["q", "d", "d"]);
    const texts: string[] = [];
    forEachTemplateString({ q: deep }, (text) => texts.push(text));
    expect(texts).toHaveLength(10_001);
    // document order: `d` (down to the innermost string) before `e`
    expect(texts[0]).toBe("{{input.leaf}}");
    expect(texts.slice(1).every((text) => text === leaf)).toBe(true);
  });

  it("forEachTemplateEntry visits what templateStrings returns, tokens valid during the call", () => {
    const flat = { a: "{{plan.output.q}}", n: 1, b: "x {{input.z}}", c: "plain" };
    const nested = { a: "{{plan.output.q}}", b: { c: ["{{input.z}}", "plain"] } };
    for (const params of [flat, nested]) {
      const seen: { tokens: string[]; text: string }[] = [];
      forEachTemplateEntry(params, undefined, (text, tokens) =>
        seen.push({ tokens: [...tokens()], text }),
      );
      expect(seen).toEqual(templateStrings(params));
    }
    const kept: string[] = [];
    forEachTemplateEntry(
      flat,
      (text, depth) => depth === 1 && text.startsWith("x"),
      (text, tokens) => kept.push(`${tokens().join("/")}=${text}`),
    );
    expect(kept).toEqual(["b=x {{input.z}}"]);
  });

  it("terminates on a cyclic programmatic object", () => {
    const params: Record<string, unknown> = { q: "{{plan.output.q}}" };
    params.self = params;
    expect(templateStrings(params).map((s) => s.text)).toEqual(["{{plan.output.q}}"]);
  });
});

/** Params as JSON: nested objects and arrays of strings, some with templates. */
const template = fc.constantFrom(
  "{{plan.output.q}}",
  "{{a.b.output.x}}",
  "{{input.q}}",
  "{{ghost.output.y}}",
  "{{plan.q}}",
  "{{",
  "text",
  "pre {{plan.output.q}} {{input.z}}",
);
const params = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, template, fc.integer(), tie("object"), tie("array")),
  object: fc.dictionary(fc.constantFrom("q", "r", "s", "__proto__", "0"), tie("value"), {
    maxKeys: 4,
  }),
  array: fc.array(tie("value"), { maxLength: 3 }),
})).object;

describe("forEachTemplate / forEachTemplateString agree with the full scanners", () => {
  it("property: same strings, same references, same order", () => {
    fc.assert(
      fc.property(params, (p) => {
        const seen: string[] = [];
        forEachTemplateString(p, (text) => seen.push(text));
        const full = templateStrings(p).map((s) => s.text);
        expect(seen).toEqual(full);
        // keep filters without changing order or tokens
        const odd = (text: string): boolean => text.length % 2 === 1;
        expect(templateStrings(p, odd)).toEqual(templateStrings(p).filter((s) => odd(s.text)));
        for (const text of full) {
          const visited: [TemplateKind, string][] = [];
          forEachTemplate(text, hasNode, (kind, name) => visited.push([kind, name]));
          const expected = scanTemplates(text, hasNode).map((r): [TemplateKind, string] =>
            r.kind === "node"
              ? ["node", r.nodeId]
              : r.kind === "input"
                ? ["input", r.field]
                : ["syntax", ""],
          );
          expect(visited).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
