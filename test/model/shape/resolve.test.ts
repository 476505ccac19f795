import { describe, expect, it } from "vitest";
import { resolveShape } from "../../../src/model/shape/resolve.js";
import type { ShapeProblem } from "../../../src/model/shape/types.js";
import type { ObjectField, PrimitiveName, TypeNode } from "../../../src/model/shape/type-expr.js";
import type { SchemaShape } from "../../../src/model/types.js";

type Types = Readonly<Record<string, SchemaShape>>;

const prim = (name: PrimitiveName): TypeNode => ({ kind: "primitive", name });
const ANY: TypeNode = { kind: "any" };
const field = (name: string, type: TypeNode, optional = false): ObjectField => ({
  name,
  optional,
  type,
});
const obj = (fields: ObjectField[], typeName?: string): TypeNode =>
  typeName === undefined ? { kind: "object", fields } : { kind: "object", fields, typeName };

/** The seed's Plan / WorkItem declarations, WorkItem written after its first use. */
const SEED_TYPES: Types = {
  Plan: { summary: "text", work: "WorkItem[1..6]" },
  WorkItem: { id: "text", owner: "member<engineering>", writes: "path[]" },
};

const WORK_ITEM = obj(
  [
    field("id", prim("text")),
    field("owner", { kind: "member", team: "engineering" }),
    field("writes", { kind: "array", element: prim("path") }),
  ],
  "WorkItem",
);

describe("resolveShape: the seed's Plan and WorkItem", () => {
  it("inlines named types, forward references included", () => {
    expect(resolveShape({ plan: "Plan" }, SEED_TYPES, "/outputSchema")).toEqual({
      type: obj([
        field(
          "plan",
          obj(
            [
              field("summary", prim("text")),
              field("work", { kind: "array", element: WORK_ITEM, minItems: 1, maxItems: 6 }),
            ],
            "Plan",
          ),
        ),
      ]),
      problems: [],
    });
  });

  it("marks `name?` fields optional and strips the marker", () => {
    const shape = { query: "text", "sources?": "path[]", "limit?": "integer" };
    expect(resolveShape(shape, undefined, "/inputSchema")).toEqual({
      type: obj([
        field("query", prim("text")),
        field("sources", { kind: "array", element: prim("path") }, true),
        field("limit", prim("integer"), true),
      ]),
      problems: [],
    });
  });
});

describe("resolveShape: JSON Schema field types", () => {
  it.each<[string, SchemaShape[string], TypeNode, boolean]>([
    ["string", { type: "string" }, prim("text"), false],
    ["number", { type: "number" }, prim("number"), false],
    ["integer", { type: "integer" }, prim("integer"), false],
    ["boolean", { type: "boolean" }, prim("bool"), false],
    ["required: true", { type: "string", required: true }, prim("text"), false],
    ["required: false", { type: "string", required: false }, prim("text"), true],
    ["empty schema", {}, ANY, false],
    ["annotations only", { description: "anything", title: "x" }, ANY, false],
    ["value constraints", { type: "string", format: "email", maxLength: 9 }, prim("text"), false],
    ["array without items", { type: "array" }, { kind: "array", element: ANY }, false],
    [
      "array with items and bounds",
      { type: "array", items: { type: "number" }, minItems: 1, maxItems: 3 },
      { kind: "array", element: prim("number"), minItems: 1, maxItems: 3 },
      false,
    ],
    [
      "object",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "array", items: { type: "boolean" } } },
        required: ["a", "c"],
        additionalProperties: false,
      },
      obj([
        field("a", prim("text")),
        field("b", { kind: "array", element: prim("bool") }, true),
        field("c", ANY),
      ]),
      false,
    ],
    [
      "type list",
      { type: ["string", "null"] },
      { kind: "schema", schema: { type: ["string", "null"] } },
      false,
    ],
    ["null", { type: "null" }, { kind: "schema", schema: { type: "null" } }, false],
    [
      "anyOf",
      { anyOf: [{ type: "string" }] },
      { kind: "schema", schema: { anyOf: [{ type: "string" }] } },
      false,
    ],
    [
      "keyword of another type",
      { type: "string", items: {} },
      { kind: "schema", schema: { type: "string", items: {} } },
      false,
    ],
    [
      "$ref",
      { $defs: { a: { type: "string" } }, $ref: "#/$defs/a", required: false },
      { kind: "schema", schema: { $defs: { a: { type: "string" } }, $ref: "#/$defs/a" } },
      true,
    ],
  ])("%s", (_title, schema, type, optional) => {
    expect(resolveShape({ f: schema }, {}, "/s")).toEqual({
      type: obj([field("f", type, optional)]),
      problems: [],
    });
  });

  it("a `?` marker keeps a field optional even with required: true", () => {
    const { type } = resolveShape({ "f?": { type: "string", required: true } }, {}, "");
    expect(type).toEqual(obj([field("f", prim("text"), true)]));
  });
});

