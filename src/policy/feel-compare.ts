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
 *   (`effect = "external_commitment"`, `gateStatus = "Bypassed"`, `element.type =
 *   "bpmn:serviceTask"`): a typo that never matches, said with the value it was likely meant to
 *   be; and a string fact with a literal of a form it never holds (`id = "tool:x"`,
 *   fact-literals.ts).
 * - A list or a record compared with a single value (`tools.effect in ["x"]`, `lane = "Sales"`,
 *   feel-shapes.ts).
 * - A version or a ref ordered (`t.version < "1.10.0"`, feel-versions.ts).
 *
 * Only what the check knows is judged: a side of unknown type, or a `null` literal, never is.
 */
import { meant } from "./fact-literals.js";
import type { FactType, ScalarBase } from "./fact-types.js";
import { compositeProblem, containsShapeProblem, isComposite } from "./feel-shapes.js";
import type { Node } from "./feel-tree.js";
import { children, LITERALS, stringValue } from "./feel-tree.js";
import { versionOrderProblem } from "./feel-versions.js";

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

/**
 * One side compared with another, whether the comparison is an equality, and whether `other` is
 * an item of a list inside the test's list (`[["a"]]`), which a list may equal.
 */
interface Pair {
  readonly fact: Node;
  readonly other: Node;
  readonly equality: boolean;
  readonly nested: boolean;
}

/** A value an `in` test compares with. */
interface TestValue {
  readonly node: Node;
  readonly equality: boolean;
  /** How many list literals it is in. */
  readonly depth: number;
}

/**
 * The values an `in` test compares its value with (`["4", "5"]`, `[1..3]`, `< 2`): for each,
 * whether it is compared for equality (a list item, a plain unary test) or for order (an
 * interval's bound, a `<` test).
 */
function testValues(test: Node, text: string): TestValue[] {
  const out: TestValue[] = [];
  const stack: TestValue[] = [{ node: test, equality: true, depth: 0 }];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const { node, equality, depth } = at;
    if (TEST_VALUES.has(node.name)) {
      out.push(at);
      continue;
    }
    if (!TEST_PARTS.has(node.name)) continue;
    const parts = children(node);
    const op = parts.find((p) => p.name === "CompareOp");
    const ordered =
      node.name === "Interval" || (op !== undefined && text.slice(op.from, op.to).trim() !== "=");
    const inner = node.name === "List" ? depth + 1 : depth;
    for (const part of parts) {
      stack.push({ node: part, equality: equality && !ordered, depth: inner });
    }
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
      { fact: left, other: right, equality, nested: false },
      { fact: right, other: left, equality, nested: false },
    ];
  }
  if (op.name === "between") {
    return rest
      .filter((r) => r.name !== "and")
      .map((r) => ({ fact: left, other: r, equality: false, nested: false }));
  }
  if (op.name === "in") {
    return rest.flatMap((part) =>
      testValues(part, text).map((v) => ({
        fact: left,
        other: v.node,
        equality: v.equality,
        nested: v.depth > 1,
      })),
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

/**
 * Why a literal is never a value of a scalar type — none of its few values, or of a form it
 * never holds — as words after "'fact' is <label>", with what to write instead; undefined when
 * it may be one.
 */
function neverValue(
  type: FactType & { kind: "scalar" },
  literal: string | number,
  shown: string,
): { words: string; instead?: string } | undefined {
  const values = type.values;
  if (values !== undefined) {
    if (values.includes(literal)) return undefined;
    const likely = meant(values, literal);
    return {
      words: `one of ${listed(values)}; ${shown} is none of them`,
      ...(likely === undefined ? {} : { instead: `write ${JSON.stringify(likely)}` }),
    };
  }
  const refused = typeof literal === "string" ? type.never?.(literal) : undefined;
  if (refused === undefined) return undefined;
  return { words: `but never ${shown}: ${refused.why}`, instead: refused.instead };
}

const advice = (instead: string | undefined): string =>
  instead === undefined ? "" : ` (${instead})`;

/**
 * The problem of a list or a record side compared with a single value, once per comparison:
 * every other pair of it reads the same side.
 */
function shapeProblem(
  node: Node,
  pairs: readonly Pair[],
  text: string,
  typeOf: (node: Node) => FactType,
): CompareProblem | undefined {
  for (const { fact, other, nested } of pairs) {
    const factType = typeOf(fact);
    const otherType = LITERAL_NODES.has(other.name) ? LITERALS[other.name] : typeOf(other);
    if (nested || !isComposite(factType) || otherType?.kind !== "scalar") continue;
    const shown = text.slice(other.from, other.to);
    return {
      from: fact.from,
      message: compositeProblem(node, fact, factType, { shown, type: otherType }, text, typeOf),
    };
  }
  return undefined;
}

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
  const pairs = pairsOf(node, text);
  const shaped = shapeProblem(node, pairs, text, typeOf);
  if (shaped !== undefined) return [shaped];
  const ordered = pairs.filter((p) => !p.equality).flatMap((p) => [p.fact, p.other]);
  const versions = versionOrderProblem(ordered, text, typeOf);
  if (versions !== undefined) return [versions];
  for (const { fact, other, equality } of pairs) {
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
    if (!equality || LITERAL_NODES.has(fact.name)) continue;
    const value = literalValue(other, text);
    const never = value === undefined ? undefined : neverValue(factType, value, shown(other));
    if (never === undefined) continue;
    said.add(key(fact, other));
    problems.push({
      from: other.from,
      message: `'${shown(fact)}' is ${factType.label}, ${never.words}, so this comparison never holds as meant${advice(never.instead)}`,
    });
  }
  return problems;
}

/**
 * The problem of `list contains(list, value)` where `value` can never be an item of the list:
 * a literal none of the items' few values (`list contains(tools.effect, "external_commitment")`)
 * or of a form they never hold (`list contains(tools.id, "tool:x")`), a single value among
 * records (`list contains(tools, "tool:x@1.0.0")`), a value of another type.
 */
export function containsProblem(
  list: FactType,
  value: Node | undefined,
  valueType: FactType | undefined,
  listText: string,
  text: string,
): CompareProblem | undefined {
  if (value === undefined || list.kind !== "list") return undefined;
  const item = list.item;
  const shown = text.slice(value.from, value.to);
  const type = LITERAL_NODES.has(value.name) ? LITERALS[value.name] : valueType;
  const shape = containsShapeProblem(item, { shown, type }, listText);
  if (shape !== undefined) return { from: value.from, message: shape };
  if (item.kind !== "scalar" || type?.kind !== "scalar") return undefined;
  if (item.base !== type.base) {
    return {
      from: value.from,
      message: `the items of '${listText}' are each ${item.label}, but ${shown} is ${type.label}: FEEL never equates values of different types, so it is never in the list`,
    };
  }
  const literal = literalValue(value, text);
  const never = literal === undefined ? undefined : neverValue(item, literal, shown);
  if (never === undefined) return undefined;
  return {
    from: value.from,
    message: `the items of '${listText}' are each ${item.label}, ${never.words}, so it is never in the list${advice(never.instead)}`,
  };
}
