/**
 * The approval predicate's schema is published for other verifiers
 * (`schemas/approval-predicate.schema.json`, written by `npm run schemas`) and is the one
 * statements are checked against.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { APPROVAL_PREDICATE_SCHEMA } from "../../src/approval/index.js";
import { copy, sampleStatement } from "./helpers.js";

describe("schemas/approval-predicate.schema.json", () => {
  it("is published as npm run schemas writes it", () => {
    const published = readFileSync(
      new URL("../../schemas/approval-predicate.schema.json", import.meta.url),
      "utf8",
    );
    expect(published).toBe(JSON.stringify(APPROVAL_PREDICATE_SCHEMA, null, 2) + "\n");
  });

  it("accepts a predicate createStatement wrote and refuses an unknown field, as strict Ajv reads it", () => {
    const validate = new Ajv2020({ strict: true }).compile(APPROVAL_PREDICATE_SCHEMA);
    const predicate = copy(sampleStatement().predicate);
    expect(validate(predicate)).toBe(true);
    expect(validate({ ...predicate, extra: 1 })).toBe(false);
    expect(validate({ ...predicate, approver: { role: "r" } })).toBe(false);
  });

  it("has the predicate type as its $id", () => {
    expect(APPROVAL_PREDICATE_SCHEMA.$id).toBe("https://agentflow.dev/approval/v1");
  });
});
