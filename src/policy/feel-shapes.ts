/**
 * A list or a record compared with a single value, refused before anything runs. feelin
 * compares a list with a value as if the list were its only item: `tools.effect in ["x"]` and
 * `models = "gpt-4o"` hold while the list has one item and are false (or null) once it has two,
 * so a rule written against a one-tool example stops firing on the first agent with two tools.
 * A record (`lane`, a tool) never equals a string. The problem says what to write instead: the
 * comparison over each item (`some t in tools satisfies t.effect in ["x"]`), or a field.
 */
import type { FactType } from "./fact-types.js";
import { fieldNames } from "./fact-types.js";
import type { Node } from "./feel-tree.js";
import { children } from "./feel-tree.js";

/** A list, a record of fields or a record of any keys: never one value. */
export type Composite = Exclude<FactType, { kind: "any" } | { kind: "scalar" }>;

/** Whether a type is a list or a record. */
export const isComposite = (type: FactType | undefined): type is Composite =>
  type !== undefined && type.kind !== "any" && type.kind !== "scalar";

/** The longest a suggested rewrite is shown. */
const SHOWN = 160;

const cut = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/** What a type is, in words, for a message. */
export function typeWords(type: FactType): string {
  switch (type.kind) {
    case "any":
      return "a value";
    case "scalar":
      return type.label;
    case "list":
      return type.item.kind === "any" ? "a list" : `a list (each item ${typeWords(type.item)})`;
    case "map":
      return `${type.label}, a record`;
    case "object":
      return `${type.label}, a record of ${fieldNames(type)}`;
  }
}

/**
 * Where the list a side reads comes from: down the path (`tools.effect` → `tools`) while the
 * base is itself a list, so that the rewrite binds one item of it.
 */
function listOrigin(side: Node, typeOf: (node: Node) => FactType): Node {
  let at = side;
  for (;;) {
    if (at.name !== "PathExpression") return at;
    const [base] = children(at);
    if (base === undefined || typeOf(base).kind !== "list") return at;
    at = base;
  }
}

/**
 * The comparison rewritten over each item of the list `side` reads: `tools.effect in ["x"]` →
 * `some t in tools satisfies t.effect in ["x"]`.
 */
function overItems(
  comparison: Node,
  side: Node,
  text: string,
  typeOf: (node: Node) => FactType,
): string {
  const origin = listOrigin(side, typeOf);
  const over = text.slice(origin.from, origin.to);
  const name = /^[A-Za-z]/.exec(over)?.[0].toLowerCase() ?? "x";
  const item = `${name}${text.slice(origin.to, side.to)}`;
  const test = `${text.slice(comparison.from, side.from)}${item}${text.slice(side.to, comparison.to)}`;
  return `some ${name} in ${over} satisfies ${test}`;
}

/**
 * The problem of a list or a record (`side`, of type `type`) compared with a value of scalar
 * type `other` in `comparison`, as words after "'side' is …".
 */
export function compositeProblem(
  comparison: Node,
  side: Node,
  type: Composite,
  other: { readonly shown: string; readonly type: FactType },
  text: string,
  typeOf: (node: Node) => FactType,
): string {
  const shown = text.slice(side.from, side.to);
  const head = `'${shown}' is ${typeWords(type)}, but ${other.shown} is ${typeWords(other.type)}`;
  if (type.kind === "list") {
    const rewrite = cut(overItems(comparison, side, text, typeOf));
    return `${head}: feelin compares a list with one value as if the list were its only item, so this holds only while the list has one item and never once it has two (write ${rewrite} to ask whether any item does, 'every' for all)`;
  }
  const fields =
    type.kind === "object"
      ? Object.keys(type.fields)
          .map((f) => `${shown}.${f}`)
          .join(", ")
      : `${shown}.<key>${type.keys === undefined ? "" : `, each key ${type.keys.words}`}`;
  return `${head}: a record never equals a single value, so this comparison never holds as meant (compare one of its fields: ${fields})`;
}

/**
 * The problem of `list contains(list, value)` whose items can never be `value`: records against
 * a single value (`list contains(tools, "tool:x@1.0.0")`), single values against a list or a
 * record; undefined when they may be.
 */
export function containsShapeProblem(
  item: FactType,
  value: { readonly shown: string; readonly type: FactType | undefined },
  listText: string,
): string | undefined {
  const valueType = value.type;
  if (valueType === undefined || valueType.kind === "any" || item.kind === "any") return undefined;
  if (isComposite(item) === isComposite(valueType)) return undefined;
  const head = `the items of '${listText}' are each ${typeWords(item)}, and ${value.shown} is ${typeWords(valueType)}, so it is never in the list`;
  if (item.kind !== "object") return head;
  const name = /^[A-Za-z]/.exec(listText)?.[0].toLowerCase() ?? "x";
  const field = Object.keys(item.fields)[0] ?? "id";
  return `${head} (compare a field of each item: some ${name} in ${cut(listText)} satisfies ${name}.${field} = ${cut(value.shown)}; fields of ${item.label}: ${fieldNames(item)})`;
}
