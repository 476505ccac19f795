/**
 * Shapes (SPEC 2.4): resolving a {@link SchemaShape} against the workflow's named `types` into
 * one structural object type, with every problem reported as data at a JSON Pointer.
 *
 * Problems are reported where they are written: a problem inside a named type carries the path of
 * that type's field (`/types/Plan/work`), not of the field that uses it. Callers that resolve
 * several shapes against the same `types` can therefore deduplicate by `path` and `reason`.
 */
import { analyzeShape } from "./table.js";
import type { ResolvedShape, ShapeOptions } from "./types.js";
import type { SchemaShape } from "../types.js";

export { MAX_SHAPE_NODES } from "./fields.js";
export { MAX_JSON_SCHEMA_DEPTH } from "./json-schema.js";

/**
 * Resolves a shape: field names ending in `?` are optional, type expressions are parsed, JSON
 * Schema field types are checked with Ajv and converted where that is faithful, and named types
 * are inlined (declaration order does not matter). `basePath` is the shape's JSON Pointer, e.g.
 * `/outputSchema`. Never throws; the `types` record is treated as immutable and its analysis is
 * cached per record object.
 *
 * @example
 * ```ts
 * import { resolveShape } from "agentflow/model";
 *
 * const types = { Source: { url: "text", "title?": "text" } };
 * const shape = { answer: "text", "sources?": "Source[]", score: "Score" };
 * const { type, problems } = resolveShape(shape, types, "/outputSchema");
 * type.fields.map((f) => `${f.name}${f.optional ? "?" : ""}: ${f.type.kind}`);
 * // → ["answer: primitive", "sources?: array", "score: any"]
 * problems.map((p) => [p.path, p.reason]); // → [["/outputSchema/score", "unknown-type"]]
 * ```
 */
export function resolveShape(
  shape: SchemaShape,
  types: Readonly<Record<string, SchemaShape>> | undefined,
  basePath: string,
  options: ShapeOptions = {},
): ResolvedShape {
  const analysis = analyzeShape(shape, types, basePath, options.typesPath ?? "/types");
  return {
    type: { kind: "object", fields: analysis.resolved.fields },
    problems: analysis.problems,
  };
}
