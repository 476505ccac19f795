import { describe, expect, it } from "vitest";
import { resolveShape } from "../../../src/model/shape/resolve.js";
import { compileShape, compileType } from "../../../src/model/shape/compile.js";
import type { TypeNode } from "../../../src/model/shape/type-expr.js";
import type { JsonSchemaField, SchemaShape } from "../../../src/model/types.js";

type Types = Readonly<Record<string, SchemaShape>>;

const SEED_TYPES: Types = {
  Plan: { summary: "text", work: "WorkItem[1..6]" },
  WorkItem: { id: "text", owner: "member<engineering>", writes: "path[]" },
};

const WORK_ITEM_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string" },
    owner: { type: "string", "x-flow-member": "engineering" },
    writes: { type: "array", items: { type: "string" } },
  },
  required: ["id", "owner", "writes"],
  additionalProperties: false,
};

const PLAN_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    work: { type: "array", items: WORK_ITEM_SCHEMA, minItems: 1, maxItems: 6 },
  },
  required: ["summary", "work"],
  additionalProperties: false,
};

describe("compileShape: the seed's JSON Schema mapping, row by row", () => {
  it.each<[string, JsonSchemaField]>([
    ["text", { type: "string" }],
    ["path", { type: "string" }],
    ["string", { type: "string" }],
    ["number", { type: "number" }],
    ["duration", { type: "number" }],
    ["integer", { type: "integer" }],
    ["bool", { type: "boolean" }],
    ["boolean", { type: "boolean" }],
    ["any", {}],
    ["member<engineering>", { type: "string", "x-flow-member": "engineering" }],
    ["text[]", { type: "array", items: { type: "string" } }],
    ["number[1..6]", { type: "array", items: { type: "number" }, minItems: 1, maxItems: 6 }],
    ["path[][]", { type: "array", items: { type: "array", items: { type: "string" } } }],
    [
      "member<engineering>[]",
      { type: "array", items: { type: "string", "x-flow-member": "engineering" } },
    ],
    ["WorkItem", WORK_ITEM_SCHEMA],
    ["Plan", PLAN_SCHEMA],
  ])("%s", (expression, expected) => {
    expect(compileShape({ f: expression }, SEED_TYPES)).toEqual({
      schema: {
        type: "object",
        properties: { f: expected },
        required: ["f"],
        additionalProperties: false,
      },
      problems: [],
    });
  });

  it("external (undeclared) types compile to {} and are reported", () => {
    const { schema, problems } = compileShape(
      { ext: "Vendor", list: "Vendor[]" },
      {},
      "/inputSchema",
    );
    expect(schema.properties).toEqual({ ext: {}, list: { type: "array", items: {} } });
    expect(problems.map((p) => [p.path, p.reason, p.typeName])).toEqual([
      ["/inputSchema/ext", "unknown-type", "Vendor"],
      ["/inputSchema/list", "unknown-type", "Vendor"],
    ]);
  });
});

