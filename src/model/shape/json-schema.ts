/**
 * JSON Schema field types: stripping the legacy boolean `required`, measuring a schema without
 * recursion, and converting the simple subset into a {@link TypeNode} for assignability.
 */
import type { ObjectField, PrimitiveName, TypeNode } from "./type-expr.js";
import type { JsonSchemaField } from "../types.js";

/** Deeper field schemas are rejected before Ajv or any recursive walk sees them. */
export const MAX_JSON_SCHEMA_DEPTH = 128;

/** A field schema with its legacy boolean `required` split off. */
export interface SplitSchema {
  readonly schema: JsonSchemaField;
  /** The boolean `required` that was stripped, when there was one. */
  readonly required?: boolean;
}

/** Removes a boolean `required` (the older "this field is required" form); arrays stay. */
export function splitRequiredFlag(schema: JsonSchemaField): SplitSchema {
  const flag = Object.hasOwn(schema, "required") ? schema.required : undefined;
  if (typeof flag !== "boolean") return { schema };
  const rest = Object.entries(schema).filter(([key]) => key !== "required");
  return { schema: Object.fromEntries(rest), required: flag };
}

/** Size and nesting of a JSON value, counting objects and arrays. */
export interface JsonStats {
  readonly nodes: number;
  readonly depth: number;
}

/**
 * Counts the objects and arrays in a JSON value and its nesting depth, iteratively; it stops
 * early once either limit is exceeded so that huge inputs cost no more than the limit.
 */
export function jsonStats(value: unknown, maxNodes: number, maxDepth: number): JsonStats {
  let nodes = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [current, level] = item;
    if (current === null || typeof current !== "object") continue;
    nodes += 1;
    depth = Math.max(depth, level);
    if (nodes > maxNodes || depth > maxDepth) break;
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push([child, level + 1]);
  }
  return { nodes, depth };
}

/** Keywords that never change which values a schema accepts. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

const NUMERIC = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/**
 * Per JSON type, the keywords a convertible schema may use besides `type` and annotations. Most
 * narrow values without changing their structure (lengths, patterns, formats, ranges, enums):
 * like array bounds they are runtime business, so the converted type describes the structure and
 * Ajv enforces the rest.
 */
const ALLOWED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["string", new Set(["minLength", "maxLength", "pattern", "format", "enum", "const"])],
  ["number", new Set([...NUMERIC, "enum", "const"])],
  ["integer", new Set([...NUMERIC, "enum", "const"])],
  ["boolean", new Set(["enum", "const"])],
  ["array", new Set(["items", "minItems", "maxItems", "uniqueItems"])],
  [
    "object",
    new Set(["properties", "required", "additionalProperties", "minProperties", "maxProperties"]),
  ],
]);

const PRIMITIVE_OF: ReadonlyMap<string, PrimitiveName> = new Map([
  ["string", "text"],
  ["number", "number"],
  ["integer", "integer"],
  ["boolean", "bool"],
]);

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function convertArray(schema: Readonly<Record<string, unknown>>): TypeNode {
  const items = Object.hasOwn(schema, "items") ? schema.items : true;
  const element = jsonSchemaToType(items);
  const min = schema.minItems;
  const max = schema.maxItems;
  return {
    kind: "array",
    element,
    ...(typeof min === "number" && Object.hasOwn(schema, "minItems") ? { minItems: min } : {}),
    ...(typeof max === "number" && Object.hasOwn(schema, "maxItems") ? { maxItems: max } : {}),
  };
}

function convertObject(schema: Readonly<Record<string, unknown>>): TypeNode {
  const properties = Object.hasOwn(schema, "properties") ? schema.properties : {};
  const requiredList = Object.hasOwn(schema, "required") ? schema.required : [];
  if (!isRecord(properties) || !Array.isArray(requiredList)) return { kind: "schema", schema };
  const required = new Set(requiredList.filter((r): r is string => typeof r === "string"));
  const fields: ObjectField[] = Object.entries(properties).map(([name, sub]) => ({
    name,
    optional: !required.has(name),
    type: jsonSchemaToType(sub),
  }));
  // A required name without a property schema still guarantees the field exists.
  const declared = new Set(Object.keys(properties));
  for (const name of required) {
    if (!declared.has(name)) fields.push({ name, optional: false, type: { kind: "any" } });
  }
  return { kind: "object", fields };
}

/**
 * Converts a (valid, depth-checked) JSON Schema into a type when that is faithful: a single
 * `type` among string/number/integer/boolean/array/object with only the keywords that apply to it,
 * or no keyword but annotations (`any`). Everything else stays `{kind: "schema"}`. Recursion is
 * bounded by {@link MAX_JSON_SCHEMA_DEPTH}, which callers check first.
 */
export function jsonSchemaToType(schema: unknown): TypeNode {
  if (schema === true) return { kind: "any" };
  if (!isRecord(schema)) return { kind: "schema", schema: { not: {} } };
  const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  if (keys.length === 0) return { kind: "any" };
  const type = Object.hasOwn(schema, "type") ? schema.type : undefined;
  const allowed = typeof type === "string" ? ALLOWED.get(type) : undefined;
  if (typeof type !== "string" || allowed === undefined) return { kind: "schema", schema };
  if (!keys.every((k) => k === "type" || allowed.has(k))) return { kind: "schema", schema };
  const primitive = PRIMITIVE_OF.get(type);
  if (primitive !== undefined) return { kind: "primitive", name: primitive };
  return type === "array" ? convertArray(schema) : convertObject(schema);
}
