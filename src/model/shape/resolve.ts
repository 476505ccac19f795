/**
 * Shapes (SPEC 2.4): resolving a {@link SchemaShape} against the workflow's named `types` into
 * one structural object type, with every problem reported as data at a JSON Pointer.
 *
 * Problems are reported where they are written: a problem inside a named type carries the path of
 * that type's field (`/types/Plan/work`), not of the field that uses it. Callers that resolve
 * several shapes against the same `types` can therefore deduplicate by `path` and `reason`.
 */
import { analyzeShape } from "./table.js";
import type { ObjectTypeNode } from "./type-expr.js";
import type { SchemaShape } from "../types.js";

export { MAX_SHAPE_NODES } from "./fields.js";
export { MAX_JSON_SCHEMA_DEPTH } from "./json-schema.js";

/**
 * Why a field's type cannot be used as written:
 * - `syntax`: the type expression does not parse, or a field is declared twice (`a` and `a?`);
 * - `unknown-type`: it names a type that is neither primitive nor declared (at a workflow
 *   boundary the caller may treat this as an external type);
 * - `recursive`: a declared type reaches itself, directly or through other types or arrays;
 * - `invalid-schema`: a JSON Schema field type that Ajv rejects, a value that is no type, or the
 *   field name `__proto__` (Ajv skips that property, so it could never be enforced; the field is
 *   dropped and data carrying it fails `additionalProperties`);
 * - `too-large`: the inlined expansion exceeds {@link MAX_SHAPE_NODES} nodes, or a JSON Schema
 *   field is nested deeper than {@link MAX_JSON_SCHEMA_DEPTH} levels.
 */
export type ShapeProblemReason =
  "syntax" | "unknown-type" | "recursive" | "invalid-schema" | "too-large";

/** One problem with a field type. The field degrades to `any` so the rest stays usable. */
export interface ShapeProblem {
  /** JSON Pointer of the offending field, e.g. `/outputSchema/sources?`. */
  readonly path: string;
  readonly reason: ShapeProblemReason;
  readonly message: string;
  /** The named type involved: the unknown name, the type a cycle returns to, the inlined type. */
  readonly typeName?: string;
  /** For `recursive`: the cycle, first name repeated last (`["Node", "Child", "Node"]`). */
  readonly cycle?: readonly string[];
  /** For `syntax` in a type expression: the 0-based offset in the expression. */
  readonly offset?: number;
}

/** Where problems inside the workflow's `types` point; the document's own `/types` by default. */
export interface ShapeOptions {
  readonly typesPath?: string;
}

/** A shape resolved to a structural object type. */
export interface ResolvedShape {
  /** Named references inlined; fields with problems are `any` (or an array of `any`). */
  readonly type: ObjectTypeNode;
  readonly problems: readonly ShapeProblem[];
}

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
