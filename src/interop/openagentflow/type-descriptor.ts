/**
 * OAF type descriptors (`int`, `list<string>`, `map<string,list<int>>`) to agentflow field types
 * and back. A descriptor without `map` becomes a type expression (`integer[]`); one with a `map`
 * becomes a JSON Schema field, because type expressions have no map.
 */
import type { FieldType, TypeNode } from "../../model/index.js";
import { parseTypeExpression } from "../../model/index.js";
import { isRecord, own } from "../json.js";

/** A parsed descriptor. */
export type OafType =
  | { readonly kind: "string" | "int" | "float" | "bool" }
  | { readonly kind: "list"; readonly item: OafType }
  | { readonly kind: "map"; readonly key: OafType; readonly value: OafType };

const PRIMITIVES = new Set(["string", "int", "float", "bool"]);
const EXPRESSIONS: Readonly<Record<string, string>> = {
  string: "text",
  int: "integer",
  float: "number",
  bool: "bool",
};
const JSON_TYPES: Readonly<Record<string, string>> = {
  string: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
};
/** JSON object keys are strings; an `int` key is a string of decimal digits. */
const INT_KEY_PATTERN = "^-?(0|[1-9][0-9]*)$";

/** Parses a descriptor; `undefined` when it is not one the seed documents. Never throws. */
export function parseDescriptor(text: string): OafType | undefined {
  let pos = 0;
  const src = text.replace(/\s+/g, "");
  const parseType = (depth: number): OafType | undefined => {
    if (depth > 32) return undefined;
    const name = /^[a-z]+/.exec(src.slice(pos))?.[0];
    if (name === undefined) return undefined;
    pos += name.length;
    if (PRIMITIVES.has(name)) return { kind: name as "string" };
    if ((name !== "list" && name !== "map") || src[pos] !== "<") return undefined;
    pos += 1;
    const first = parseType(depth + 1);
    let second: OafType | undefined;
    if (name === "map") {
      if (src[pos] !== ",") return undefined;
      pos += 1;
      second = parseType(depth + 1);
      if (second === undefined) return undefined;
    }
    if (first === undefined || src[pos] !== ">") return undefined;
    pos += 1;
    return second === undefined
      ? { kind: "list", item: first }
      : { kind: "map", key: first, value: second };
  };
  const type = parseType(0);
  return type !== undefined && pos === src.length ? type : undefined;
}

function hasMap(type: OafType): boolean {
  if (type.kind === "map") return true;
  return type.kind === "list" && hasMap(type.item);
}

/** Map keys must be `string` or `int`: JSON keys are strings. */
export function unsupportedMapKey(type: OafType): boolean {
  if (type.kind === "list") return unsupportedMapKey(type.item);
  if (type.kind !== "map") return false;
  return (type.key.kind !== "string" && type.key.kind !== "int") || unsupportedMapKey(type.value);
}

function jsonSchemaOf(type: OafType): Record<string, unknown> {
  if (type.kind === "list") return { type: "array", items: jsonSchemaOf(type.item) };
  if (type.kind === "map") {
    return {
      type: "object",
      ...(type.key.kind === "int" ? { propertyNames: { pattern: INT_KEY_PATTERN } } : {}),
      additionalProperties: jsonSchemaOf(type.value),
    };
  }
  return { type: JSON_TYPES[type.kind] };
}

function expressionOf(type: OafType): string {
  if (type.kind === "list") return `${expressionOf(type.item)}[]`;
  return EXPRESSIONS[type.kind] ?? "any";
}

/** The agentflow field type of a descriptor: a type expression, or JSON Schema with a map. */
export function fieldTypeOf(type: OafType): FieldType {
  return hasMap(type) ? jsonSchemaOf(type) : expressionOf(type);
}

/** `inner` wrapped in the `list<` / `map<k,` openers collected from the outside in. */
function wrapped(openers: readonly string[], inner: string | undefined): string | undefined {
  return inner === undefined
    ? undefined
    : `${openers.join("")}${inner}${">".repeat(openers.length)}`;
}

// Both walks below follow one chain of nested lists/maps in a loop, not by recursion, so a
// 10,000-deep field type answers instead of exhausting the call stack.

function descriptorOfNode(root: TypeNode): string | undefined {
  const openers: string[] = [];
  let node = root;
  while (node.kind === "array") {
    if (node.minItems !== undefined || node.maxItems !== undefined) return undefined;
    openers.push("list<");
    node = node.element;
  }
  if (node.kind !== "primitive") return undefined;
  const name = node.name;
  return wrapped(openers, Object.entries(EXPRESSIONS).find(([, expr]) => expr === name)?.[0]);
}

/** The `list<` or `map<k,` opener of one schema level and the schema inside it, if it is one. */
function containerOf(
  schema: Readonly<Record<string, unknown>>,
  type: unknown,
  keys: string,
): readonly [string, unknown] | undefined {
  if (type === "array" && keys === "items,type") return ["list<", own(schema, "items")];
  if (type !== "object") return undefined;
  const names = own(schema, "propertyNames");
  const intKeys = isRecord(names) && own(names, "pattern") === INT_KEY_PATTERN;
  const expected = intKeys
    ? "additionalProperties,propertyNames,type"
    : "additionalProperties,type";
  if (keys !== expected) return undefined;
  return [`map<${intKeys ? "int" : "string"},`, own(schema, "additionalProperties")];
}

function descriptorOfSchema(root: Readonly<Record<string, unknown>>): string | undefined {
  const openers: string[] = [];
  // A schema object met twice is a cycle (no JSON form), not a deeper level.
  const seen = new Set<object>();
  let schema = root;
  for (;;) {
    if (seen.has(schema)) return undefined;
    seen.add(schema);
    const type = own(schema, "type");
    const keys = Object.keys(schema)
      .filter((k) => k !== "required")
      .sort()
      .join(",");
    if (type === "array" || type === "object") {
      const level = containerOf(schema, type, keys);
      if (level === undefined || !isRecord(level[1])) return undefined;
      openers.push(level[0]);
      schema = level[1];
      continue;
    }
    if (keys !== "type") return undefined;
    return wrapped(openers, Object.entries(JSON_TYPES).find(([, json]) => json === type)?.[0]);
  }
}

/** The descriptor of a field type, or `undefined` when it has no OAF form (`path`, bounds, ...). */
export function descriptorOf(field: FieldType): string | undefined {
  if (typeof field !== "string") return descriptorOfSchema(field);
  const parsed = parseTypeExpression(field);
  return parsed.ok ? descriptorOfNode(parsed.type) : undefined;
}
