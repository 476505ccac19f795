/**
 * IR condition trees to FEEL and back. Identifiers are state variables and become `output.<name>`
 * (agentflow conditions read the merged outputs); `==` becomes FEEL `=`; `and` / `or` keep their
 * FEEL spelling; `not` becomes FEEL's function `not(...)`. A logical operand of a logical node,
 * and a comparison or logical operand of a comparison, is always parenthesised, so that FEEL's
 * precedence cannot regroup the tree and reading the FEEL back gives the same tree. A chain of one
 * operator (`a or b or c`, which the compiler nests to the left, one level per term) is one level,
 * written without inner parentheses: both operators are associative, in FEEL's three-valued logic
 * too, and the reader nests such a chain to the left again.
 */
import { MAX_CONDITION_LENGTH, pointer } from "../../model/index.js";
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
/** The deepest nesting read; a chain of one operator counts as one level (see above). */
export const MAX_CONDITION_NESTING = 64;
/**
 * The most tree nodes one condition may have: each writes at least one character, so a bigger
 * tree's FEEL would be longer than a condition may be ({@link MAX_CONDITION_LENGTH}).
 */
export const MAX_CONDITION_NODES = MAX_CONDITION_LENGTH;

/** Context of a translation: where the tree is, which agent it guards, the known variables. */
export interface ConditionContext {
  readonly at: readonly (string | number)[];
  readonly elementId: string;
  readonly variables: ReadonlySet<string>;
}

/**
 * Where a tree node is: its parent's place and its key, built in O(1) per node and written out
 * only for an error (copying the path at each of 10,000 chained terms is quadratic).
 */
interface Place {
  readonly up: Place | undefined;
  readonly key: string | number;
}

/** The state of one translation: the context, and how many nodes it has read. */
interface Walk {
  readonly ctx: ConditionContext;
  nodes: number;
}

function pathOf(place: Place | undefined, walk: Walk): string {
  const keys: (string | number)[] = [];
  for (let p = place; p !== undefined; p = p.up) keys.push(p.key);
  return pointer(...walk.ctx.at, ...keys.reverse());
}

function at(up: Place | undefined, key: string | number): Place {
  return { up, key };
}

function literal(value: unknown, place: Place, walk: Walk): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "number" && DECIMAL.test(String(value))) return String(value);
  throw fail(
    pathOf(place, walk),
    `literal ${describeValue(value)} has no FEEL form`,
    walk.ctx.elementId,
  );
}

/** Counts a node read, refusing the tree past {@link MAX_CONDITION_NODES}. */
function count(place: Place | undefined, walk: Walk): void {
  walk.nodes += 1;
  if (walk.nodes <= MAX_CONDITION_NODES) return;
  const message = `the condition has more than ${String(MAX_CONDITION_NODES)} nodes; its FEEL would be longer than a condition may be (${String(MAX_CONDITION_LENGTH)} characters)`;
  throw fail(pathOf(place, walk), message, walk.ctx.elementId);
}

/**
 * The operands of the chain of `operator` rooted at `raw`, in order, with their places: every
 * `LogicalExpr` of the same operator below it, on either side, is walked through. Iterative: the
 * compiler's chain of `n` terms is `n` levels deep.
 */
function chain(
  raw: Readonly<Record<string, unknown>>,
  operator: string,
  place: Place | undefined,
  walk: Walk,
): [unknown, Place][] {
  const operands: [unknown, Place][] = [];
  const stack: [unknown, Place][] = [
    [own(raw, "right"), at(place, "right")],
    [own(raw, "left"), at(place, "left")],
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, where] = top;
    if (
      isRecord(node) &&
      own(node, "type") === "LogicalExpr" &&
      own(node, "operator") === operator
    ) {
      count(where, walk);
      stack.push([own(node, "right"), at(where, "right")], [own(node, "left"), at(where, "left")]);
    } else operands.push(top);
  }
  return operands;
}

/** An operand's FEEL, parenthesised when its IR type is one of `grouped`. */
function operandFeel(
  raw: unknown,
  place: Place,
  walk: Walk,
  depth: number,
  grouped: readonly string[],
): string {
  const text = translate(raw, place, walk, depth);
  const type = isRecord(raw) ? own(raw, "type") : undefined;
  return typeof type === "string" && grouped.includes(type) ? `(${text})` : text;
}

function translate(raw: unknown, place: Place | undefined, walk: Walk, depth: number): string {
  const { ctx } = walk;
  if (!isRecord(raw)) {
    const message = `a condition must be an object, found ${describeValue(raw)}`;
    throw fail(pathOf(place, walk), message, ctx.elementId);
  }
  if (depth > MAX_CONDITION_NESTING)
    throw fail(pathOf(place, walk), "the condition is nested too deeply", ctx.elementId);
  count(place, walk);
  const type = own(raw, "type");
  const operator = own(raw, "operator");
  if (type === "IdentifierExpr") {
    const name = own(raw, "name");
    if (typeof name !== "string" || !NAME.test(name) || !ctx.variables.has(name)) {
      throw fail(
        pathOf(at(place, "name"), walk),
        `condition reads ${describeValue(name)}, which is not a state variable`,
        ctx.elementId,
      );
    }
    return `output.${name}`;
  }
  if (type === "LiteralExpr") return literal(own(raw, "value"), at(place, "value"), walk);
  // Parenthesise by the child's IR type, not by its text: the grouping is the tree's.
  const side = (key: string, grouped: readonly string[]): string =>
    operandFeel(own(raw, key), at(place, key), walk, depth + 1, grouped);
  if (
    type === "BinaryExpr" &&
    typeof operator === "string" &&
    Object.hasOwn(COMPARISONS, operator)
  ) {
    const grouped = ["BinaryExpr", "LogicalExpr"];
    return `${side("left", grouped)} ${COMPARISONS[operator] ?? operator} ${side("right", grouped)}`;
  }
  if (type === "LogicalExpr" && (operator === "and" || operator === "or")) {
    return chain(raw, operator, place, walk)
      .map(([child, where]) => operandFeel(child, where, walk, depth + 1, ["LogicalExpr"]))
      .join(` ${operator} `);
  }
  // The IR's only unary operator; FEEL spells negation as a function, which needs no grouping.
  if (type === "UnaryExpr" && operator === "not") return `not(${side("right", [])})`;
  throw fail(
    pathOf(
      at(
        place,
        type === "BinaryExpr" || type === "LogicalExpr" || type === "UnaryExpr"
          ? "operator"
          : "type",
      ),
      walk,
    ),
    `condition node ${describeValue(type)} with operator ${describeValue(operator)} has no FEEL translation`,
    ctx.elementId,
  );
}

/** Translates an IR condition tree to FEEL over `output.`; throws an import error naming the node. */
export function conditionToFeel(raw: unknown, ctx: ConditionContext): string {
  return translate(raw, undefined, { ctx, nodes: 0 }, 0);
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
    if (depth > MAX_CONDITION_NESTING) return undefined;
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
    if (depth > MAX_CONDITION_NESTING) return undefined;
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
