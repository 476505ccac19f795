import { createHash } from "node:crypto";
import fc from "fast-check";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash } from "../../../src/model/canonical/json.js";
import {
  sha256 as sha256Chosen,
  sha256Bytes,
  sha256BytesPortable,
  sha256Portable as sha256,
} from "../../../src/model/canonical/sha256.js";

const nodeSha256 = (text: string): string =>
  createHash("sha256").update(text, "utf8").digest("hex");

describe("sha256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
  ])("NIST vector %#", (input, digest) => {
    expect(sha256(input)).toBe(digest);
    // The digest the model uses: node:crypto's here, the portable one in a browser.
    expect(sha256Chosen(input)).toBe(digest);
  });

  it("pads correctly around block boundaries (lengths 0..200)", () => {
    for (let n = 0; n <= 200; n++) {
      const text = "x".repeat(n);
      expect(sha256(text), `length ${n}`).toBe(nodeSha256(text));
    }
  });

  it("hashes raw bytes, natively and portably alike", () => {
    for (let n = 0; n <= 300; n += 1) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
      const expected = createHash("sha256").update(bytes).digest("hex");
      expect(sha256BytesPortable(bytes), `length ${n}`).toBe(expected);
      expect(sha256Bytes(bytes), `length ${n}`).toBe(expected);
    }
    // A view into a larger buffer hashes only its own bytes.
    const view = new Uint8Array(Uint8Array.from([9, 97, 98, 99, 9]).buffer, 1, 3);
    expect(sha256BytesPortable(view)).toBe(sha256("abc"));
    expect(sha256Bytes(view)).toBe(sha256("abc"));
  });

  it("encodes lone surrogates as U+FFFD, like node:crypto", () => {
    for (const text of ["\ud800", "a\udc00b", "\ud83d\ude00\ud83d"]) {
      expect(sha256(text)).toBe(nodeSha256(text));
      expect(sha256(text)).toBe(sha256(text.replace(/[\ud800-\udfff]/gu, "\ufffd")));
    }
  });

  it("agrees with node:crypto on arbitrary unicode strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(sha256(text)).toBe(nodeSha256(text));
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with node:crypto on arbitrary UTF-16 code units (lone surrogates included)", () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), (text) => {
        expect(sha256(text)).toBe(nodeSha256(text));
      }),
      { numRuns: 300 },
    );
  });
});

/** `value` inside `depth` objects of unsorted keys. */
function nest(value: unknown, depth: number): unknown {
  let out = value;
  for (let i = 0; i < depth; i += 1) out = { z: i, m: out };
  return out;
}

