/**
 * The YAML alias budget counts characters, not values: an alias to one long string (or to a
 * mapping with a long key, or to a collection of long strings) is as large as what it expands
 * to, the size of the canonical JSON text a content hash is taken of. Without that, a 20 kB
 * document aliasing a 10 kB string counted as a few hundred values and expanded to megabytes
 * (gigabytes, scaled up) before a hash ran out of memory.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/model/index.js";
import { readDocumentText } from "../../../src/model/text/index.js";
import {
  aliasBudget,
  buildYamlValue,
  MAX_EXPANDED_CHARACTERS,
} from "../../../src/model/text/yaml-build.js";
import { parseYaml } from "../../../src/model/text/yaml.js";

function build(text: string, budget: number): ReturnType<typeof buildYamlValue> {
  const { doc, problems } = parseYaml(text);
  expect(problems).toEqual([]);
  return buildYamlValue(doc?.contents, budget);
}

describe("buildYamlValue: the budget is the length of the canonical JSON text", () => {
  // Each document ends with an alias, where the budget is checked: `chars` is the length of its
  // canonical JSON, so the document reads with that budget and stops, at that alias, one below.
  const cases: [name: string, text: string, chars: number, alias: string][] = [
    ["a string", "a: &s hello\nb: *s\n", 25, "/b"],
    ["a string with escapes", 'a: &s "t\\tq\\"\\\\\\x01"\nb: *s\n', 43, "/b"],
    ["a string beyond the BMP", 'a: &s "é😀"\nb: [*s]\n', 23, "/b/0"],
    ["numbers in their shortest form", "a: &n 1e21\nb: [0.50, *n]\n", 27, "/b/1"],
    ["null and booleans", "a: &z\nb: &t true\nc: [*z, *t, *t]\n", 40, "/c/2"],
    ["a key with an escape", 'm: &m {"k\\x01": 1, n: ~}\nb: [*m, *m]\n', 80, "/b/1"],
    ["a key's anchor", "&k key: 1\nb: *k\n", 19, "/b"],
    ["nested aliases", "s: &s xyz\no: &o [*s, {k: *s}]\nb: [*o, *o]\n", 81, "/b/1"],
  ];
  it.each(cases)("%s", (_name, text, chars, alias) => {
    const read = build(text, chars);
    expect(read.problems).toEqual([]);
    expect(canonicalJson(read.value)).toHaveLength(chars);
    const short = build(text, chars - 1);
    expect(short.value).toBeUndefined();
    expect(short.problems).toEqual([
      {
        code: "SYNTAX_ERROR",
        message: `Aliases expand this document beyond ${chars - 1} characters of JSON text (100 per character of its text, at most 67108864); reading stopped, as for an alias bomb.`,
        path: alias,
        offset: text.lastIndexOf("*"),
      },
    ]);
  });
});

describe("aliasBudget", () => {
  it("is 100 characters per character of text, at most 64 Mi characters", () => {
    expect(MAX_EXPANDED_CHARACTERS).toBe(2 ** 26);
    expect([0, 1, 241_278, 671_088, 671_089, 600_000_000].map(aliasBudget)).toEqual([
      100, 100, 24_127_800, 67_108_800, 67_108_864, 67_108_864,
    ]);
  });
});

/** `copies` aliases to `*a`, after an anchor written by `anchor`, in a flow sequence. */
function doc(anchor: string, copies: number): string {
  return `${anchor}\ncopies: [${Array(copies).fill("*a").join(", ")}]\n`;
}

const LONG = "x".repeat(10_000);

describe("readDocumentText: an alias bomb of long strings", () => {
  // Each anchor is read with a few aliases (a block reused), and refused, at its place, with a
  // few hundred: a few megabytes expanded, where the old count saw a few hundred values.
  const cases: [name: string, anchor: string, few: number, many: number, at: Brief][] = [
    ["a long string", `a: &a "${LONG}"`, 20, 300, ["/copies/111", 2, 454]],
    ["a mapping with a long key", `a: &a {${LONG}: 1}`, 20, 300, ["/copies/111", 2, 454]],
    [
      "a sequence of long strings",
      `s: &s ${LONG}\na: &a [*s, *s, *s, *s]`,
      5,
      300,
      ["/copies/26", 3, 114],
    ],
  ];
  it.each(cases)("%s", (_name, anchor, few, many, [path, line, column]) => {
    const fine = readDocumentText(doc(anchor, few));
    expect(fine.ok && (fine.value as { copies: unknown[] }).copies).toHaveLength(few);
    const text = doc(anchor, many);
    const bomb = readDocumentText(text);
    expect(bomb.problems).toEqual([
      {
        code: "SYNTAX_ERROR",
        message: `Aliases expand this document beyond ${100 * text.length} characters of JSON text (100 per character of its text, at most 67108864); reading stopped, as for an alias bomb.`,
        path,
        location: { line, column },
      },
    ]);
  });
});

type Brief = [path: string, line: number, column: number];
