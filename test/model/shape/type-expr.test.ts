import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_ARRAY_NESTING,
  MAX_TYPE_EXPRESSION_LENGTH,
  parseTypeExpression,
  primitiveType,
} from "../../../src/model/shape/type-expr.js";
import type { PrimitiveName, TypeNode } from "../../../src/model/shape/type-expr.js";
import { formatType } from "../../../src/model/shape/type-format.js";

const prim = (name: PrimitiveName): TypeNode => ({ kind: "primitive", name });
const named = (name: string): TypeNode => ({ kind: "named", name });
const array = (element: TypeNode, bounds?: [number, number]): TypeNode =>
  bounds === undefined
    ? { kind: "array", element }
    : { kind: "array", element, minItems: bounds[0], maxItems: bounds[1] };

describe("parseTypeExpression: the seed's examples", () => {
  it.each<[string, TypeNode]>([
    ["text", prim("text")],
    ["path[]", array(prim("path"))],
    ["WorkItem[1..6]", array(named("WorkItem"), [1, 6])],
    ["path[][]", array(array(prim("path")))],
    ["member<engineering>[]", array({ kind: "member", team: "engineering" })],
    ["member<engineering>", { kind: "member", team: "engineering" }],
    ["Plan", named("Plan")],
  ])("%s", (text, expected) => {
    expect(parseTypeExpression(text)).toEqual({ ok: true, type: expected });
  });
});

describe("parseTypeExpression: primitives and aliases", () => {
  it.each<[string, TypeNode]>([
    ["text", prim("text")],
    ["string", prim("text")],
    ["number", prim("number")],
    ["integer", prim("integer")],
    ["bool", prim("bool")],
    ["boolean", prim("bool")],
    ["path", prim("path")],
    ["duration", prim("duration")],
    ["any", { kind: "any" }],
  ])("%s", (text, expected) => {
    expect(parseTypeExpression(text)).toEqual({ ok: true, type: expected });
    expect(primitiveType(text)).toEqual(expected);
  });

  it.each(["Text", "member", "Verification", "constructor", "__proto__", "toString"])(
    "%s is not a primitive",
    (text) => {
      expect(primitiveType(text)).toBeUndefined();
      expect(parseTypeExpression(text)).toEqual({ ok: true, type: named(text) });
    },
  );
});

describe("parseTypeExpression: suffixes and whitespace", () => {
  it.each<[string, TypeNode]>([
    ["WorkItem[1..6][]", array(array(named("WorkItem"), [1, 6]))],
    ["text[][2..3]", array(array(prim("text")), [2, 3])],
    ["text[0..0]", array(prim("text"), [0, 0])],
    ["text[3..3]", array(prim("text"), [3, 3])],
    ["text[007..8]", array(prim("text"), [7, 8])],
    ["member[]", array(named("member"))],
    ["_item9", named("_item9")],
    ["  text  ", prim("text")],
    [" member < eng > [ 1 .. 2 ] ", array({ kind: "member", team: "eng" }, [1, 2])],
    ["\ttext\n[\r\n]", array(prim("text"))],
    [
      "text" + "[]".repeat(MAX_ARRAY_NESTING),
      Array.from({ length: MAX_ARRAY_NESTING }).reduce<TypeNode>((t) => array(t), prim("text")),
    ],
    ["a".repeat(MAX_TYPE_EXPRESSION_LENGTH), named("a".repeat(MAX_TYPE_EXPRESSION_LENGTH))],
  ])("%j", (text, expected) => {
    expect(parseTypeExpression(text)).toEqual({ ok: true, type: expected });
  });
});

describe("parseTypeExpression: errors carry a message and an offset", () => {
  it.each<[string, string, number]>([
    ["", "type expression is empty", 0],
    ["   ", "type expression is empty", 0],
    ["text!", 'unexpected character "!"', 4],
    ["tëxt", 'unexpected character "ë"', 1],
    ["text 😀", 'unexpected character "😀"', 5],
    ["1abc", 'expected a type name but found "1"', 0],
    ["[]", 'expected a type name but found "["', 0],
    ["text[", "unclosed '['", 4],
    ["text[  ", "unclosed '['", 4],
    ["text[1", "unclosed '['", 4],
    ["text[1..", "unclosed '['", 4],
    ["text[1..6", "unclosed '['", 4],
    ["text[1..6 x", "expected ']' but found \"x\"", 10],
    ["text[1]", "expected '..' but found \"]\"", 6],
    ["text[1.2]", "array bounds must be non-negative integers", 5],
    ["text[..6]", 'expected an integer lower bound but found "."', 5],
    ["text[1..]", 'expected an integer upper bound but found "]"', 8],
    ["member<eng", "unclosed '<'", 6],
    ["member<", "unclosed '<'", 6],
    ["member< ", "unclosed '<'", 6],
    ["member<>", 'expected a team alias but found ">"', 7],
    ["member<1>", 'expected a team alias but found "1"', 7],
    ["member<a b>", "expected '>' but found \"b\"", 9],
    ["text[6..1]", "lower bound 6 is greater than upper bound 1", 5],
    ["text[-1..2]", "array bounds must be non-negative integers", 5],
    ["text[1..-2]", "array bounds must be non-negative integers", 8],
    ["text[1.5..2]", "array bounds must be non-negative integers", 5],
    ["text[1..2.5]", "array bounds must be non-negative integers", 8],
    ["text[1e3..2000]", "array bounds must be non-negative integers", 5],
    ["text[99999999999999999..1]", "array bound 99999999999999999 is too large", 5],
    ["text foo", 'unexpected "foo" after the type', 5],
    ["text]", 'unexpected "]" after the type', 4],
    ["text>", 'unexpected ">" after the type', 4],
    ["text[] []x", 'unexpected "x" after the type', 9],
    [
      "text" + "[]".repeat(MAX_ARRAY_NESTING + 1),
      "arrays are nested deeper than 32 levels",
      4 + 2 * MAX_ARRAY_NESTING,
    ],
    [
      "a".repeat(MAX_TYPE_EXPRESSION_LENGTH + 1),
      "type expression is longer than 1000 characters",
      1000,
    ],
  ])("%j", (text, message, offset) => {
    expect(parseTypeExpression(text)).toEqual({ ok: false, error: { message, offset } });
  });
});

