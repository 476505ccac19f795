/**
 * Small helpers over feelin's FEEL parse tree for the static check of `when` (feel-check.ts):
 * node keys, children without comments, names, and the types literals and operators give.
 */
import type { parseExpression } from "feelin";
import type { FactType } from "./fact-types.js";

/** A node of feelin's parse tree. */
export type Node = ReturnType<typeof parseExpression>["topNode"];

/** Functions that read every field of their argument. */
export const INTROSPECTING = new Set([
  "get value",
  "get entries",
  "context",
  "context put",
  "context merge",
  "string",
  "distinct values",
  "duplicate values",
  "union",
  "index of",
  "list contains",
]);

const BOOLEAN: FactType = { kind: "scalar", label: "a boolean", base: "boolean" };
/** The type each kind of literal, comparison and logical expression gives. */
export const LITERALS: Readonly<Record<string, FactType>> = {
  NumericLiteral: { kind: "scalar", label: "a number", base: "number" },
  StringLiteral: { kind: "scalar", label: "a string", base: "string" },
  BooleanLiteral: BOOLEAN,
  Comparison: BOOLEAN,
  Conjunction: BOOLEAN,
  Disjunction: BOOLEAN,
  QuantifiedExpression: BOOLEAN,
  InstanceOfExpression: BOOLEAN,
};

/** A name in scope: bound by `some`/`for`/a context entry/a parameter, or a filter's item. */
export type Scope =
  | {
      readonly kind: "name";
      readonly name: string;
      readonly type: FactType;
      readonly owner: string;
    }
  | {
      readonly kind: "item";
      readonly item: FactType;
      readonly over: string;
      /** feelin binds the item only in a filter that is a test ({@link isTest}). */
      readonly tested: boolean;
      readonly owner: string;
    };

/** A key for a node: its name and range (the tree makes a new object on every visit). */
export const keyOf = (node: { name: string; from: number; to: number }): string =>
  `${node.name}@${node.from}-${node.to}`;

const isTrivia = (node: Node): boolean =>
  node.name === "LineComment" || node.name === "BlockComment";

/** The children of a node, comments left out. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (!isTrivia(c)) out.push(c);
  return out;
}

/** The name a `VariableName`, `PathName` or `Name` spells (words joined by one space). */
export function nameOf(node: Node, text: string): string {
  const words: string[] = [];
  for (let c = node.firstChild; c !== null; c = c.nextSibling) {
    if (c.name === "Identifier") words.push(text.slice(c.from, c.to));
  }
  return words.length > 0 ? words.join(" ") : text.slice(node.from, node.to).trim();
}

/** What iterating over (or filtering) a value of `type` gives one item of. */
export function itemOf(type: FactType): FactType {
  return type.kind === "list" ? type.item : type;
}

/** True for the expression inside a filter's brackets, where bare names are the item's fields. */
export function isFilterBody(node: Node): boolean {
  return node.parent?.name === "FilterExpression" && node.prevSibling?.name === "[";
}

/** What feelin evaluates per item in a filter; anything else it evaluates once, as an index. */
const TESTS = new Set([
  "Comparison",
  "Conjunction",
  "Disjunction",
  "QuantifiedExpression",
  "InstanceOfExpression",
]);

/**
 * True when a filter body is one feelin runs per item, with the item in scope: a test, in
 * parentheses or not. feelin runs any other body (`not(…)`, a function call, a name) once, as an
 * index or a boolean for the whole list, without the item.
 */
export function isTest(node: Node): boolean {
  let at: Node | undefined = node;
  while (at?.name === "ParenthesizedExpression")
    at = children(at).find((c) => c.name !== "(" && c.name !== ")");
  return at !== undefined && TESTS.has(at.name);
}

/** The arguments of a call, positional or named, in order. */
export function argumentsOf(call: Node): Node[] {
  const list = call.getChild("PositionalParameters") ?? call.getChild("NamedParameters");
  if (list === null) return [];
  return children(list)
    .filter((c) => c.name !== ",")
    .flatMap((c) => (c.name === "NamedParameter" ? (c.lastChild ?? []) : c));
}

/** The name a `FunctionInvocation` calls, when its callee is a plain name; else undefined. */
export function calleeName(call: Node, text: string): string | undefined {
  const callee = call.firstChild;
  return callee?.name === "VariableName" ? nameOf(callee, text) : undefined;
}

/** Whether `definition` is the ordering argument of a `sort` call. */
export function isSortOrdering(definition: Node, text: string): boolean {
  const call = definition.parent?.parent;
  return (
    call?.name === "FunctionInvocation" &&
    calleeName(call, text) === "sort" &&
    argumentsOf(call)[1]?.from === definition.from
  );
}
