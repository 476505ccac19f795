/**
 * Writes the published JSON Schemas (`schemas/*.json`) from their TypeScript source. Run after
 * changing `src/model/schema/workflow.ts`, `src/cli/config-schema.ts`,
 * `src/policy/pack-schema.ts`, `src/cli/policy-test-schema.ts` or
 * `src/approval/predicate-schema.ts`; `test/model/schema.test.ts`,
 * `test/cli/config.test.ts`, `test/policy/schema.test.ts`, `test/cli/policy-test-cases.test.ts` and
 * `test/approval/schema.test.ts`
 * fail while they differ.
 */
import { writeFileSync } from "node:fs";
import { APPROVAL_PREDICATE_SCHEMA } from "../src/approval/index.js";
import { configSchema } from "../src/cli/config-schema.js";
import { POLICY_TEST_SCHEMA } from "../src/cli/policy-test-schema.js";
import { publishedSchemas } from "../src/model/schema/published.js";
import { POLICY_PACK_SCHEMA } from "../src/policy/pack-schema.js";

const schemas: Record<string, unknown> = {
  ...publishedSchemas,
  "agentflow-config.schema.json": configSchema(),
  "policy-pack.schema.json": POLICY_PACK_SCHEMA,
  "policy-test.schema.json": POLICY_TEST_SCHEMA,
  "approval-predicate.schema.json": APPROVAL_PREDICATE_SCHEMA,
};
for (const [file, schema] of Object.entries(schemas)) {
  writeFileSync(
    new URL(`../schemas/${file}`, import.meta.url),
    JSON.stringify(schema, null, 2) + "\n",
  );
  console.log(`wrote schemas/${file}`);
}
