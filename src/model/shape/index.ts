/**
 * The type language (SPEC 2.3): type expressions, JSON Schema fields, the shapes they resolve to,
 * their compiled validators, and assignability between them.
 */
export type {
  AnyTypeNode,
  ArrayTypeNode,
  MemberTypeNode,
  NamedTypeNode,
  ObjectField,
  ObjectTypeNode,
  PrimitiveName,
  PrimitiveTypeNode,
  SchemaTypeNode,
  TypeExpressionError,
  TypeExpressionResult,
  TypeNode,
} from "./type-expr.js";
export { parseTypeExpression } from "./type-expr.js";
export { shapeNames, topField } from "./names.js";
export { formatType } from "./type-format.js";
export type { ResolvedShape, ShapeOptions, ShapeProblem, ShapeProblemReason } from "./types.js";
export { MAX_JSON_SCHEMA_DEPTH, MAX_SHAPE_NODES, resolveShape } from "./resolve.js";
export type { CompiledShape, JsonSchemaObject } from "./compile.js";
export { compileShape } from "./compile.js";
export { shapeValidator } from "./validator.js";
export type { TypeMismatch } from "./assignable.js";
export { findMismatch, isAssignable } from "./assignable.js";
