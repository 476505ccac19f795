/**
 * The parsers' validators, compiled by Ajv at first use from the schemas of compiled-schemas.ts.
 * This is what a browser bundle (and a host's bundler, which reads tsc's files) gets: Ajv is in
 * that bundle anyway for the schemas only known at run time (field schemas, policy packs, rule
 * options, approvals), so the ahead-of-time copy of these checks would be a second one.
 * Node's bundles (scripts/node-build.ts) put validators-node.ts in this module's place: the same
 * schemas compiled ahead of time, so that a first parse there compiles nothing.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { CHECK_OPTIONS, CHECK_SCHEMAS } from "./compiled-schemas.js";

let compiled: ReadonlyMap<string, ValidateFunction> | undefined;

function compileAll(): ReadonlyMap<string, ValidateFunction> {
  const ajv = new Ajv2020({ ...CHECK_OPTIONS, logger: false });
  for (const schema of Object.values(CHECK_SCHEMAS)) ajv.addSchema(schema);
  const out = new Map<string, ValidateFunction>();
  for (const [name, schema] of Object.entries(CHECK_SCHEMAS)) {
    const id = (schema as { readonly $id?: string }).$id;
    const validate = id === undefined ? undefined : ajv.getSchema(id);
    if (validate === undefined) throw new Error(`the ${name} check has no schema $id`);
    out.set(name, validate);
  }
  return out;
}

/** The validator of the check named as in `CHECK_SCHEMAS` (`shell`, `node_llm`, `toolContract`). */
export function parseValidator(name: string): ValidateFunction {
  compiled ??= compileAll();
  const validate = compiled.get(name);
  if (validate === undefined) throw new Error(`no validator ${name}`);
  return validate;
}
