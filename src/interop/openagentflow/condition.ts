/**
 * IR condition trees to FEEL and back. Identifiers are state variables and become `output.<name>`
 * (agentflow conditions read the merged outputs); `==` becomes FEEL `=`; `and` / `or` keep their
 * FEEL spelling; `not` becomes FEEL's function `not(...)`. A logical operand of a logical node,
 * and a comparison or logical operand of a comparison, is always parenthesised, so that FEEL's
 * precedence cannot regroup the tree and reading the FEEL back gives the same tree.
 */
import { pointer } from "../../model/index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { OafExpr } from "./ir-types.js";
import { fail } from "./ir-types.js";

const COMPARISONS: Readonly<Record<string, string>> = {
  "==": "=",
  "!=": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Plain decimals only: exponent forms are read differently by FEEL engines. */
const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const MAX_DEPTH = 64;

/** Context of a translation: where the tree is, which agent it guards, the known variables. */
export interface ConditionContext {
  readonly at: readonly (string | number)[];
  readonly elementId: string;
  readonly variables: ReadonlySet<string>;
}

function literal(value: unknown, path: string, ctx: ConditionContext): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "number" && DECIMAL.test(String(value))) return String(value);
  throw fail(path, `literal ${describeValue(value)} has no FEEL form`, ctx.elementId);
}

function translate(
  raw: unknown,
  at: readonly (string | number)[],
  ctx: ConditionContext,
  depth: number,
): string {
  const path = pointer(...at);
  if (!isRecord(raw))
    throw fail(path, `a condition must be an object, found ${describeValue(raw)}`, ctx.elementId);
  if (depth > MAX_DEPTH) throw fail(path, "the condition is nested too deeply", ctx.elementId);
  const type = own(raw, "type");
  const operator = own(raw, "operator");
  if (type === "IdentifierExpr") {
    const name = own(raw, "name");
    if (typeof name !== "string" || !NAME.test(name) || !ctx.variables.has(name)) {
      throw fail(
        pointer(...at, "name"),
        `condition reads ${describeValue(name)}, which is not a state variable`,
        ctx.elementId,
      );
    }
    return `output.${name}`;
  }
  if (type === "LiteralExpr") return literal(own(raw, "value"), pointer(...at, "value"), ctx);
  const side = (key: string): string => translate(own(raw, key), [...at, key], ctx, depth + 1);
  // Parenthesise by the child's IR type, not by its text: the grouping is the tree's.
  const wrap = (key: string, grouped: readonly string[]): string => {
    const child = own(raw, key);
    const text = side(key);
    const childType = isRecord(child) ? own(child, "type") : undefined;
    return typeof childType === "string" && grouped.includes(childType) ? `(${text})` : text;
  };
  if (
    type === "BinaryExpr" &&
    typeof operator === "string" &&
    Object.hasOwn(COMPARISONS, operator)
  ) {
    const grouped = ["BinaryExpr", "LogicalExpr"];
    return `${wrap("left", grouped)} ${COMPARISONS[operator] ?? operator} ${wrap("right", grouped)}`;
  }
  if (type === "LogicalExpr" && (operator === "and" || operator === "or")) {
    return `${wrap("left", ["LogicalExpr"])} ${operator} ${wrap("right", ["LogicalExpr"])}`;
  }
  // The IR's only unary operator; FEEL spells negation as a function, which needs no grouping.
  if (type === "UnaryExpr" && operator === "not") return `not(${side("right")})`;
  throw fail(
    pointer(
      ...at,
      type === "BinaryExpr" || type === "LogicalExpr" || type === "UnaryExpr" ? "operator" : "type",
    ),
    `condition node ${describeValue(type)} with operator ${describeValue(operator)} has no FEEL translation`,
    ctx.elementId,
  );
}

/** Translates an IR condition tree to FEEL over `output.`; throws an import error naming the node. */
export function conditionToFeel(raw: unknown, ctx: ConditionContext): string {
  return translate(raw, ctx.at, ctx, 0);
}

