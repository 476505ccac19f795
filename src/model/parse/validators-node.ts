/**
 * The parsers' validators compiled ahead of time (generated/validators.ts, Ajv's standalone code
 * of the same schemas): what Node's bundles (scripts/node-build.ts) put in place of
 * validators.ts, so that a first parse or a CLI run compiles no schema. Same export as that file.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import * as generated from "./generated/validators.js";

/** The validator of the check named as in `CHECK_SCHEMAS` (`shell`, `node_llm`, `toolContract`). */
export function parseValidator(name: string): ValidateFunction {
  // The standalone code is untyped JavaScript; each export is an Ajv validate function.
  const validate = (generated as Readonly<Record<string, unknown>>)[name];
  if (typeof validate !== "function") throw new Error(`no validator ${name}`);
  return validate as ValidateFunction;
}
