/**
 * The parsers' checks run Ajv's standalone code, generated ahead of time
 * (src/model/parse/generated/validators.ts). It must be what the script writes from today's
 * schemas, and judge documents exactly as validators Ajv compiles from them at run time.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_OPTIONS, CHECK_SCHEMAS } from "../../../src/model/parse/compiled-schemas.js";
import * as generated from "../../../src/model/parse/generated/validators.js";
import { validatorsCode } from "../../../scripts/validators-code.js";

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
});