describe("resolveShape: problems", () => {
  it.each<[string, SchemaShape, ShapeProblem[], TypeNode]>([
    [
      "syntax, with the offset in the expression",
      { "items?": "text[1..]" },
      [
        {
          path: "/s/items?",
          reason: "syntax",
          message: 'expected an integer upper bound but found "]" (in "text[1..]")',
          offset: 8,
        },
      ],
      obj([field("items", ANY, true)]),
    ],
    [
      "unknown type, keeping the array structure",
      { items: "Thing[]" },
      [
        {
          path: "/s/items",
          reason: "unknown-type",
          message: 'unknown type "Thing": it is neither a primitive nor declared in types',
          typeName: "Thing",
        },
      ],
      obj([field("items", { kind: "array", element: ANY })]),
    ],
    [
      "invalid JSON Schema",
      { a: { type: "strng" } },
      [
        {
          path: "/s/a",
          reason: "invalid-schema",
          message:
            "invalid JSON Schema: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf",
        },
      ],
      obj([field("a", ANY)]),
    ],
    [
      "unresolvable $ref",
      { a: { $ref: "#/nope" } },
      [
        {
          path: "/s/a",
          reason: "invalid-schema",
          message: "invalid JSON Schema: can't resolve reference #/nope from id #",
        },
      ],
      obj([field("a", ANY)]),
    ],
    [
      "a field declared twice",
      { a: "text", "a?": "number" },
      [{ path: "/s/a?", reason: "syntax", message: 'field "a" is declared twice ("a" and "a?")' }],
      obj([field("a", prim("text"))]),
    ],
    [
      "JSON Pointer escaping",
      { "x/y~z": "Nope" },
      [
        {
          path: "/s/x~1y~0z",
          reason: "unknown-type",
          message: 'unknown type "Nope": it is neither a primitive nor declared in types',
          typeName: "Nope",
        },
      ],
      obj([field("x/y~z", ANY)]),
    ],
  ])("%s", (_title, shape, problems, type) => {
    expect(resolveShape(shape, {}, "/s")).toEqual({ type, problems });
  });

  it.each<[string, unknown]>([
    ["a number", 42],
    ["null", null],
    ["an array", ["text"]],
    ["a boolean", true],
  ])("a field type that is %s is invalid-schema", (_title, value) => {
    const shape = JSON.parse(JSON.stringify({ f: value })) as SchemaShape;
    expect(resolveShape(shape, {}, "/s").problems).toEqual([
      {
        path: "/s/f",
        reason: "invalid-schema",
        message: "a field type must be a type expression string or a JSON Schema object",
      },
    ]);
  });

  it("never throws on values that are not shapes", () => {
    const garbage = [null, 5, "x", [], { T: 5 }, { T: null }] as unknown as Types[];
    for (const g of garbage) {
      expect(() => resolveShape(g as unknown as SchemaShape, g, "")).not.toThrow();
    }
    expect(resolveShape({ a: "T" }, { T: 5 } as unknown as Types, "").problems).toEqual([
      {
        path: "/types/T",
        reason: "invalid-schema",
        message: 'type "T" must be an object mapping field names to types',
        typeName: "T",
      },
    ]);
  });
});

describe("resolveShape: names that exist on Object.prototype", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])(
    "%s is an unknown type when undeclared",
    (name) => {
      const { type, problems } = resolveShape({ a: name, b: `${name}[]` }, {}, "/s");
      expect(type).toEqual(obj([field("a", ANY), field("b", { kind: "array", element: ANY })]));
      expect(problems.map((p) => [p.path, p.reason, p.typeName])).toEqual([
        ["/s/a", "unknown-type", name],
        ["/s/b", "unknown-type", name],
      ]);
    },
  );

  it("declared types named __proto__ and constructor resolve as ordinary types", () => {
    const types = JSON.parse(
      '{"__proto__": {"x": "text"}, "constructor": {"y": "__proto__[]"}}',
    ) as Types;
    const shape = JSON.parse('{"constructor": "constructor", "b": "__proto__"}') as SchemaShape;
    const proto = obj([field("x", prim("text"))], "__proto__");
    expect(resolveShape(shape, types, "")).toEqual({
      type: obj([
        field("constructor", obj([field("y", { kind: "array", element: proto })], "constructor")),
        field("b", proto),
      ]),
      problems: [],
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("a field named __proto__ is reported and dropped", () => {
    const shape = JSON.parse('{"__proto__": "text", "toString": "text"}') as SchemaShape;
    expect(resolveShape(shape, {}, "/s")).toEqual({
      type: obj([field("toString", prim("text"))]),
      problems: [
        {
          path: "/s/__proto__",
          reason: "invalid-schema",
          message:
            'field name "__proto__" is reserved: JSON Schema validators skip it, so it could never be checked',
        },
      ],
    });
  });
});