describe("compileShape: whole shapes", () => {
  it("compiles the seed's Plan with WorkItem inlined", () => {
    expect(compileShape({ plan: "Plan", "note?": "text" }, SEED_TYPES)).toEqual({
      schema: {
        type: "object",
        properties: { plan: PLAN_SCHEMA, note: { type: "string" } },
        required: ["plan"],
        additionalProperties: false,
      },
      problems: [],
    });
  });

  it("keeps shape order for properties and required", () => {
    const { schema } = compileShape({ z: "text", "m?": "bool", a: "number" }, {});
    expect(Object.keys(schema.properties)).toEqual(["z", "m", "a"]);
    expect(schema.required).toEqual(["z", "a"]);
  });

  it("emits required: [] when every field is optional", () => {
    expect(compileShape({ "a?": "text" }, {}).schema.required).toEqual([]);
  });

  it("keeps JSON Schema field types verbatim, minus a boolean required", () => {
    const { schema } = compileShape(
      {
        email: { type: "string", format: "email", description: "contact", required: true },
        "tags?": { type: "array", items: { type: "string" }, uniqueItems: true },
        meta: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        opt: { anyOf: [{ type: "string" }, { type: "null" }], required: false },
      },
      {},
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email", description: "contact" },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
        meta: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        opt: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["email", "meta"],
      additionalProperties: false,
    });
  });

  it("inlines JSON Schema fields of named types verbatim too", () => {
    const types: Types = { Contact: { email: { type: "string", format: "email" } } };
    expect(compileShape({ c: "Contact[]" }, types).schema.properties).toEqual({
      c: {
        type: "array",
        items: {
          type: "object",
          properties: { email: { type: "string", format: "email" } },
          required: ["email"],
          additionalProperties: false,
        },
      },
    });
  });

  it("compiles a recursive reference to an open array and reports it", () => {
    const types: Types = { Node: { value: "text", children: "Node[]" } };
    const { schema, problems } = compileShape({ root: "Node" }, types);
    expect(schema.properties).toEqual({
      root: {
        type: "object",
        properties: { value: { type: "string" }, children: { type: "array", items: {} } },
        required: ["value", "children"],
        additionalProperties: false,
      },
    });
    expect(problems.map((p) => [p.path, p.reason])).toEqual([
      ["/types/Node/children", "recursive"],
    ]);
  });

  it("invalid JSON Schema fields compile to {}", () => {
    const { schema, problems } = compileShape({ a: { type: "strng" } }, {}, "/x");
    expect(schema.properties).toEqual({ a: {} });
    expect(problems.map((p) => [p.path, p.reason])).toEqual([["/x/a", "invalid-schema"]]);
  });

  it("defines constructor and toString as plain properties and drops __proto__", () => {
    const shape = JSON.parse(
      '{"__proto__": "text", "constructor": "number", "toString?": "text"}',
    ) as SchemaShape;
    const { schema, problems } = compileShape(shape, {});
    expect(JSON.stringify(schema)).toBe(
      '{"type":"object","properties":{"constructor":{"type":"number"},"toString":{"type":"string"}},"required":["constructor"],"additionalProperties":false}',
    );
    expect(Object.getOwnPropertyDescriptor(schema.properties, "constructor")?.value).toEqual({
      type: "number",
    });
    expect(problems.map((p) => [p.path, p.reason])).toEqual([["/__proto__", "invalid-schema"]]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it("is deterministic and frozen", () => {
    const first = compileShape({ plan: "Plan" }, SEED_TYPES);
    const reordered: Types = {
      WorkItem: SEED_TYPES.WorkItem ?? {},
      Plan: SEED_TYPES.Plan ?? {},
    };
    expect(JSON.stringify(compileShape({ plan: "Plan" }, reordered).schema)).toBe(
      JSON.stringify(first.schema),
    );
    expect(Object.isFrozen(first.schema)).toBe(true);
    expect(Object.isFrozen(first.schema.properties)).toBe(true);
    expect(Object.isFrozen(first.schema.required)).toBe(true);
  });
});

describe("compileType", () => {
  it("compiles a resolved type like compileShape compiles the shape", () => {
    const shape: SchemaShape = { plan: "Plan", "n?": "integer[0..3]", who: "member<ops>" };
    const { type } = resolveShape(shape, SEED_TYPES, "");
    expect(compileType(type)).toEqual(compileShape(shape, SEED_TYPES).schema);
  });

  it.each<[string, TypeNode, JsonSchemaField]>([
    ["unresolved reference", { kind: "named", name: "X" }, {}],
    [
      "schema node",
      { kind: "schema", schema: { anyOf: [{ type: "string" }] } },
      { anyOf: [{ type: "string" }] },
    ],
    ["any", { kind: "any" }, {}],
  ])("%s", (_title, type, expected) => {
    expect(compileType(type)).toEqual(expected);
  });

  it("does not recurse on deep trees", () => {
    let type: TypeNode = { kind: "primitive", name: "bool" };
    for (let i = 0; i < 50_000; i += 1) {
      type =
        i % 2 === 0
          ? { kind: "array", element: type }
          : { kind: "object", fields: [{ name: "x", optional: false, type }] };
    }
    expect(compileType(type)).toMatchObject({ type: "object", required: ["x"] });
  });
});

describe("hand-built cyclic nodes", () => {
  it("compileType gives {} where a node contains itself", () => {
    const fields: { name: string; optional: boolean; type: TypeNode }[] = [];
    const node: TypeNode = { kind: "object", fields };
    fields.push({ name: "self", optional: false, type: node });
    expect(compileType(node)).toEqual({
      type: "object",
      properties: { self: {} },
      required: ["self"],
      additionalProperties: false,
    });
  });
});
