/**
 * `in` with an operator after its test, refused before anything runs. FEEL's precedence binds
 * `in` tighter than `and`, `or` and the other comparisons, so `t.effect in ["a", "b"] and
 * t.authorization != "forbidden"` means `(t.effect in ["a", "b"]) and …`. feelin's grammar takes
 * all that follows `in` as its test instead: `t.effect in (["a", "b"] and …)`, a comparison with
 * the value of an `and` of a list — null. At the top of `when` a null leaves the subject
 * undecided, but inside `some`, `every` or a filter feelin takes it as false, so the rule never
 * fires and says nothing. The operators `=`, `<`, `between` and `instance of` bind as FEEL says;
 * only `in` (and its unary test, `in < 5 or …`) does not. What is in parentheses is read as
 * written, by both.
 */
import type { Node } from "./feel-tree.js";
import { children } from "./feel-tree.js";

/** A problem at an offset into the expression. */
export interface PrecedenceProblem {
  readonly from: number;
  readonly message: string;
}

/** What FEEL binds looser than `in`, but feelin's `in` swallows, in words for the message. */
const SWALLOWED: Readonly<Record<string, string>> = {
  Conjunction: "an 'and'",
  Disjunction: "an 'or'",
  Comparison: "a comparison",
  InstanceOfExpression: "an 'instance of'",
};

/** The longest a piece of the expression is shown. */
const SHOWN = 160;

const cut = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * The operator node feelin read as the test of an `in` comparison, when FEEL's precedence would
 * have ended the test before it; undefined for any other node.
 */
function swallowed(comparison: Node): Node | undefined {
  if (comparison.name !== "Comparison") return undefined;
  const [, op, test] = children(comparison);
  if (op?.name !== "in" || test?.name !== "PositiveUnaryTest") return undefined;
  let value = children(test)[0];
  // `in < 5 or b`: the unary test's operand swallows the rest in the same way.
  if (value?.name === "SimplePositiveUnaryTest") {
    const [first, operand] = children(value);
    value = first?.name === "CompareOp" ? operand : undefined;
  }
  return value !== undefined && Object.hasOwn(SWALLOWED, value.name) ? value : undefined;
}

/** Where FEEL's precedence ends the test of `in`: the leftmost operand of the swallowed chain. */
function meantEnd(operator: Node): number {
  let at = operator;
  for (let first = children(at)[0]; first !== undefined; first = children(at)[0]) {
    if (!Object.hasOwn(SWALLOWED, at.name)) break;
    at = first;
  }
  return at.to;
}

/**
 * The text of `node` with every `in` inside it that swallows an operator grouped as FEEL reads
 * it: `x in [1] and y in [2] or z` → `(x in [1]) and (y in [2]) or z`.
 */
function grouped(node: Node, text: string): string {
  const marks: { at: number; mark: string }[] = [];
  const stack: Node[] = [node];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const operator = swallowed(at);
    if (operator !== undefined) {
      marks.push({ at: at.from, mark: "(" }, { at: meantEnd(operator), mark: ")" });
    }
    stack.push(...children(at));
  }
  marks.sort((a, b) => a.at - b.at || (a.mark === ")" ? -1 : 1));
  let out = "";
  let from = node.from;
  for (const { at, mark } of marks) {
    out += text.slice(from, at) + mark;
    from = at;
  }
  return out + text.slice(from, node.to);
}

/**
 * The problems of every `in` in the expression whose test swallows an operator FEEL's
 * precedence would have left outside it, once per outermost one (its rewrite groups those
 * inside it too).
 */
export function precedenceProblems(top: Node, text: string): PrecedenceProblem[] {
  const problems: PrecedenceProblem[] = [];
  const stack: Node[] = [top];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const operator = swallowed(at);
    if (operator === undefined) {
      stack.push(...children(at));
      continue;
    }
    const [left, keyword] = children(at);
    const subject = left === undefined ? "" : text.slice(left.from, left.to);
    const read = `${text.slice(at.from, operator.from)}(${text.slice(operator.from, operator.to)})${text.slice(operator.to, at.to)}`;
    const what = SWALLOWED[operator.name] ?? "an operator";
    const value =
      operator.name === "Conjunction" || operator.name === "Disjunction"
        ? " (null when a side is no boolean, as a list or a range is; 'some', 'every' and filters take that null as false)"
        : "";
    problems.push({
      from: keyword?.from ?? at.from,
      message: `feelin takes all that follows 'in' as its test: this reads ${cut(read)}, comparing '${cut(subject)}' with the value of ${what}${value}, so it never holds as meant (write ${cut(grouped(at, text))}, as FEEL's precedence reads it)`,
    });
  }
  return problems.sort((a, b) => a.from - b.from);
}
