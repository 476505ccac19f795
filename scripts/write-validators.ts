/**
 * Writes `src/model/parse/generated/validators.ts`, Ajv's standalone code for the parsers'
 * checks. Run after changing the workflow or tool-contract schema (`npm run schemas` too).
 */
import { writeFileSync } from "node:fs";
import { validatorsCode } from "./validators-code.js";

writeFileSync(
  new URL("../src/model/parse/generated/validators.ts", import.meta.url),
  validatorsCode(),
);
console.log("wrote src/model/parse/generated/validators.ts");
