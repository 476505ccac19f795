/**
 * Comparisons that cannot hold as their author meant, found before anything runs:
 *
 * - Two sides of different FEEL types, where both types are known: a fact, a literal, or the
 *   result of a built-in function (`level in ["4", "5"]`, `count(tools) > "0"`,
 *   `today() >= "2090-01-01"`). FEEL neither equates nor orders such values; feelin gives null
 *   for `=` but orders them by JavaScript's rules (`1 < "5"` is true), so the rule would fire or
 *   pass by accident. What cannot be typed before it runs is caught when it runs
 *   (feel-order.ts).
 * - A fact of a few values compared for equality with a literal that is none of them
 *   (`effect = "external_commitment"`, `gateStatus = "Bypassed"`): a typo that never matches.
 *
 * Only what the check knows is judged: a side of unknown type, or a `null` literal, never is.
 */
import type { FactType, ScalarBase } from "./fact-types.js";
import type { Node } from "./feel-tree.js";
import { children, LITERALS, stringValue } from "./feel-tree.js";

/** A problem at an offset into the expression. */
export interface CompareProblem {
  readonly from: number;
  readonly message: string;
}

const LITERAL_NODES = new Set(["NumericLiteral", "StringLiteral", "BooleanLiteral"]);
/** Nodes of an `in` test that hold the values it compares with. */
const TEST_PARTS = new Set([
  "PositiveUnaryTest",
  "PositiveUnaryTests",
  "SimplePositiveUnaryTest",
  "List",
  "Interval",
  "ParenthesizedExpression",
]);
/** Values an `in` test compares with, besides literals: typed calls and temporal literals. */
const TEST_VALUES = new Set([...LITERAL_NODES, "FunctionInvocation", "DateTimeLiteral"]);

/** One side compared with another, and whether the comparison is an equality. */
interface Pair {
  readonly fact: Node;
  readonly other: Node;
  readonly equality: boolean;
}

/**
 * The values an `in` test compares its value with (`["4", "5"]`, `[1..3]`, `< 2`): for each,
 * whether it is compared for equality (a list item, a plain unary test) or for order (an
 * interval's bound, a `<` test).
 */
function testValues(test: Node, text: string): { node: Node; equality: boolean }[] {
  const out: { node: Node; equality: boolean }[] = [];
  const stack: { node: Node; equality: boolean }[] = [{ node: test, equality: true }];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const { node, equality } = at;
    if (TEST_VALUES.has(node.name)) {
      out.push(at);
      continue;
    }
    if (!TEST_PARTS.has(node.name)) continue;
    const parts = children(node);
    const op = parts.find((p) => p.name === "CompareOp");
    const ordered =
      node.name === "Interval" || (op !== undefined && text.slice(op.from, op.to).trim() !== "=");
    for (const part of parts) stack.push({ node: part, equality: equality && !ordered });
  }
  return out.sort((a, b) => a.node.from - b.node.from);
}

/** The pairs a `Comparison` node compares. */
function pairsOf(node: Node, text: string): Pair[] {
  const [left, op, ...rest] = children(node);
  if (left === undefined || op === undefined) return [];
  if (op.name === "CompareOp") {
    const [right] = rest;
    if (right === undefined) return [];
    const equality = ["=", "!="].includes(text.slice(op.from, op.to).trim());
    return [
      { fact: left, other: right, equality },
      { fact: right, other: left, equality },
    ];
  }
  if (op.name === "between") {
    return rest
      .filter((r) => r.name !== "and")
      .map((r) => ({ fact: left, other: r, equality: false }));
  }
  if (op.name === "in") {
    return rest.flatMap((part) =>
      testValues(part, text).map((v) => ({ fact: left, other: v.node, equality: v.equality })),
    );
  }
  return [];
}

/** How to write a value of `base` from a string literal, for the message. */
const WRITE_AS: Readonly<Partial<Record<ScalarBase, string>>> = {
  date: "date",
  time: "time",
  "date and time": "date and time",
  duration: "duration",
};

/** A literal's value as FEEL reads it (a string's escapes decoded), or undefined. */
function literalValue(node: Node, text: string): string | number | undefined {
  if (node.name === "StringLiteral") return stringValue(node, text);
  if (node.name === "NumericLiteral") return Number(text.slice(node.from, node.to));
  return undefined;
}

/** The values of an enumerated type, for a message. */
const listed = (values: readonly (string | number)[]): string =>
  values.map((v) => (typeof v === "string" ? JSON.stringify(v) : String(v))).join(", ");

/** The problems of a `Comparison` node whose children's types are known (`typeOf`). */
export function compareProblems(
  node: Node,
  text: string,
  typeOf: (node: Node) => FactType,
): CompareProblem[] {
  const problems: CompareProblem[] = [];
  // Each pair is said once, though `=` and `<` are paired both ways round.
  const said = new Set<string>();
  const key = (a: Node, b: Node): string =>
    `${Math.min(a.from, b.from)}:${Math.max(a.from, b.from)}`;
  const shown = (n: Node): string => text.slice(n.from, n.to);
  for (const { fact, other, equality } of pairsOf(node, text)) {
    const factType = typeOf(fact);
    const otherType = LITERAL_NODES.has(other.name) ? LITERALS[other.name] : typeOf(other);
    if (factType.kind !== "scalar" || otherType?.kind !== "scalar") continue;
    // Said once per pair, at the literal when there is one (the side the author mistyped).
    const at = LITERAL_NODES.has(fact.name) && !LITERAL_NODES.has(other.name) ? fact : other;
    if (said.has(key(fact, other))) continue;
    if (factType.base !== otherType.base) {
      said.add(key(fact, other));
      const [typed, written] = at === other ? [factType, otherType] : [otherType, factType];
      const how = WRITE_AS[typed.base];
      const hint =
        how !== undefined && written.base === "string" && LITERAL_NODES.has(at.name)
          ? `write ${how}(${shown(at)})`
          : "compare values of one type";
      problems.push({
        from: at.from,
        message: `'${shown(at === other ? fact : other)}' is ${typed.label}, but ${shown(at)} is ${written.label}: FEEL neither equates nor orders values of different types (feelin's answer for them means nothing), so this comparison cannot hold as meant (${hint})`,
      });
      continue;
    }
    const values = factType.values;
    if (!equality || values === undefined || LITERAL_NODES.has(fact.name)) continue;
    const value = literalValue(other, text);
    if (value === undefined || values.includes(value)) continue;
    said.add(key(fact, other));
    problems.push({
      from: other.from,
      message: `'${shown(fact)}' is ${factType.label}, one of ${listed(values)}; ${shown(other)} is none of them, so this comparison never holds as meant`,
    });
  }
  return problems;
}

/**
 * The problem of `list contains(list, value)` where the list's items are of a few values and
 * `value` is a literal that is none of them (`list contains(tools.effect, "external_commitment")`).
 */
export function containsProblem(
  list: FactType,
  value: Node | undefined,
  listText: string,
  text: string,
): CompareProblem | undefined {
  if (value === undefined || list.kind !== "list" || list.item.kind !== "scalar") return undefined;
  const values = list.item.values;
  const literal = literalValue(value, text);
  if (values === undefined || literal === undefined || values.includes(literal)) return undefined;
  return {
    from: value.from,
    message: `the items of '${listText}' are each ${list.item.label}, one of ${listed(values)}; ${text.slice(value.from, value.to)} is none of them, so it is never in the list`,
  };
}
