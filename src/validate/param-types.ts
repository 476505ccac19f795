/**
 * Static types of tool param values (SPEC 2.4, 2.5), for TOOL_PARAMS_MISMATCH: the type a
 * literal has in the model's type language, and where a literal does not fit a contract input.
 * Everything is compared with the model's `findMismatch`, so params follow the same
 * assignability as delegate contracts.
 */
import type { TypeMismatch, TypeNode } from "../model/index.js";
import { findMismatch, formatType, isAssignable } from "../model/index.js";

/** The open type: assignable both ways with everything. */
export const ANY: TypeNode = { kind: "any" };
/** `null` has no type in the language; this object type only ever names it in messages. */
const NULL: TypeNode = { kind: "object", fields: [], typeName: "null" };
/** Literals nested deeper are typed `any`: no contract type is that deep. */
const MAX_DEPTH = 32;

const isOpen = (t: TypeNode): boolean =>
  t.kind === "any" || t.kind === "schema" || t.kind === "named";
const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Follows `path` through object fields; anything undeclared on the way is `any`. */
export function fieldType(type: TypeNode, path: readonly string[]): TypeNode {
  let at = type;
  for (const name of path) {
    const field = at.kind === "object" ? at.fields.find((f) => f.name === name) : undefined;
    if (field === undefined) return ANY;
    at = field.type;
  }
  return at;
}

/**
 * The type of a literal: strings by `ofString` (text, or the type a whole template reads),
 * numbers `integer` or `number`, booleans `bool`, arrays their common element type (`any` when
 * the elements have none; `any[]` when empty), objects their fields.
 */
export function literalType(
  value: unknown,
  ofString: (text: string) => TypeNode,
  depth = 0,
): TypeNode {
  if (depth > MAX_DEPTH) return ANY;
  if (typeof value === "string") return ofString(value);
  if (typeof value === "number")
    return { kind: "primitive", name: Number.isInteger(value) ? "integer" : "number" };
  if (typeof value === "boolean") return { kind: "primitive", name: "bool" };
  if (value === null) return NULL;
  if (Array.isArray(value)) {
    const types = value.map((v: unknown) => literalType(v, ofString, depth + 1));
    const join = (a: TypeNode, b: TypeNode): TypeNode =>
      isAssignable(a, b) ? b : isAssignable(b, a) ? a : ANY;
    return { kind: "array", element: types.reduce(join, types[0] ?? ANY) };
  }
  if (!isRecord(value)) return ANY;
  const fields = Object.entries(value).map(([name, v]) => ({
    name,
    optional: false,
    type: literalType(v, ofString, depth + 1),
  }));
  return { kind: "object", fields };
}

/** Where a param value does not fit its contract input. */
export interface ParamMismatch {
  readonly kind: "missing" | "type";
  /** Pointer tokens below the param, down to the offending literal. */
  readonly tokens: readonly string[];
  /** Field names below the param to the failing position (`[]` for an array element). */
  readonly fieldPath: readonly string[];
  readonly expected: string;
  /** The type given; absent when a required field is missing. */
  readonly actual?: string;
}

function leafMismatch(value: unknown, target: TypeNode, ofString: (text: string) => TypeNode) {
  // A constant string is what the reviewer reads in the document, so it may fill a `path` or a
  // `member<…>` input; only text that carries another node's output (a template) may not.
  const constant = typeof value === "string" && !value.includes("{{");
  if (
    constant &&
    (target.kind === "member" || (target.kind === "primitive" && target.name === "path"))
  )
    return undefined;
  const source = literalType(value, ofString);
  const nullMismatch: TypeMismatch = { path: [], source, target };
  return value === null ? nullMismatch : findMismatch(source, target);
}

/**
 * The first place where a param value does not fit `target`. Literal arrays and objects are
 * walked alongside the type, so that each element is checked on its own and the pointer names
 * the offending literal; everything else is typed with {@link literalType} and compared with
 * findMismatch. As in assignability, nested objects may carry extra keys (a JSON Schema field
 * may allow them); the walk is iterative and bounded by the target type's depth.
 */
export function paramMismatch(
  root: unknown,
  target: TypeNode,
  ofString: (text: string) => TypeNode,
): ParamMismatch | undefined {
  const stack = [{ value: root, target, tokens: [] as string[] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, target: t, tokens } = item;
    if (isOpen(t)) continue;
    if (t.kind === "array" && Array.isArray(value)) {
      for (let k = value.length - 1; k >= 0; k -= 1) {
        const element: unknown = value[k];
        stack.push({ value: element, target: t.element, tokens: [...tokens, String(k)] });
      }
    } else if (t.kind === "object" && isRecord(value)) {
      const missing = t.fields.find((f) => !f.optional && !Object.hasOwn(value, f.name));
      if (missing !== undefined) {
        const fieldPath = [...tokens, missing.name];
        return { kind: "missing", tokens, fieldPath, expected: formatType(missing.type) };
      }
      for (let k = t.fields.length - 1; k >= 0; k -= 1) {
        const f = t.fields[k];
        if (f === undefined || !Object.hasOwn(value, f.name)) continue;
        stack.push({ value: value[f.name], target: f.type, tokens: [...tokens, f.name] });
      }
    } else {
      const m = leafMismatch(value, t, ofString);
      if (m === undefined) continue;
      const base = { tokens, fieldPath: [...tokens, ...m.path], expected: formatType(m.target) };
      return m.source === undefined
        ? { kind: "missing", ...base }
        : { kind: "type", ...base, actual: formatType(m.source) };
    }
  }
  return undefined;
}
