/**
 * Writes the published JSON Schemas (`schemas/*.json`) from their TypeScript source. Run after
 * changing `src/model/schema/workflow.ts`; `test/model/schema.test.ts` fails while they differ.
 */
import { writeFileSync } from "node:fs";
import { publishedSchemas } from "../src/model/schema/published.js";

for (const [file, schema] of Object.entries(publishedSchemas)) {
  writeFileSync(
    new URL(`../schemas/${file}`, import.meta.url),
    JSON.stringify(schema, null, 2) + "\n",
  );
  console.log(`wrote schemas/${file}`);
}
