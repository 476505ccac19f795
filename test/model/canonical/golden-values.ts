/**
 * The values whose content hashes are recorded in digests.golden.json: every JSON and YAML file of
 * examples/ (what approvals and reports name) and values that take each path through the
 * canonical writer (sorted or not, integer-like keys, `toJSON`, deep, wide, members with no JSON
 * form). The digests were recorded with the writers and the SHA-256 this package had before it
 * moved to @noble/hashes and a single fallback writer, so the test shows the identity of every
 * document is unchanged.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { generateWorkflow } from "../../../bench/generate.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Every `.json`, `.yaml` and `.yml` file under examples/, sorted, relative to the root. */
export function exampleFiles(): string[] {
  const dir = join(ROOT, "examples");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(json|ya?ml)$/u.test(name))
    .map((name) => relative(ROOT, join(dir, name)))
    .sort();
}

/** The bytes of an example file (approvals hash files as they are on disk). */
export function exampleBytes(file: string): Uint8Array {
  return readFileSync(join(ROOT, file));
}

/** The decoded value of an example file. */
export function exampleValue(file: string): unknown {
  const text = readFileSync(join(ROOT, file), "utf8");
  return file.endsWith(".json") ? (JSON.parse(text) as unknown) : (parse(text) as unknown);
}

function nested(depth: number): unknown {
  let value: unknown = { z: [1, "a"], a: null };
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { y: value, b: i } : [value, { c: i }];
  return value;
}

function keys(count: number, reversed: boolean): Record<string, number> {
  const entries = Array.from({ length: count }, (_, i) => [`k${String(i)}`, i] as const);
  return Object.fromEntries(reversed ? entries.reverse() : entries);
}

/** Values built in code, each named for the path it takes. */
export const BUILT: readonly (readonly [string, () => unknown])[] = [
  ["a generated workflow of 2,000 nodes", () => generateWorkflow(2_000, "loops")],
  ["a generated wide workflow of 500 nodes", () => generateWorkflow(500, "wide-findings")],
  [
    "integer-like keys",
    () => ({ "10": 1, "2": 2, b: { "1": true, a: null }, "": [{ "0": "x", "-1": "y" }] }),
  ],
  ["an own __proto__ key", () => JSON.parse('{"a":{"__proto__":{"x":1}},"b":{"y":2}}') as unknown],
  ["a Date and an undefined array item", () => ({ when: new Date(0), n: [1, undefined] })],
  ["members with no JSON form", () => ({ f: () => 1, u: undefined, s: [Symbol("s")], k: 1 })],
  ["a null-prototype object", () => Object.assign(Object.create(null) as object, { b: 1, a: [2] })],
  [
    "strings and numbers at their edges",
    () => ({
      s: ['\u0000\u001f"\\/\u007f\u2028\u20ac\ud83d\ude00', "é", ""],
      n: [1e21, 1e-7, -0, 5e-324, 0.1 + 0.2, 2 ** 53, -1.5, 123456789.125],
      "\u20ac": 1,
      "\r": 2,
      é: 3,
      E: 4,
    }),
  ],
  ["1,000 levels of nesting", () => nested(1_000)],
  ["20,000 levels of nesting", () => nested(20_000)],
  ["100,000 sorted keys", () => keys(100_000, false)],
  ["1,001 keys in reverse order", () => keys(1_001, true)],
  [
    "a workflow with 100,000 metadata keys",
    () => ({ ...generateWorkflow(1_000, "loops"), metadata: keys(100_000, true) }),
  ],
  [
    "more distinct keys than a short list",
    () => ({
      fields: keys(200, true),
      nodes: Array.from({ length: 50 }, (_, i) => ({ id: `n${String(i)}`, z: [i], a: {} })),
    }),
  ],
];