describe("parseTypeExpression: adversarial input", () => {
  it("rejects long and deeply bracketed input at once", () => {
    expect(parseTypeExpression("[".repeat(1_000_000))).toEqual({
      ok: false,
      error: { message: "type expression is longer than 1000 characters", offset: 1000 },
    });
    expect(parseTypeExpression("text" + "[".repeat(990))).toEqual({
      ok: false,
      error: { message: 'expected an integer lower bound but found "["', offset: 5 },
    });
    expect(parseTypeExpression("text" + "[]".repeat(498))).toEqual({
      ok: false,
      error: { message: "arrays are nested deeper than 32 levels", offset: 68 },
    });
  });

  it("never throws and reports offsets inside the input", () => {
    const alphabet = fc.constantFrom(..."ab_1 <>[].-member09\t".split(""));
    const input = fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 60 }));
    fc.assert(
      fc.property(input, (text) => {
        const result = parseTypeExpression(text);
        if (!result.ok) {
          expect(result.error.offset).toBeGreaterThanOrEqual(0);
          expect(result.error.offset).toBeLessThanOrEqual(Math.max(text.length, 1000));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const RESERVED = new Set(["text", "string", "number", "integer", "bool", "boolean"]);
["path", "duration", "any"].forEach((n) => RESERVED.add(n));

const expressionType: fc.Arbitrary<TypeNode> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom<PrimitiveName>("text", "number", "integer", "bool", "path", "duration"),
      fc.constant("any" as const),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).map((team) => ({ team })),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((n) => !RESERVED.has(n)),
    ),
    fc.array(fc.option(fc.tuple(fc.nat(20), fc.nat(20)), { nil: undefined }), { maxLength: 5 }),
  )
  .map(([primary, suffixes]) => {
    let type: TypeNode =
      typeof primary === "object"
        ? { kind: "member", team: primary.team }
        : primary === "any"
          ? { kind: "any" }
          : (primitiveType(primary) ?? named(primary));
    for (const bounds of suffixes) {
      type =
        bounds === undefined
          ? array(type)
          : array(type, [Math.min(...bounds), Math.max(...bounds)]);
    }
    return type;
  });

describe("formatType", () => {
  it("prints expression types that parse back to the same node", () => {
    fc.assert(
      fc.property(expressionType, (type) => {
        expect(parseTypeExpression(formatType(type))).toEqual({ ok: true, type });
      }),
      { numRuns: 1000 },
    );
  });

  it.each<[string, TypeNode]>([
    ["WorkItem[1..6]", array(named("WorkItem"), [1, 6])],
    ["member<engineering>[]", array({ kind: "member", team: "engineering" })],
    ["schema", { kind: "schema", schema: { anyOf: [] } }],
    ["Evidence", { kind: "object", fields: [], typeName: "Evidence" }],
    [
      "{style: Findings, note?: text[]}",
      {
        kind: "object",
        fields: [
          { name: "style", optional: false, type: named("Findings") },
          { name: "note", optional: true, type: array(prim("text")) },
        ],
      },
    ],
    [
      "{a: {a: {a: {a: {a: {a: {…}}}}}}}",
      Array.from({ length: 10 }).reduce<TypeNode>(
        (inner) => ({ kind: "object", fields: [{ name: "a", optional: false, type: inner }] }),
        prim("bool"),
      ),
    ],
  ])("%s", (text, type) => {
    expect(formatType(type)).toBe(text);
  });
});

describe("formatType on hand-built cyclic nodes", () => {
  it("abbreviates instead of overflowing the stack", () => {
    const node = { kind: "array", element: prim("text") } as { kind: "array"; element: TypeNode };
    node.element = node;
    expect(formatType(node)).toBe("…" + "[]".repeat(65));
  });
});