describe("canonicalJson", () => {
  it.each([
    [{ b: 1, a: [3, { d: true, c: null }] }, '{"a":[3,{"c":null,"d":true}],"b":1}'],
    [{ "\u20ac": 1, "\r": 2, "1": 3, a: 4 }, '{"\\r":2,"1":3,"a":4,"\u20ac":1}'],
    [[1e21, 0.1, -0, 1.5e-7], "[1e+21,0.1,0,1.5e-7]"],
    [{ keep: 1, drop: undefined }, '{"keep":1}'],
    ["text", '"text"'],
    [null, "null"],
  ])("%j → %s", (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it.each([undefined, () => 1, Symbol("s")])("throws a TypeError for %s (no JSON form)", (v) => {
    expect(() => canonicalJson(v)).toThrow(TypeError);
  });

  it("rejects values JSON cannot represent", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow("NaN");
    expect(() => canonicalJson([Infinity])).toThrow("Infinity");
    expect(() => canonicalJson({ s: "\ud800" })).toThrow("Lone surrogate");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { again: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow("Circular");
  });

  it("agrees with the canonicalize package (the RFC 8785 reference used here)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 1000 },
    );
  });

  it.each<[string, unknown]>([
    ["integer-like keys", { "10": 1, "2": 2, b: { "1": true, a: null } }],
    ["an own __proto__ key", JSON.parse('{"a":{"__proto__":{"x":1}},"b":{"y":2}}')],
    ["constructor and toString keys", { b: { constructor: 1 }, a: { toString: "x" }, c: {} }],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { b: 1, a: [2] })],
    ["a Date (toJSON)", { when: new Date(0), n: [1, undefined] }],
    ["a sorted object over an unsorted one", { a: { b: { z: 1, y: [{ d: 1, c: 2 }] } }, b: 2 }],
    ["integer-like keys deep in an array", [{ b: 1, a: [{ "2": 1, "10": [true] }] }]],
    [
      "an unsorted object of 1,001 keys",
      Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${String(1_000 - i)}`, i])),
    ],
    [
      "a sorted object of 2,000 keys over unsorted ones (copied below, kept above)",
      {
        m: Object.fromEntries(
          Array.from({ length: 2_000 }, (_, i) => [
            `k${String(i).padStart(4, "0")}`,
            { y: i, x: [i] },
          ]),
        ),
      },
    ],
    [
      "many distinct keys",
      {
        fields: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${String(i)}`, i])),
        nodes: Array.from({ length: 50 }, (_, i) => ({ id: `n${String(i)}`, z: [i], a: {} })),
      },
    ],
  ])("agrees with canonicalize on %s", (_name, value) => {
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it("drops members with no JSON form as JSON.stringify does (canonicalize writes undefined)", () => {
    const value = { f: () => 1, u: undefined, s: [Symbol("s")], k: 1 };
    expect(canonicalJson(value)).toBe('{"k":1,"s":[null]}');
    expect(canonicalJson(value)).toBe(JSON.stringify({ k: 1, s: [null] }));
  });

  it.each<[string, unknown]>([
    [
      "an integer-like key deep in one node (the view tried again near the root)",
      {
        nodes: Array.from({ length: 20 }, (_, i) => ({
          id: `n${String(i)}`,
          config: i === 7 ? { codes: { "404": "x", "200": "y" }, b: [1] } : { z: 1, a: [i] },
        })),
        id: "w",
      },
    ],
    ["a Date below the levels where the view is tried again", nest({ when: new Date(0) }, 12)],
    [
      "integer-like keys on every level",
      nest({ "2": { "10": [{ "1": 0, b: { y: 1, x: 2 } }] } }, 3),
    ],
  ])("agrees with canonicalize on %s", (_name, value) => {
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it("writes array holes as null, at any depth", () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the subject
    const holes = [1, , 2];
    expect(canonicalJson({ a: holes, b: { "1": holes } })).toBe(
      '{"a":[1,null,2],"b":{"1":[1,null,2]}}',
    );
    expect(canonicalJson(nest({ a: holes, "1": 0 }, 300))).toContain('{"1":0,"a":[1,null,2]}');
  });

  it("serialises shared (non-cyclic) subobjects every time they occur", () => {
    const shared = { z: 1 };
    expect(canonicalJson({ b: shared, a: [shared, shared] })).toBe(
      '{"a":[{"z":1},{"z":1}],"b":{"z":1}}',
    );
  });

  it("agrees with canonicalize past the native view's depth (the fallback writer)", () => {
    let deep: unknown = { z: [1, "a"], a: null };
    for (let i = 0; i < 1_000; i += 1) deep = i % 2 === 0 ? { y: deep, b: i } : [deep, { c: i }];
    expect(canonicalJson(deep)).toBe(canonicalize(deep));
  });

  it("handles 100,000 levels of nesting without overflowing the stack", () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i += 1) deep = i % 2 === 0 ? { d: deep } : [deep];
    const text = canonicalJson(deep);
    expect(text.length).toBe(50_000 * ('{"d":'.length + 1) + 50_000 * 2 + 1);
    expect(text.startsWith('[{"d":[{"d":')).toBe(true);
  });
});

describe("contentHash", () => {
  const a = `{"kind":"AgentWorkflow","id":"agnt-rsch","nodes":[{"id":"llm-1","config":{"model":"gpt-4o","promptRef":"prm:research@2.0.0"}}],"budget":{"maxSteps":12,"maxCostBRL":4}}`;
  const b = `{
    "budget": { "maxCostBRL": 4, "maxSteps": 12 },
    "nodes": [ { "config": { "promptRef": "prm:research@2.0.0", "model": "gpt-4o" }, "id": "llm-1" } ],
    "id": "agnt-rsch",
    "kind": "AgentWorkflow"
  }`;

  it("ignores key order (nested too) and whitespace of the JSON text", () => {
    const hash = contentHash(JSON.parse(a));
    expect(hash).toBe(contentHash(JSON.parse(b)));
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/u);
    expect(hash).toBe("sha256:" + nodeSha256(canonicalJson(JSON.parse(b))));
  });

  it.each([
    ["a changed leaf", (s: string) => s.replace('"maxSteps":12', '"maxSteps":13')],
    ["an added array element", (s: string) => s.replace('"nodes":[', '"nodes":[{},')],
    [
      "a number that became a string",
      (s: string) => s.replace('"maxCostBRL":4', '"maxCostBRL":"4"'),
    ],
    ["an added key", (s: string) => s.replace('"id":"agnt-rsch"', '"id":"agnt-rsch","x":null')],
  ])("changes with %s", (_name, edit) => {
    const edited = edit(a);
    expect(edited).not.toBe(a);
    expect(contentHash(JSON.parse(edited))).not.toBe(contentHash(JSON.parse(a)));
  });

  it("is stable under key permutations of arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reversed = JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
          v !== null && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        ) as unknown;
        expect(contentHash(reversed)).toBe(contentHash(value));
      }),
      { numRuns: 300 },
    );
  });
});
