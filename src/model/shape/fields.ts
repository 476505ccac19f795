/**
 * Reading one shape's fields: the `?` marker, type expressions and JSON Schema field types, each
 * turned into a {@link FieldEntry} whose named reference is still unresolved.
 */
import { escapePointerToken } from "../json/index.js";
import type { ShapeProblem } from "./types.js";
import { jsonSchemaError } from "./ajv.js";
import {
  jsonSchemaToType,
  jsonStats,
  MAX_JSON_SCHEMA_DEPTH,
  splitRequiredFlag,
} from "./json-schema.js";
import { parseTypeExpression } from "./type-expr.js";
import type { ArrayTypeNode, TypeNode } from "./type-expr.js";
import type { JsonSchemaField } from "../types.js";

/** Above this many schema nodes, a shape's inlined expansion is rejected (`too-large`). */
export const MAX_SHAPE_NODES = 10_000;

/** One field as written, before named references are inlined. */
export interface FieldEntry {
  /** The property name, `?` stripped. */
  readonly name: string;
  readonly optional: boolean;
  /** JSON Pointer of the field in the source document. */
  readonly path: string;
  /** The field's type; problems degrade it (unknown or recursive references become `any`). */
  readonly type: TypeNode;
  /** The declared type the expression references, inlined at resolution. */
  readonly ref?: string;
  /** A JSON Schema field type, compiled verbatim (legacy boolean `required` stripped). */
  readonly schema?: JsonSchemaField;
  /** Schema nodes of this field, not counting the expansion of `ref`. */
  readonly ownSize: number;
}

/** The fields of a shape in document order, and what was wrong with them. */
export interface ReadFields {
  readonly entries: readonly FieldEntry[];
  readonly problems: readonly ShapeProblem[];
}

const ANY: TypeNode = { kind: "any" };

/** True for a JSON object (not null, not an array). */
export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Replaces the primary type under a chain of array suffixes, without recursion. Expression types
 * are exactly that shape, which is where named references live.
 */
export function replacePrimary(type: TypeNode, primary: TypeNode): TypeNode {
  const arrays: ArrayTypeNode[] = [];
  let current = type;
  while (current.kind === "array") {
    arrays.push(current);
    current = current.element;
  }
  return arrays.reduceRight<TypeNode>((element, a) => ({ ...a, element }), primary);
}

/** The primary under a chain of array suffixes, and how many suffixes there are. */
function primaryOf(type: TypeNode): { primary: TypeNode; arrays: number } {
  let arrays = 0;
  let current = type;
  while (current.kind === "array") {
    arrays += 1;
    current = current.element;
  }
  return { primary: current, arrays };
}

function readExpression(
  text: string,
  name: string,
  optional: boolean,
  path: string,
  isDeclared: (name: string) => boolean,
  problems: ShapeProblem[],
): FieldEntry {
  const parsed = parseTypeExpression(text);
  if (!parsed.ok) {
    const { message, offset } = parsed.error;
    problems.push({ path, reason: "syntax", message: `${message} (in "${text}")`, offset });
    return { name, optional, path, type: ANY, ownSize: 1 };
  }
  const { primary, arrays } = primaryOf(parsed.type);
  if (primary.kind !== "named") {
    return { name, optional, path, type: parsed.type, ownSize: arrays + 1 };
  }
  if (isDeclared(primary.name)) {
    return { name, optional, path, type: parsed.type, ref: primary.name, ownSize: arrays };
  }
  problems.push({
    path,
    reason: "unknown-type",
    message: `unknown type "${primary.name}": it is neither a primitive nor declared in types`,
    typeName: primary.name,
  });
  return { name, optional, path, type: replacePrimary(parsed.type, ANY), ownSize: arrays + 1 };
}

function readSchema(
  raw: JsonSchemaField,
  name: string,
  optionalMark: boolean,
  path: string,
  problems: ShapeProblem[],
): FieldEntry {
  const { schema, required } = splitRequiredFlag(raw);
  const optional = optionalMark || required === false;
  const degraded: FieldEntry = { name, optional, path, type: ANY, ownSize: 1 };
  const stats = jsonStats(schema, MAX_SHAPE_NODES, MAX_JSON_SCHEMA_DEPTH);
  if (stats.depth > MAX_JSON_SCHEMA_DEPTH || stats.nodes > MAX_SHAPE_NODES) {
    const limit =
      stats.depth > MAX_JSON_SCHEMA_DEPTH
        ? `is nested deeper than ${MAX_JSON_SCHEMA_DEPTH} levels`
        : `has more than ${MAX_SHAPE_NODES} schema nodes`;
    problems.push({ path, reason: "too-large", message: `the JSON Schema ${limit}` });
    return degraded;
  }
  const error = jsonSchemaError(schema, raw);
  if (error !== undefined) {
    problems.push(
      "unusable" in error
        ? { path, reason: "invalid-schema", message: `invalid JSON Schema: ${error.unusable}` }
        : {
            path,
            reason: "unchecked-schema",
            message: `the JSON Schema cannot be checked where agentflow runs now, which forbids generated code (${error.unchecked}); agentflow check or gate checks it`,
          },
    );
    return degraded;
  }
  return { name, optional, path, type: jsonSchemaToType(schema), schema, ownSize: stats.nodes };
}

/**
 * Reads every field of a shape. `isDeclared` says which names the workflow's `types` declare;
 * any other non-primitive name is an `unknown-type` problem and its field degrades to `any`.
 * A value that is not a shape (robustness against unvalidated input) has no fields.
 */
export function readFields(
  shape: unknown,
  basePath: string,
  isDeclared: (name: string) => boolean,
): ReadFields {
  const entries: FieldEntry[] = [];
  const problems: ShapeProblem[] = [];
  if (!isRecord(shape)) return { entries, problems };
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(shape)) {
    const optionalMark = key.endsWith("?");
    const name = optionalMark ? key.slice(0, -1) : key;
    const path = `${basePath}/${escapePointerToken(key)}`;
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push({
        path,
        reason: "syntax",
        message: `field "${name}" is declared twice ("${first}" and "${key}")`,
      });
      continue;
    }
    seen.set(name, key);
    if (name === "__proto__") {
      problems.push({
        path,
        reason: "invalid-schema",
        message:
          'field name "__proto__" is reserved: JSON Schema validators skip it, so it could never be checked',
      });
      continue;
    }
    if (typeof value === "string") {
      entries.push(readExpression(value, name, optionalMark, path, isDeclared, problems));
    } else if (isRecord(value)) {
      entries.push(readSchema(value, name, optionalMark, path, problems));
    } else {
      problems.push({
        path,
        reason: "invalid-schema",
        message: "a field type must be a type expression string or a JSON Schema object",
      });
      entries.push({ name, optional: optionalMark, path, type: ANY, ownSize: 1 });
    }
  }
  return { entries, problems };
}