const TOKEN =
  /\s*(?:(\(|\)|!=|<=|>=|=|<|>)|(output\.[A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\]|\\.)*")|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)|([a-z]+))/y;

interface Token {
  readonly kind: "punct" | "name" | "string" | "number" | "word";
  readonly text: string;
}

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  const kinds = ["punct", "name", "string", "number", "word"] as const;
  // A fresh sticky regex per call: no state shared between calls.
  const re = new RegExp(TOKEN.source, "y");
  while (re.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(re.lastIndex))) break;
    const match = re.exec(text);
    if (match === null) return undefined;
    const index = match.slice(1).findIndex((g: string | undefined) => g !== undefined);
    const kind = kinds[index];
    const value = String(match[index + 1]);
    if (kind === undefined) return undefined;
    tokens.push({ kind, text: value });
  }
  return tokens;
}

/** A comparison operator of the IR. */
type Comparison = Extract<OafExpr, { type: "BinaryExpr" }>["operator"];

const FROM_FEEL: Readonly<Record<string, Comparison>> = {
  "=": "==",
  "!=": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

/**
 * Reads back the FEEL {@link conditionToFeel} writes (comparisons, `and` / `or`, `not(...)` over
 * `output.<name>` and literals, with parentheses); `undefined` for anything else. Never throws.
 */
export function feelToCondition(text: string): OafExpr | undefined {
  const tokens = tokenize(text);
  if (tokens === undefined) return undefined;
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const word = (t: Token | undefined, expected: string): boolean =>
    t?.kind === "word" && t.text === expected;
  const operand = (): OafExpr | undefined => {
    const t = tokens[pos++];
    if (t === undefined) return undefined;
    if (t.kind === "name") return { type: "IdentifierExpr", name: t.text.slice("output.".length) };
    if (t.kind === "number") return { type: "LiteralExpr", value: Number(t.text) };
    if (word(t, "true") || word(t, "false"))
      return { type: "LiteralExpr", value: t.text === "true" };
    if (word(t, "null")) return { type: "LiteralExpr", value: null };
    if (t.kind !== "string") return undefined;
    try {
      const value: unknown = JSON.parse(t.text);
      return typeof value === "string" ? { type: "LiteralExpr", value } : undefined;
    } catch {
      return undefined;
    }
  };
  /** A parenthesised expression, the body of `not(...)` included. */
  const group = (depth: number): OafExpr | undefined => {
    if (peek()?.text !== "(") return undefined;
    pos += 1;
    const inner = logical("or", depth + 1);
    return tokens[pos++]?.text === ")" ? inner : undefined;
  };
  const unary = (depth: number): OafExpr | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    if (peek()?.text === "(") return group(depth);
    if (word(peek(), "not") && tokens[pos + 1]?.text === "(") {
      pos += 1;
      const right = group(depth);
      return right === undefined ? undefined : { type: "UnaryExpr", operator: "not", right };
    }
    return operand();
  };
  const comparison = (depth: number): OafExpr | undefined => {
    const left = unary(depth);
    const op = FROM_FEEL[peek()?.text ?? ""];
    if (left === undefined || op === undefined) return left;
    pos += 1;
    const right = unary(depth);
    return right === undefined ? undefined : { type: "BinaryExpr", operator: op, left, right };
  };
  const logical = (operator: "and" | "or", depth: number): OafExpr | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const next = (): OafExpr | undefined =>
      operator === "or" ? logical("and", depth) : comparison(depth);
    let left = next();
    while (left !== undefined && word(peek(), operator)) {
      pos += 1;
      const right = next();
      left = right === undefined ? undefined : { type: "LogicalExpr", operator, left, right };
    }
    return left;
  };
  const tree = logical("or", 0);
  return pos === tokens.length ? tree : undefined;
}
