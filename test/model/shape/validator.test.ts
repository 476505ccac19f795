import { describe, expect, it } from "vitest";
import { shapeValidator } from "../../../src/model/shape/validator.js";
import type { SchemaShape } from "../../../src/model/types.js";

type Types = Readonly<Record<string, SchemaShape>>;

const seedTypes = (): Types => ({
  Plan: { summary: "text", work: "WorkItem[1..6]" },
  WorkItem: { id: "text", owner: "member<engineering>", writes: "path[]" },
});

const item = (id: string) => ({ id, owner: "ana", writes: [`src/${id}`] });
const items = (n: number) => Array.from({ length: n }, (_, i) => item(`w${i}`));

describe("shapeValidator: cache", () => {
  it("equal shapes built separately share one validator", () => {
    const a = shapeValidator({ plan: "Plan", "note?": "text" }, seedTypes());
    const b = shapeValidator({ plan: "Plan", "note?": "text" }, seedTypes());
    expect(b).toBe(a);
  });

  it("the key is canonical JSON, so key order does not matter", () => {
    const a = shapeValidator({ x: "text", y: "number" }, { T: { a: "text", b: "bool" } });
    const b = shapeValidator(
      JSON.parse('{"y": "number", "x": "text"}') as SchemaShape,
      JSON.parse('{"T": {"b": "bool", "a": "text"}}') as Types,
    );
    expect(b).toBe(a);
  });

  it("missing types and empty types are the same key", () => {
    expect(shapeValidator({ q: "text" })).toBe(shapeValidator({ q: "text" }, {}));
  });

  it.each<[string, SchemaShape, Types]>([
    ["another field type", { plan: "text" }, seedTypes()],
    ["another optionality", { "plan?": "Plan" }, seedTypes()],
    ["other types", { plan: "Plan" }, { Plan: { summary: "number" } }],
  ])("%s gives another validator", (_title, shape, types) => {
    expect(shapeValidator(shape, types)).not.toBe(shapeValidator({ plan: "Plan" }, seedTypes()));
  });
});

describe("shapeValidator: Ajv enforces the compiled schema", () => {
  const validate = shapeValidator({ plan: "Plan", "note?": "text" }, seedTypes());

  it.each<[string, unknown, boolean, string[]]>([
    ["1 item (lower bound)", { plan: { summary: "s", work: items(1) } }, true, []],
    ["6 items (upper bound)", { plan: { summary: "s", work: items(6) } }, true, []],
    ["0 items", { plan: { summary: "s", work: [] } }, false, ["/plan/work minItems"]],
    ["7 items", { plan: { summary: "s", work: items(7) } }, false, ["/plan/work maxItems"]],
    [
      "an extra top-level field",
      { plan: { summary: "s", work: items(1) }, extra: 1 },
      false,
      [" additionalProperties"],
    ],
    [
      "an extra field in an inlined type",
      { plan: { summary: "s", work: [{ ...item("a"), done: true }] } },
      false,
      ["/plan/work/0 additionalProperties"],
    ],
    ["a missing required field", { note: "n" }, false, [" required"]],
    [
      "all errors, not just the first",
      { plan: { summary: 3, work: [{ id: "a", owner: 7, writes: "x" }] } },
      false,
      ["/plan/summary type", "/plan/work/0/owner type", "/plan/work/0/writes type"],
    ],
    [
      "a wrong optional field",
      { plan: { summary: "s", work: items(1) }, note: 5 },
      false,
      ["/note type"],
    ],
  ])("%s", (_title, value, valid, errors) => {
    expect(validate(value)).toBe(valid);
    expect((validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(errors);
  });

  it.each<[string, string, unknown, boolean]>([
    ["integer accepts 2", "integer", 2, true],
    ["integer rejects 1.5", "integer", 1.5, false],
    ["duration accepts ms", "duration", 1500.5, true],
    ["duration rejects text", "duration", "1s", false],
    ["member accepts an id", "member<ops>", "ana", true],
    ["member rejects a number", "member<ops>", 1, false],
    ["any accepts null", "any", null, true],
    ["bool rejects text", "bool", "true", false],
    ["external accepts anything", "Vendor", { any: ["thing"] }, true],
  ])("%s", (_title, expression, value, valid) => {
    expect(shapeValidator({ v: expression }, {})({ v: value })).toBe(valid);
  });

  it("validates formats in JSON Schema fields", () => {
    const check = shapeValidator({ email: { type: "string", format: "email" } }, {});
    expect(check({ email: "ana@example.com" })).toBe(true);
    expect(check({ email: "not an email" })).toBe(false);
  });

  it("resolves a JSON Schema field that refers to the draft 2020-12 meta-schema", () => {
    const check = shapeValidator(
      { schema: { $ref: "https://json-schema.org/draft/2020-12/schema" } },
      {},
    );
    expect(check({ schema: { type: "string", minLength: 1 } })).toBe(true);
    expect(check({ schema: { type: 12 } })).toBe(false);
    expect(check({ schema: { minLength: -1 } })).toBe(false);
  });

  it("checks fields named like Object.prototype members as own properties", () => {
    const check = shapeValidator({ constructor: "number", "toString?": "text" }, {});
    expect(check({ constructor: 1 })).toBe(true);
    expect(check({})).toBe(false);
    expect(check.errors?.map((e) => e.keyword)).toEqual(["required"]);
    expect(check({ constructor: 1, toString: 2 })).toBe(false);
  });

  it("rejects data carrying __proto__ (fails closed)", () => {
    const check = shapeValidator(JSON.parse('{"__proto__": "text"}') as SchemaShape, {});
    expect(check(JSON.parse('{"__proto__": "x"}'))).toBe(false);
    expect(check({})).toBe(true);
  });
});
