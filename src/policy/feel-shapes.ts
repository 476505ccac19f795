/**
 * A list or a record compared with a single value, refused before anything runs. feelin
 * compares a list with a value as if the list were its only item: `tools.effect in ["x"]` and
 * `models = "gpt-4o"` hold while the list has one item and are false (or null) once it has two,
 * so a rule written against a one-tool example stops firing on the first agent with two tools.
 * A record (`lane`, a tool) never equals a string. The problem says what to write instead: the
 * comparison over each item (`some t in tools satisfies t.effect in ["x"]`), or a field.
 */
import type { FactType } from "./fact-types.js";
import { ANY, fieldNames, fieldOf } from "./fact-types.js";
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

/** Nodes an `in` of `some` takes as written; any other is put in parentheses. */
const PLAIN = new Set([
  "VariableName",
  "PathExpression",
  "FilterExpression",
  "FunctionInvocation",
  "ParenthesizedExpression",
  "List",
]);

/** The names a rewrite must not bind: every word the comparison spells, and those bound. */
function namesIn(node: Node, text: string): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [node];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at.name === "Identifier") names.add(text.slice(at.from, at.to));
    stack.push(...children(at));
  }
  return names;
}

/** A one-letter name for an item of `over`, that no name of the comparison is. */
function freshName(over: string, item: FactType, taken: Set<string>): string {
  const letter = (words: string): string =>
    /[A-Za-z]/.exec(words.split(/[.\s]/).filter(Boolean).pop() ?? "")?.[0].toLowerCase() ?? "x";
  const label = item.kind === "object" || item.kind === "map" ? item.label : "";
  const tried = [letter(over.replace(/\[.*$/s, "")), letter(label), "x", "y", "z", "v", "w"];
  let name = tried.find((n) => !taken.has(n));
  for (let i = 1; name === undefined; i += 1) if (!taken.has(`x${i}`)) name = `x${i}`;
  taken.add(name);
  return name;
}

/**
 * The comparison rewritten over each item of the list `side` reads, one `some` per list it
 * passes through: `tools.effect in ["x"]` → `some t in tools satisfies t.effect in ["x"]`,
 * `agentTasks.tools.effect = "x"` → `some a in agentTasks satisfies some t in a.tools
 * satisfies t.effect = "x"`. Each bound name is one the comparison does not use, so the rewrite
 * stands in for it where it is written (`some e in agentTasks.tools satisfies e.effect = "x"` →
 * `… satisfies some t in e satisfies t.effect = "x"`).
 */
function overItems(
  comparison: Node,
  side: Node,
  text: string,
  typeOf: (node: Node) => FactType,
): string | undefined {
  const steps: string[] = [];
  let root = side;
  for (let base = children(root)[0]; root.name === "PathExpression" && base !== undefined;) {
    const name = root.getChild("PathName");
    steps.unshift(name === null ? "" : text.slice(name.from, name.to));
    root = base;
    base = children(root)[0];
  }
  const taken = namesIn(comparison, text);
  const clauses: string[] = [];
  let at = text.slice(root.from, root.to);
  if (!PLAIN.has(root.name)) at = `(${at})`;
  let type = typeOf(root);
  const bindItems = (): void => {
    while (type.kind === "list") {
      const name = freshName(at, type.item, taken);
      clauses.push(`some ${name} in ${at} satisfies `);
      at = name;
      type = type.item;
    }
  };
  for (const step of steps) {
    bindItems();
    at = `${at}.${step}`;
    const field = type.kind === "object" ? fieldOf(type, step)?.type : undefined;
    type = type.kind === "map" ? type.value : (field ?? ANY);
  }
  bindItems();
  if (clauses.length === 0) return undefined;
  const test = `${text.slice(comparison.from, side.from)}${at}${text.slice(side.to, comparison.to)}`;
  return `${clauses.join("")}${test}`;
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
    const rewrite = overItems(comparison, side, text, typeOf);
    const instead =
      rewrite === undefined
        ? "compare each item with 'some' or 'every'"
        : `write ${cut(rewrite)} to ask whether any item does, 'every' for all`;
    return `${head}: feelin compares a list with one value as if the list were its only item, so this holds only while the list has one item and never once it has two (${instead})`;
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
