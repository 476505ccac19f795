/**
 * The one Ajv instance behind shapes: it checks field-level JSON Schemas and compiles shape
 * validators. It is created on first use so that importing the model costs nothing.
 */
import { Ajv2020, MissingRefError } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import canonicalize from "canonicalize";

let checker: Ajv2020 | undefined;
let compiler: Ajv2020 | undefined;
let metaCompiler: Ajv2020 | undefined;

function create(validateSchema: boolean, meta: boolean): Ajv2020 {
  // strict: false because field schemas carry annotations such as `x-flow-member`; logger:
  // false because a library must not write to the console on a user's behalf; ownProperties
  // because otherwise a field named `constructor` or `toString` counts as present on every
  // object through its prototype. `meta: false` leaves the meta-schemas out: adding them is
  // most of making an instance, a share of a first simulation.
  const instance = new Ajv2020({
    allErrors: true,
    strict: false,
    logger: false,
    ownProperties: true,
    validateSchema,
    meta,
  });
  formatsModule.default(instance);
  return instance;
}

/** The instance that checks a field's own JSON Schema against the draft 2020-12 meta-schema. */
function ajv(): Ajv2020 {
  checker ??= create(true, true);
  return checker;
}

/**
 * The instance that compiles whole-shape schemas. `compileShape` writes them from the type
 * language and from field schemas `jsonSchemaError` has already checked (a field that fails is
 * compiled as `{}`), so checking them against the meta-schema again proves nothing — and
 * compiling the meta-schema is most of a first simulation's cost. It holds no meta-schemas
 * either; a schema that refers to one goes to {@link shapeCompilerWithMeta}.
 */
function shapeCompiler(): Ajv2020 {
  compiler ??= create(false, false);
  return compiler;
}

/** {@link shapeCompiler} with the meta-schemas, made only for a schema the other refuses. */
function shapeCompilerWithMeta(): Ajv2020 {
  metaCompiler ??= create(false, true);
  return metaCompiler;
}

/** Results per schema object: one document's shapes are checked again by every rule. */
const checkedObjects = new WeakMap<object, SchemaCheckError | null>();
/** Results per canonical text, so equal schemas in different documents compile once. */
const checkedTexts = new Map<string, SchemaCheckError | null>();
const MAX_CHECKED_TEXTS = 1024;

function canonicalText(schema: object): string | undefined {
  try {
    return canonicalize(schema);
  } catch {
    return undefined;
  }
}

/**
 * What checking a field's JSON Schema found: why it is unusable, or that it could not be checked
 * at all (the page forbids generated code, which Ajv compiles schemas to: a content security
 * policy without `'unsafe-eval'`, as the Camunda Modeler's).
 */
export type SchemaCheckError = { readonly unusable: string } | { readonly unchecked: string };

function compileError(schema: object): SchemaCheckError | null {
  const engine = ajv();
  try {
    engine.compile(schema);
    return null;
  } catch (e) {
    // The environment refused, not the schema: a valid schema must not read as an invalid one.
    if (e instanceof EvalError) return { unchecked: e.message };
    return { unusable: e instanceof Error ? e.message : String(e) };
  } finally {
    // Forget the schema so that a later schema with the same `$id` does not collide with it.
    try {
      engine.removeSchema(schema);
    } catch {
      // Nothing was registered.
    }
  }
}

/**
 * Why a field's JSON Schema is not a usable draft 2020-12 schema (meta-schema violations, bad
 * `$ref`s, invalid patterns), or that it cannot be checked here; undefined when Ajv compiles it.
 * `source` is the object the caller read the schema from; callers must bound the schema's depth
 * first.
 */
export function jsonSchemaError(schema: object, source: object): SchemaCheckError | undefined {
  const known = checkedObjects.get(source);
  if (known !== undefined) return known ?? undefined;
  const text = canonicalText(schema);
  let error = text === undefined ? undefined : checkedTexts.get(text);
  if (error === undefined) {
    error = compileError(schema);
    if (text !== undefined) {
      if (checkedTexts.size >= MAX_CHECKED_TEXTS) checkedTexts.clear();
      checkedTexts.set(text, error);
    }
  }
  checkedObjects.set(source, error);
  return error ?? undefined;
}

/**
 * Whether `uri` names one of the draft 2020-12 meta-schemas (or Ajv's alias for the main one).
 * They are the only schemas the meta-schema instance holds under a key: compiled shapes are
 * registered in its `refs`, never in its `schemas`.
 */
function isMetaSchemaUri(engine: Ajv2020, uri: string): boolean {
  const alias = engine.refs[uri];
  return engine.schemas[typeof alias === "string" ? alias : uri] !== undefined;
}

/**
 * Compiles a whole-shape schema. A schema Ajv refuses (two inlined copies of a field schema with
 * the same `$id`, or one whose `$id` collides with what the instance already holds) yields a
 * validator that rejects every value: failing closed is the honest stop. The one refusal that is
 * retried is a `$ref` to a meta-schema, which the first instance leaves out to start fast; any
 * other refusal must not get a second chance on an instance that has not seen the same `$id`s,
 * or the verdict would depend on which shapes were compiled before.
 */
export function compileValidator(schema: object): ValidateFunction {
  try {
    return shapeCompiler().compile(schema);
  } catch (e) {
    if (e instanceof MissingRefError) {
      const engine = shapeCompilerWithMeta();
      if (isMetaSchemaUri(engine, e.missingSchema)) {
        try {
          return engine.compile(schema);
        } catch {
          // Refused with the meta-schemas too: the closed validator below.
        }
      }
    }
    return shapeCompiler().compile(false);
  }
}

/** Drops a compiled schema from Ajv's own caches when the validator cache evicts it. */
export function releaseValidator(schema: object): void {
  compiler?.removeSchema(schema);
  metaCompiler?.removeSchema(schema);
}
