/**
 * Comparisons that can never hold because their two sides have different FEEL types: a fact of
 * a known scalar type against a literal of another (`level in ["4", "5"]`, `effect = 3`). FEEL
 * gives `false` or `null` for them, never `true`, so such a rule would never fire. Only what the
 * check knows is judged: a side of unknown type, or a `null` literal, is never a problem.
 */
import type { FactType } from "./fact-types.js";
import type { Node } from "./feel-tree.js";
import { children, LITERALS } from "./feel-tree.js";

/** A problem at an offset into the expression. */
export interface CompareProblem {
  readonly from: number;
  readonly message: string;
}

const LITERAL_NODES = new Set(["NumericLiteral", "StringLiteral", "BooleanLiteral"]);
/** Nodes of an `in` test that hold the literals it compares with. */
const TEST_PARTS = new Set([
  "PositiveUnaryTest",
  "PositiveUnaryTests",
  "SimplePositiveUnaryTest",
  "List",
  "Interval",
  "ParenthesizedExpression",
]);

/** The literals an `in` test compares its value with (`["4", "5"]`, `[1..3]`, `< 2`). */
function testLiterals(test: Node): Node[] {
  const out: Node[] = [];
  const stack = [test];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (LITERAL_NODES.has(at.name)) out.push(at);
    else if (TEST_PARTS.has(at.name)) stack.push(...children(at));
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The problems of a `Comparison` node whose children's types are known (`typeOf`). */
export function compareProblems(
  node: Node,
  text: string,
  typeOf: (node: Node) => FactType,
): CompareProblem[] {
  const [left, op, ...rest] = children(node);
  if (left === undefined || op === undefined) return [];
  const pairs: [Node, Node][] = [];
  if (op.name === "CompareOp") {
    const [right] = rest;
    if (right === undefined) return [];
    pairs.push([left, right], [right, left]);
  } else if (op.name === "in") {
    for (const part of rest) for (const lit of testLiterals(part)) pairs.push([left, lit]);
  }
  const problems: CompareProblem[] = [];
  for (const [fact, lit] of pairs) {
    if (!LITERAL_NODES.has(lit.name) || LITERAL_NODES.has(fact.name)) continue;
    const factType = typeOf(fact);
    const litType = LITERALS[lit.name];
    if (factType.kind !== "scalar" || litType?.kind !== "scalar") continue;
    if (factType.base === litType.base) continue;
    problems.push({
      from: lit.from,
      message: `'${text.slice(fact.from, fact.to)}' is ${factType.label}, but ${text.slice(lit.from, lit.to)} is ${litType.label}: FEEL never finds values of different types equal or ordered, so this comparison is never true (write a literal of the fact's type)`,
    });
  }
  return problems;
}
