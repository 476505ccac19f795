/**
 * Runtime enforcement of shapes: one compiled Ajv validator per distinct shape, shared by every
 * equal shape however it was built (the simulator checks each fixture output against the node's
 * `outputSchema`, so the same shape is validated again and again).
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import canonicalize from "canonicalize";
import { compileValidator, releaseValidator } from "./ajv.js";
import { compileShape } from "./compile.js";
import type { SchemaShape } from "../types.js";

/** Validators kept; the oldest is dropped beyond this so a long-lived page does not grow. */
export const MAX_CACHED_VALIDATORS = 512;

interface Cached {
  readonly validate: ValidateFunction;
  readonly schema: object;
}

const cache = new Map<string, Cached>();

function cacheKey(shape: SchemaShape, types: unknown): string | undefined {
  try {
    return canonicalize({ shape, types: types ?? {} });
  } catch {
    // Lone surrogates or absurd nesting: such a shape is compiled but not cached.
    return undefined;
  }
}

/**
 * The Ajv (draft 2020-12, `allErrors`, non-strict) validator of a shape's compiled schema
 * (`compileShape`). The cache key is the RFC 8785 canonical JSON of `{shape, types}`, not object
 * identity, so equal shapes written separately share one function. Fields with problems compile
 * to `{}`: check `compileShape(...).problems` (or `resolveShape`) before relying on it. A schema
 * Ajv cannot compile gives a validator that rejects everything.
 *
 * @example
 * ```ts
 * import { shapeValidator } from "agentflow/model";
 *
 * const validate = shapeValidator({ answer: "text", sources: "text[]" });
 * validate({ answer: "42", sources: ["a"] }); // → true
 * validate({ answer: 42, sources: [] }); // → false
 * validate.errors?.[0]?.instancePath; // → "/answer"
 * // cached by content, not by object identity
 * shapeValidator({ answer: "text", sources: "text[]" }) === validate; // → true
 * ```
 */
export function shapeValidator(
  shape: SchemaShape,
  types?: Readonly<Record<string, SchemaShape>>,
): ValidateFunction {
  const key = cacheKey(shape, types);
  if (key !== undefined) {
    const hit = cache.get(key);
    if (hit !== undefined) {
      // Re-insert to mark it recently used.
      cache.delete(key);
      cache.set(key, hit);
      return hit.validate;
    }
  }
  const { schema } = compileShape(shape, types);
  const validate = compileValidator(schema);
  if (key === undefined) return validate;
  cache.set(key, { validate, schema });
  if (cache.size > MAX_CACHED_VALIDATORS) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) {
      const evicted = cache.get(oldest.value);
      cache.delete(oldest.value);
      if (evicted !== undefined) releaseValidator(evicted.schema);
    }
  }
  return validate;
}
