/**
 * What resolving a shape yields: the resolved type and its problems, kept apart from the
 * resolver so the table and field readers that produce problems need not import it.
 */
import type { ObjectTypeNode } from "./type-expr.js";

/**
 * Why a field's type cannot be used as written:
 * - `syntax`: the type expression does not parse, or a field is declared twice (`a` and `a?`);
 * - `unknown-type`: it names a type that is neither primitive nor declared (at a workflow
 *   boundary the caller may treat this as an external type);
 * - `recursive`: a declared type reaches itself, directly or through other types or arrays;
 * - `invalid-schema`: a JSON Schema field type that Ajv rejects, a value that is no type, or the
 *   field name `__proto__` (Ajv skips that property, so it could never be enforced; the field is
 *   dropped and data carrying it fails `additionalProperties`);
 * - `unchecked-schema`: a JSON Schema field type that could not be checked, because the page
 *   forbids generated code (Ajv compiles a schema to a function): failing closed, it counts as
 *   unusable, and the message says why;
 * - `too-large`: the inlined expansion exceeds {@link MAX_SHAPE_NODES} nodes, or a JSON Schema
 *   field is nested deeper than {@link MAX_JSON_SCHEMA_DEPTH} levels.
 */
export type ShapeProblemReason =
  "syntax" | "unknown-type" | "recursive" | "invalid-schema" | "unchecked-schema" | "too-large";

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
