/**
 * What a `when` may iterate, decided before it runs. feelin enumerates a range that `for`,
 * `some` or `every` iterate into an array, eagerly and without a bound (`1..300000000` fills the
 * heap until V8 aborts the process; `1.5..3` and `(1..1]` never stop), and its API offers no way
 * to limit an evaluation's time or memory. So the check admits only iteration it can bound:
 * ranges with literal bounds, and values it knows are not ranges (lists, facts, built-in calls).
 */
import type { FactType } from "./fact-types.js";
import { children, type Node } from "./feel-tree.js";

/**
 * The most values all the ranges of one `when` may iterate together (the product of their
 * sizes). Policy rules iterate facts, not numbers: a range there is a small enumeration (levels,
 * a few indexes). 100,000 small values take milliseconds and a few megabytes in feelin, so even
 * a rule tried at every unknown level and effect (36 evaluations) stays well under a second,
 * while one evaluation can no longer exhaust the heap.
 */
export const MAX_RANGE_ITERATIONS = 100_000;

/** A problem at an offset into the expression. */
export interface IterationProblem {
  readonly from: number;
  readonly message: string;
}

const BRACKETS = new Set(["[", "]", "(", ")", ".."]);
const WRAPPERS = new Set([
  "ParenthesizedExpression",
  "SimplePositiveUnaryTest",
  "PositiveUnaryTest",
]);

/** The node an iteration context holds, without parentheses and unary-test wrappers. */
function unwrap(node: Node): Node {
  let at = node;
  while (WRAPPERS.has(at.name)) {
    const inner = children(at).filter((c) => c.name !== "(" && c.name !== ")");
    if (inner.length !== 1 || inner[0] === undefined) return at;
    at = inner[0];
  }
  return at;
}

/** A literal bound's value: a number (`- 1` included) or a one-letter string; else undefined. */
function literal(node: Node, text: string): number | string | undefined {
  const source = text.slice(node.from, node.to).replace(/\s+/g, "");
  if (node.name === "NumericLiteral") return Number(source);
  if (node.name === "StringLiteral") return source.slice(1, -1);
  return undefined;
}

/** Tracks the iteration of one `when`: the product of its ranges' sizes so far. */
export class IterationBudget {
  private total = 1;
  private reported = false;

  /**
   * The problem of iterating an `in` clause's context (`IterationContext`), given the type the
   * check found for a single expression there and whether that expression is a call of a
   * built-in (which never gives a range), or `undefined` when the iteration is bounded.
   */
  check(
    context: Node,
    text: string,
    typeOf: (node: Node) => FactType,
    isBuiltinCall: (node: Node) => boolean,
  ): IterationProblem | undefined {
    const parts = children(context);
    if (parts.some((p) => p.name === "..")) {
      const [start, , end] = parts;
      return start === undefined || end === undefined
        ? undefined
        : this.range(context, start, end, true, true, text);
    }
    const [only] = parts;
    if (only === undefined) return undefined;
    const inner = unwrap(only);
    if (inner.name === "Interval") {
      const all = children(inner);
      const [start, end] = all.filter((c) => !BRACKETS.has(c.name));
      if (start === undefined || end === undefined) return undefined;
      const open = all[0]?.name !== "[";
      const close = all[all.length - 1]?.name === "]";
      return this.range(inner, start, end, !open, close, text);
    }
    if (inner.name === "List" || isBuiltinCall(inner) || typeOf(inner).kind !== "any") {
      return undefined;
    }
    return {
      from: only.from,
      message: `cannot iterate '${text.slice(only.from, only.to)}': the check cannot tell it is not a range, and feelin iterates a range of any size without a bound (iterate a fact, a list, a filter, a 'for' or a built-in's result, or a range with literal bounds such as 1..10)`,
    };
  }

  private range(
    node: Node,
    start: Node,
    end: Node,
    startIncluded: boolean,
    endIncluded: boolean,
    text: string,
  ): IterationProblem | undefined {
    const shown = text.slice(node.from, node.to);
    const a = literal(start, text);
    const b = literal(end, text);
    for (const [bound, value] of [
      [start, a],
      [end, b],
    ] as const) {
      if (value === undefined) {
        return {
          from: bound.from,
          message: `range ${shown} to iterate has a bound that is not a literal ('${text.slice(bound.from, bound.to)}'): feelin iterates a range of any size without a bound, so a range's bounds must be whole numbers or single letters written in the rule`,
        };
      }
    }
    if (typeof a === "string" || typeof b === "string") {
      // feelin enumerates letter ranges over a-z and A-Z only: at most 52 values.
      return this.add(node, shown, 52);
    }
    if (typeof a !== "number" || typeof b !== "number") return undefined;
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) {
      return {
        from: node.from,
        message: `range ${shown} to iterate must have whole-number bounds: feelin steps by 1 from the start and never reaches an end it cannot land on`,
      };
    }
    if (a === b && !startIncluded) {
      return {
        from: node.from,
        message: `range ${shown} excludes its start and ends there: feelin never stops iterating it`,
      };
    }
    return this.add(node, shown, Math.abs(b - a) + 1);
  }

  private add(node: Node, shown: string, size: number): IterationProblem | undefined {
    this.total *= size;
    if (this.reported || this.total <= MAX_RANGE_ITERATIONS) return undefined;
    this.reported = true;
    const count = this.total.toLocaleString("en-US");
    const limit = MAX_RANGE_ITERATIONS.toLocaleString("en-US");
    return {
      from: node.from,
      message:
        this.total === size
          ? `range ${shown} iterates ${count} values; a rule's 'when' may iterate at most ${limit} (feelin builds every value in memory)`
          : `range ${shown} makes the ranges of this 'when' iterate up to ${count} values together; a rule's 'when' may iterate at most ${limit} (feelin builds every value in memory)`,
    };
  }
}
