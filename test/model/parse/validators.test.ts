/**
 * The parsers' checks run validators Ajv compiles at first use (validators.ts) or, in Node's
 * bundles, Ajv's standalone code generated ahead of time (validators-node.ts, from
 * src/model/parse/generated/validators.ts). The generated file must be what the script writes
 * from today's schemas, and both must judge documents exactly as Ajv compiling them does.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_OPTIONS, CHECK_SCHEMAS } from "../../../src/model/parse/compiled-schemas.js";
import * as generated from "../../../src/model/parse/generated/validators.js";
import { validatorsCode } from "../../../scripts/validators-code.js";
import { parseValidator } from "../../../src/model/parse/validators.js";
import { parseValidator as nodeValidator } from "../../../src/model/parse/validators-node.js";

const FILE = new URL("../../../src/model/parse/generated/validators.ts", import.meta.url);

const documents: readonly unknown[] = [
  { kind: "AgentWorkflow" },
  { id: "x", type: "llm", config: { model: "", promptRef: 3 }, extra: true },
  { id: "t", type: "tool", config: { usesTool: "tool:x@1.0.0", timeoutMs: -1 } },
  { id: "d", type: "decision", config: { cases: [], otherwise: { next: "" } } },
  { id: "d", type: "decision", config: { condition: "x", onTrue: { next: "end" } } },
  { id: "𝒳", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
  { kind: "ToolContract", id: "tool:x", version: "1", effect: "delete" },
  null,
  [],
  "text",
];

describe("generated validators", () => {
  it("are what `npm run validators` writes from today's schemas", () => {
    expect(readFileSync(FILE, "utf8")).toBe(validatorsCode());
  });

  it.each(Object.keys(CHECK_SCHEMAS))(
    "%s gives the errors a runtime-compiled one gives",
    (name) => {
      const ajv = new Ajv2020(CHECK_OPTIONS);
      const reference = ajv.compile(CHECK_SCHEMAS[name] ?? false);
      const validate = (generated as unknown as Record<string, typeof reference>)[name];
      if (validate === undefined) throw new Error(`no generated validator ${name}`);
      for (const doc of documents) {
        expect(validate(doc)).toBe(reference(doc));
        expect(validate.errors ?? null).toEqual(reference.errors ?? null);
      }
    },
  );

  it.each(Object.keys(CHECK_SCHEMAS))(
    "%s: the run-time and the Node validators judge as Ajv compiling the schema",
    (name) => {
      const reference = new Ajv2020(CHECK_OPTIONS).compile(CHECK_SCHEMAS[name] ?? false);
      for (const validate of [parseValidator(name), nodeValidator(name)]) {
        for (const doc of documents) {
          expect(validate(doc)).toBe(reference(doc));
          expect(validate.errors ?? null).toEqual(reference.errors ?? null);
        }
      }
    },
  );

  it("both refuse a check that does not exist", () => {
    expect(() => parseValidator("nodes")).toThrow("no validator nodes");
    expect(() => nodeValidator("nodes")).toThrow("no validator nodes");
  });
});
