/**
 * IR condition trees to FEEL and back. Identifiers are state variables and become `output.<name>`
 * (agentflow conditions read the merged outputs); `==` becomes FEEL `=`; `and` / `or` keep their
 * FEEL spelling, and a logical operand is always parenthesised so that reading the FEEL back gives
 * the same tree.
 */
import { pointer } from "../../model/index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { OafExpr } from "./ir-types.js";
import { oafError } from "./ir-types.js";

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
  throw oafError(path, `literal ${describeValue(value)} has no FEEL form`, ctx.elementId);
}

function translate(
  raw: unknown,
  at: readonly (string | number)[],
  ctx: ConditionContext,
  depth: number,
): string {
  const path = pointer(...at);
  if (!isRecord(raw))
    throw oafError(
      path,
      `a condition must be an object, found ${describeValue(raw)}`,
      ctx.elementId,
    );
  if (depth > MAX_DEPTH) throw oafError(path, "the condition is nested too deeply", ctx.elementId);
  const type = own(raw, "type");
  const operator = own(raw, "operator");
  if (type === "IdentifierExpr") {
    const name = own(raw, "name");
    if (typeof name !== "string" || !NAME.test(name) || !ctx.variables.has(name)) {
      throw oafError(
        pointer(...at, "name"),
        `condition reads ${describeValue(name)}, which is not a state variable`,
        ctx.elementId,
      );
    }
    return `output.${name}`;
  }
  if (type === "LiteralExpr") return literal(own(raw, "value"), pointer(...at, "value"), ctx);
  const side = (key: string): string => translate(own(raw, key), [...at, key], ctx, depth + 1);
  if (
    type === "BinaryExpr" &&
    typeof operator === "string" &&
    Object.hasOwn(COMPARISONS, operator)
  ) {
    return `${side("left")} ${COMPARISONS[operator] ?? operator} ${side("right")}`;
  }
  if (type === "LogicalExpr" && (operator === "and" || operator === "or")) {
    const wrap = (key: string): string => {
      const child = own(raw, key);
      const text = side(key);
      return isRecord(child) && own(child, "type") === "LogicalExpr" ? `(${text})` : text;
    };
    return `${wrap("left")} ${operator} ${wrap("right")}`;
  }
  throw oafError(
    pointer(...at, type === "BinaryExpr" || type === "LogicalExpr" ? "operator" : "type"),
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
 * Reads back the FEEL {@link conditionToFeel} writes (comparisons of `output.<name>` and literals
 * joined by `and` / `or`, with parentheses); `undefined` for anything else. Never throws.
 */
export function feelToCondition(text: string): OafExpr | undefined {
  const tokens = tokenize(text);
  if (tokens === undefined) return undefined;
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const operand = (): OafExpr | undefined => {
    const t = tokens[pos++];
    if (t === undefined) return undefined;
    if (t.kind === "name") return { type: "IdentifierExpr", name: t.text.slice("output.".length) };
    if (t.kind === "number") return { type: "LiteralExpr", value: Number(t.text) };
    if (t.kind === "word" && (t.text === "true" || t.text === "false"))
      return { type: "LiteralExpr", value: t.text === "true" };
    if (t.kind === "word" && t.text === "null") return { type: "LiteralExpr", value: null };
    if (t.kind !== "string") return undefined;
    try {
      const value: unknown = JSON.parse(t.text);
      return typeof value === "string" ? { type: "LiteralExpr", value } : undefined;
    } catch {
      return undefined;
    }
  };
  const atom = (depth: number): OafExpr | undefined => {
    if (peek()?.text === "(") {
      pos += 1;
      const inner = logical("or", depth + 1);
      return tokens[pos++]?.text === ")" ? inner : undefined;
    }
    const left = operand();
    const op = FROM_FEEL[tokens[pos++]?.text ?? ""];
    const right = operand();
    if (left === undefined || op === undefined || right === undefined) return undefined;
    return { type: "BinaryExpr", operator: op, left, right };
  };
  const logical = (operator: "and" | "or", depth: number): OafExpr | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const next = (): OafExpr | undefined =>
      operator === "or" ? logical("and", depth) : atom(depth);
    let left = next();
    while (left !== undefined && peek()?.kind === "word" && peek()?.text === operator) {
      pos += 1;
      const right = next();
      left = right === undefined ? undefined : { type: "LogicalExpr", operator, left, right };
    }
    return left;
  };
  const tree = logical("or", 0);
  return pos === tokens.length ? tree : undefined;
}
