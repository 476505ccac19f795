/**
 * A rule's options, checked against the JSON Schema its meta declares (as ESLint checks
 * `meta.schema`): options a rule does not expect are a usage error naming the rule and the
 * place, before any document is read, never a rule that quietly runs with a default.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";

let instance: Ajv2020 | undefined;

/** Its own instance: option schemas are rule authors' schemas, apart from document shapes. */
function ajv(): Ajv2020 {
  instance ??= new Ajv2020({ allErrors: false, strict: false, logger: false, ownProperties: true });
  return instance;
}

/** Compiled validators per schema object: a rule's schema is one object for all its runs. */
const compiled = new WeakMap<object, ValidateFunction>();

/** The compiled schema, or why it does not compile. */
export function compileOptionsSchema(schema: object): ValidateFunction | string {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  try {
    const validate = ajv().compile(schema);
    compiled.set(schema, validate);
    return validate;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Why `options` do not fit the rule's `schema` (`/path message`), or `undefined` when they do
 * or the rule declares no schema.
 */
export function optionsProblem(
  schema: Readonly<Record<string, unknown>> | undefined,
  options: unknown,
): string | undefined {
  if (schema === undefined) return undefined;
  const validate = compileOptionsSchema(schema);
  if (typeof validate === "string") return `its options schema does not compile: ${validate}`;
  if (validate(options)) return undefined;
  const error = validate.errors?.[0];
  if (error === undefined) return "its options do not fit its schema";
  return `options${error.instancePath} ${error.message ?? "do not fit its schema"}`;
}
