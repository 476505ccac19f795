/**
 * The policy pack schema is published for editors (`schemas/policy-pack.schema.json`, written by
 * `npm run schemas`) and is the one packs are checked against.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { POLICY_PACK_SCHEMA } from "../../src/policy/index.js";

describe("schemas/policy-pack.schema.json", () => {
  it("is published as npm run schemas writes it", () => {
    const published = readFileSync(
      new URL("../../schemas/policy-pack.schema.json", import.meta.url),
      "utf8",
    );
    expect(published).toBe(JSON.stringify(POLICY_PACK_SCHEMA, null, 2) + "\n");
  });

  it("accepts a pack and refuses an unknown subject, as strict Ajv 2020 reads it", () => {
    const validate = new Ajv2020({ strict: true }).compile(POLICY_PACK_SCHEMA);
    const pack = {
      kind: "PolicyPack",
      name: "bank",
      version: "1.0.0",
      rules: [
        {
          id: "four-eyes",
          severity: "error",
          for: "agentTask",
          require: { gates: { distinctRoles: 2 } },
        },
      ],
      waivers: [
        {
          rule: "four-eyes",
          process: "P",
          element: "E",
          reason: "r",
          grantedBy: "g",
          expires: "2027-03-31",
        },
      ],
    };
    expect(validate(pack)).toBe(true);
    expect(validate({ ...pack, rules: [{ id: "x", severity: "error", for: "agent" }] })).toBe(
      false,
    );
    expect(validate({ ...pack, waivers: [{ ...pack.waivers[0], process: undefined }] })).toBe(
      false,
    );
  });
});
