import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { publishedSchemas } from "../../src/model/schema/published.js";

describe("published JSON Schemas", () => {
  it.each(Object.entries(publishedSchemas))(
    "schemas/%s equals its TypeScript source",
    (file, schema) => {
      const published: unknown = JSON.parse(
        readFileSync(new URL(`../../schemas/${file}`, import.meta.url), "utf8"),
      );
      expect(published).toEqual(JSON.parse(JSON.stringify(schema)));
    },
  );

  it.each(Object.entries(publishedSchemas))(
    "%s is a valid draft 2020-12 schema with an $id",
    (_file, schema) => {
      const ajv = new Ajv2020({ strict: false });
      expect(ajv.validateSchema(schema)).toBe(true);
      expect((schema as { $id?: string }).$id).toMatch(
        /^https:\/\/agentflow\.dev\/schemas\/.+\.schema\.json$/,
      );
    },
  );

  it("the example workflows name the published schema through $schema", () => {
    const text = readFileSync(
      new URL("../../examples/workflows/market-research.agent.json", import.meta.url),
      "utf8",
    );
    expect((JSON.parse(text) as { $schema: string }).$schema).toBe(
      "../../schemas/agent-workflow.schema.json",
    );
  });
});
