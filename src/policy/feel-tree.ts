/**
 * Small helpers over feelin's FEEL parse tree for the static check of `when` (feel-check.ts):
 * node keys, children without comments, names, and the types literals and operators give.
 */
import { evaluate, type parseExpression } from "feelin";
import type { FactType } from "./fact-types.js";
import { BOOLEAN, DATE, DATE_TIME, DURATION, NUMBER, STRING, TIME } from "./feel-builtins.js";

/** A node of feelin's parse tree. */
export type Node = ReturnType<typeof parseExpression>["topNode"];

/**
 * The type of a temporal literal (`@"2027-01-15"`, `@"P1D"`) by the text it holds, as FEEL reads
 * it: a duration starts with `P` (or `-P`), a time with two digits and `:`, a date and time holds
 * a `T`; else a date.
 */
export function temporalLiteralType(value: string): FactType {
  if (/^-?P/.test(value)) return DURATION;
  if (/^\d{2}:/.test(value)) return TIME;
  return value.includes("T") ? DATE_TIME : DATE;
}

/** The type each kind of literal, comparison and logical expression gives. */
export const LITERALS: Readonly<Record<string, FactType>> = {
  NumericLiteral: NUMBER,
  StringLiteral: STRING,
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

/**
 * The arguments of a call, in order. Named ones (`matches(input: x, pattern: p)`) are put in the
 * order of `parameters`, the callee's parameter names (a name it lacks leaves a hole), then any
 * other names in the order written; without `parameters`, in the order written.
 */
export function argumentsOf(
  call: Node,
  parameters?: readonly string[],
  text?: string,
): (Node | undefined)[] {
  const positional = call.getChild("PositionalParameters");
  if (positional !== null) return children(positional).filter((c) => c.name !== ",");
  const named = call.getChild("NamedParameters");
  if (named === null) return [];
  const pairs = named
    .getChildren("NamedParameter")
    .map((p) => ({ name: text === undefined ? "" : parameterName(p, text), value: p.lastChild }));
  if (parameters === undefined || text === undefined) return pairs.map((p) => p.value ?? undefined);
  const placed = parameters.map((name) => pairs.find((p) => p.name === name)?.value ?? undefined);
  const others = pairs.filter((p) => !parameters.includes(p.name)).map((p) => p.value ?? undefined);
  return [...placed, ...others];
}

/** A named argument's parameter name (`pattern` of `pattern: "^x"`). */
function parameterName(parameter: Node, text: string): string {
  const name = parameter.getChild("ParameterName");
  return name === null ? "" : nameOf(name.getChild("Name") ?? name, text);
}

/**
 * The parameters of the built-ins whose arguments the checks read by place, as feelin names them
 * (a call may name its arguments, in any order).
 */
export const PARAMETERS: ReadonlyMap<string, readonly string[]> = new Map([
  ["sort", ["list", "precedes"]],
  ["flatten", ["list"]],
  ["string", ["from"]],
  ["string join", ["list", "delimiter"]],
  ["replace", ["input", "pattern", "replacement", "flags"]],
  ["split", ["string", "delimiter"]],
  ["matches", ["input", "pattern", "flags"]],
]);

/**
 * A string literal's value as feelin reads it, its escapes decoded (`"\u0024'"` is `$'`), or
 * undefined for any other node.
 */
export function stringValue(node: Node | null | undefined, text: string): string | undefined {
  if (node?.name !== "StringLiteral") return undefined;
  const value: unknown = evaluate(text.slice(node.from, node.to), {}).value;
  return typeof value === "string" ? value : undefined;
}

/**
 * The name a context entry binds: its key, a name or a string (`{"tools": …}` binds `tools`
 * too); undefined for a key the entry cannot be named by.
 */
export function contextKey(entry: Node, text: string): string | undefined {
  const key = entry.getChild("Key");
  const name = key?.getChild("Name");
  if (name !== null && name !== undefined) return nameOf(name, text);
  return stringValue(key?.getChild("StringLiteral"), text);
}

/** The name a `FunctionInvocation` calls: a plain name, or a built-in FEEL spells in keywords. */
export function calleeName(call: Node, text: string): string | undefined {
  const callee = call.firstChild;
  if (callee?.name === "VariableName") return nameOf(callee, text);
  // FEEL's grammar spells `years and months duration` in keywords, one node each.
  if (callee?.name === "SpecialFunctionName") {
    return children(callee)
      .map((word) => text.slice(word.from, word.to))
      .join(" ");
  }
  return undefined;
}

/** The call an argument is given to, positional or named; undefined for any other node. */
export function callOf(argument: Node): Node | undefined {
  const list =
    argument.parent?.name === "NamedParameter" ? argument.parent.parent : argument.parent;
  const call = list?.parent;
  return call?.name === "FunctionInvocation" ? call : undefined;
}

/** Whether `definition` is the ordering argument of a `sort` call. */
export function isSortOrdering(definition: Node, text: string): boolean {
  const call = callOf(definition);
  return (
    call !== undefined &&
    calleeName(call, text) === "sort" &&
    argumentsOf(call, PARAMETERS.get("sort"), text)[1]?.from === definition.from
  );
}
