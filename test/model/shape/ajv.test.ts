import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { compileValidator } from "../../../src/model/shape/ajv.js";
import { readFields } from "../../../src/model/shape/fields.js";
import { shapeValidator } from "../../../src/model/shape/validator.js";

const META = "https://json-schema.org/draft/2020-12";

describe("compileValidator: which refusals get the meta-schema instance", () => {
  it("a field whose $id clashes with a schema compiled earlier rejects every value", () => {
    // Every compiled shape is held under the empty id, so a field with `$id: ""` clashes with
    // whatever was compiled before it: that refusal must not be retried on the other instance.
    expect(shapeValidator({ before: "text" }, {})({ before: "x" })).toBe(true);
    const clash = shapeValidator({ first: { $id: "", type: "string" } }, {});
    expect(clash({ first: "x" })).toBe(false);
    expect(clash.errors?.map((e) => e.keyword)).toEqual(["false schema"]);
    const again = shapeValidator({ second: { $id: "", type: "string" } }, {});
    expect(again({ second: "x" })).toBe(false);
  });

  it("a $ref into a meta-schema other than the main one is resolved", () => {
    const check = shapeValidator(
      { kind: { $ref: `${META}/meta/validation#/$defs/simpleTypes` } },
      {},
    );
    expect(check({ kind: "string" })).toBe(true);
    expect(check({ kind: "text" })).toBe(false);
    expect(check.errors?.map((e) => e.keyword)).toEqual(["enum"]);
  });

  it("a $ref that is not a meta-schema fails closed", () => {
    const check = compileValidator({
      type: "object",
      properties: { a: { $ref: "https://example.com/nowhere" } },
    });
    expect(check({})).toBe(false);
    expect(check.errors?.map((e) => e.keyword)).toEqual(["false schema"]);
  });

  it("a $ref to a missing schema under the meta-schemas' address fails closed", () => {
    const check = compileValidator({ properties: { a: { $ref: `${META}/meta/nothing` } } });
    expect(check({})).toBe(false);
  });
});

describe("jsonSchemaError where generated code is forbidden", () => {
  it("says a field's schema could not be checked, never that a valid one is invalid", () => {
    // Node's --disallow-code-generation-from-strings refuses `new Function` as a content security
    // policy without 'unsafe-eval' does (the Camunda Modeler's): Ajv cannot compile any schema.
    const script = `import { readFields } from ${JSON.stringify(new URL("../../../src/model/shape/fields.ts", import.meta.url).pathname)};
console.log(JSON.stringify(readFields({ amount: { type: "number", minimum: 0 }, bad: { type: "nope" }, q: "text" }, "/inputSchema", () => false).problems.map((p) => [p.path, p.reason])));`;
    const result = spawnSync(
      process.execPath,
      [
        "--disallow-code-generation-from-strings",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ],
      { encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(result.stderr);
    expect(JSON.parse(result.stdout)).toEqual([
      ["/inputSchema/amount", "unchecked-schema"],
      ["/inputSchema/bad", "unchecked-schema"],
    ]);
    // Where code may be generated (here), the valid schema passes and the invalid one is named.
    const here = readFields(
      { amount: { type: "number", minimum: 0 }, bad: { type: "nope" }, q: "text" },
      "/inputSchema",
      () => false,
    );
    expect(here.problems.map((p) => [p.path, p.reason])).toEqual([
      ["/inputSchema/bad", "invalid-schema"],
    ]);
  });
});
