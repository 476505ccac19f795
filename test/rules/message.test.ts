/**
 * Message interpolation: templates are split once and cached; the result must be what a plain
 * left-to-right scan of the template gives, for any template and data.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { interpolate } from "../../src/rules/internal.js";

/** The plain scan the cached split must agree with. */
function reference(template: string, data: Readonly<Record<string, unknown>>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) break;
    const name = template.slice(open + 2, close).trim();
    const value = data[name];
    const shown = typeof value === "string" ? value : JSON.stringify(value);
    out += template.slice(i, open) + (Object.hasOwn(data, name) ? shown : `{{${name}}}`);
    i = close + 2;
  }
  return out + template.slice(i);
}

describe("interpolate", () => {
  it.each([
    ['edge {{index}} ({{from}} → {{to}}): "{{ id }}"', 'edge 3 (a → b): "x"'],
    ["no placeholder", "no placeholder"],
    ["{{missing}} stays", "{{missing}} stays"],
    ["unclosed {{index", "unclosed {{index"],
    ["{{a {{index}} }}", "{{a {{index}} }}"],
    ["{{index}}{{index}}", "33"],
    ["", ""],
  ])("%s", (template, expected) => {
    const data = { index: 3, from: "a", to: "b", id: "x" };
    expect(interpolate(template, data)).toBe(expected);
    expect(interpolate(template, data)).toBe(expected); // from the cache
  });

  // A template is the organisation's text (a policy pack's, a plugin's): its own characters are
  // shown escaped as the values are, so a `\r` or an escape sequence cannot forge a report line.
  it.each([
    ["{{index}} ok\n\u001b[2K\r✔ 1 file checked", "3 ok\\n\\u{1B}[2K\\r✔ 1 file checked"],
    ["no placeholder\r\u001b[1A", "no placeholder\\r\\u{1B}[1A"],
    ["pay\u202Eeulav {{id}}", "pay\\u{202E}eulav x"],
    ["{{gone\u200B}} stays", "{{gone\\u{200B}}} stays"],
    ["plain {{id}} text", "plain x text"],
  ])("escapes the template's own text: %j", (template, expected) => {
    const data = { index: 3, id: "x" };
    expect(interpolate(template, data)).toBe(expected);
    expect(interpolate(template, data)).toBe(expected); // from the cache
  });

  it("shows arrays, booleans and absent values as messages need them", () => {
    expect(interpolate("{{a}} {{b}} {{c}}", { a: ["x", 1], b: false, c: undefined })).toBe(
      "x, 1 false ?",
    );
  });

  it("shows each placeholder's value, nested ones too, as `shown` turns it; missing ones stay", () => {
    const data = { id: "T1", element: { id: "T1" }, path: ["T1", "E"] };
    const shown = (v: unknown) => (v === "T1" ? "Task" : Array.isArray(v) ? v.length : v);
    expect(interpolate("{{id}} {{element.id}} {{path}} {{gone}}", data, shown)).toBe(
      "Task Task 2 {{gone}}",
    );
    expect(data.element.id).toBe("T1");
  });

  it("property: agrees with a plain scan of the template", () => {
    const piece = fc.constantFrom("{{", "}}", "a", " ", "b", "{{a}}", "{{ b }}", "x{");
    const template = fc.array(piece, { maxLength: 12 }).map((p) => p.join(""));
    fc.assert(
      fc.property(template, (t) => {
        const data = { a: "A", b: "B" };
        expect(interpolate(t, data)).toBe(reference(t, data));
      }),
      { numRuns: 1000 },
    );
  });
});
