/**
 * Compiling shapes and types to JSON Schema (draft 2020-12), following the seed's mapping table:
 * text/path → string, number/duration → number, integer → integer, bool → boolean, any → `{}`,
 * member<T> → string with `x-flow-member`, arrays with optional bounds, objects closed with
 * `additionalProperties: false` and named types inlined.
 *
 * Output is deterministic (properties in shape order) and frozen: compiled named types are shared
 * between every place that inlines them, so they must not be mutated.
 */
import type { ShapeOptions, ShapeProblem } from "./types.js";
import type { FieldEntry } from "./fields.js";
import { analyzeShape } from "./table.js";
import type { TypeTable } from "./table.js";
import type { ArrayTypeNode, TypeNode } from "./type-expr.js";
import type { JsonSchemaField, SchemaShape } from "../types.js";

/** The JSON Schema of a whole shape: a closed object. */
export interface JsonSchemaObject extends JsonSchemaField {
  readonly type: "object";
  readonly properties: Readonly<Record<string, JsonSchemaField>>;
  /** Required property names in shape order; empty when every field is optional. */
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** A compiled shape and the problems found on the way (problem fields compile to `{}`). */
export interface CompiledShape {
  readonly schema: JsonSchemaObject;
  readonly problems: readonly ShapeProblem[];
}

const EMPTY: JsonSchemaField = Object.freeze({});

function compileLeaf(type: TypeNode): JsonSchemaField {
  switch (type.kind) {
    case "primitive":
      switch (type.name) {
        case "text":
        case "path":
          return { type: "string" };
        case "number":
        case "duration":
          return { type: "number" };
        case "integer":
          return { type: "integer" };
        case "bool":
          return { type: "boolean" };
      }
      break;
    case "member":
      return { type: "string", "x-flow-member": type.team };
    case "schema":
      return type.schema;
    default:
      break;
  }
  return EMPTY;
}

function arraySchema(type: ArrayTypeNode, items: JsonSchemaField): JsonSchemaField {
  return Object.freeze({
    type: "array",
    items,
    ...(type.minItems === undefined ? {} : { minItems: type.minItems }),
    ...(type.maxItems === undefined ? {} : { maxItems: type.maxItems }),
  });
}

function objectSchema(
  fields: readonly { readonly name: string; readonly optional: boolean }[],
  schemas: readonly JsonSchemaField[],
): JsonSchemaObject {
  // fromEntries defines own properties, so a field named "__proto__" stays a plain property.
  const properties = Object.freeze(
    Object.fromEntries(fields.map((f, i) => [f.name, schemas[i] ?? EMPTY])),
  );
  const required = Object.freeze(fields.filter((f) => !f.optional).map((f) => f.name));
  return Object.freeze({
    type: "object",
    properties,
    required,
    additionalProperties: false,
  } as const);
}

/**
 * Compiles a type node without recursion (resolved trees can be long chains of inlined types).
 * Shared subtrees are compiled once. Unresolved named references compile to `{}`, as external
 * types do.
 */
export function compileType(type: TypeNode): JsonSchemaField {
  const done = new Map<TypeNode, JsonSchemaField>();
  const open = new Set<TypeNode>();
  const stack: { node: TypeNode; expanded: boolean }[] = [{ node: type, expanded: false }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, expanded } = item;
    if (done.has(node)) continue;
    const children =
      node.kind === "array"
        ? [node.element]
        : node.kind === "object"
          ? node.fields.map((f) => f.type)
          : [];
    if (!expanded && children.some((c) => !done.has(c))) {
      stack.push({ node, expanded: true });
      open.add(node);
      // A child already open would be a cycle (only possible in hand-built nodes): it gets {}.
      for (const child of children) {
        if (!done.has(child) && !open.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    open.delete(node);
    const compiled = children.map((c) => done.get(c) ?? EMPTY);
    if (node.kind === "array") done.set(node, arraySchema(node, compiled[0] ?? EMPTY));
    else if (node.kind === "object") done.set(node, objectSchema(node.fields, compiled));
    else done.set(node, compileLeaf(node));
  }
  return done.get(type) ?? EMPTY;
}

/** Compiles one field: its JSON Schema verbatim, or its expression with the reference inlined. */
function compileEntry(
  entry: FieldEntry,
  named: ReadonlyMap<string, JsonSchemaObject>,
): JsonSchemaField {
  if (entry.schema !== undefined) return entry.schema;
  const arrays: ArrayTypeNode[] = [];
  let current = entry.type;
  while (current.kind === "array") {
    arrays.push(current);
    current = current.element;
  }
  const primary =
    current.kind === "named" ? (named.get(current.name) ?? EMPTY) : compileLeaf(current);
  return arrays.reduceRight((items, a) => arraySchema(a, items), primary);
}

const compiledTables = new WeakMap<TypeTable, Map<string, JsonSchemaObject>>();

/** Every declared type compiled once per table, dependencies first, so nothing recurses. */
function compiledTypes(table: TypeTable): ReadonlyMap<string, JsonSchemaObject> {
  const cached = compiledTables.get(table);
  if (cached !== undefined) return cached;
  const named = new Map<string, JsonSchemaObject>();
  for (const name of table.order) {
    const entry = table.entries.get(name);
    if (entry === undefined) continue;
    named.set(
      name,
      objectSchema(
        entry.fields,
        entry.fields.map((f) => compileEntry(f, named)),
      ),
    );
  }
  compiledTables.set(table, named);
  return named;
}

/**
 * Compiles a shape to one JSON Schema: `{type: "object", properties, required,
 * additionalProperties: false}` with named types inlined as nested objects and JSON Schema field
 * types kept verbatim (minus a boolean `required`). Problems are those of `resolveShape`;
 * their fields compile to `{}` (or an array of `{}`), so check `problems` before trusting it.
 *
 * @example
 * ```ts
 * import { compileShape } from "agentflow/model";
 *
 * const { schema, problems } = compileShape({ query: "text", "limit?": "integer" }, undefined);
 * schema;
 * // → {
 * //     type: "object",
 * //     properties: { query: { type: "string" }, limit: { type: "integer" } },
 * //     required: ["query"],
 * //     additionalProperties: false,
 * //   }
 * problems; // → []
 * ```
 */
export function compileShape(
  shape: SchemaShape,
  types: Readonly<Record<string, SchemaShape>> | undefined,
  basePath = "",
  options: ShapeOptions = {},
): CompiledShape {
  const analysis = analyzeShape(shape, types, basePath, options.typesPath ?? "/types");
  const named = compiledTypes(analysis.table);
  const entries = analysis.resolved.entries;
  const schema = objectSchema(
    entries,
    entries.map((e) => compileEntry(e, named)),
  );
  return { schema, problems: analysis.problems };
}
