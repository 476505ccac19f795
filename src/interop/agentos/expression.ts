/**
 * A decision's conditions as AgentOS route expressions. AgentOS 0.9.164 cannot run a serialised
 * `{ type: "function" }` condition (the function does not survive JSON, and its runtime then
 * throws `config.condition.fn is not a function`); the serialisable form it evaluates is
 * `{ type: "expression", expr }`, read by its own small interpreter (`safeEvaluateExpression`):
 * partition paths such as `artifacts.output.score`, the operators `=== !== == != > < >= <=`,
 * `&&` and `||` split as text, quoted strings, numbers and booleans, and no parentheses, negation
 * or arithmetic. A conditional edge whose expression is true is followed, every such edge, so a
 * decision's first-match routes are written exclusive: route k is its own comparison and the
 * negation of each earlier one it does not already exclude (an earlier `=` on the same field with
 * another literal excludes itself). docs/interop/agentos.md lists what is written and why.
 */
import type { ConditionLanguage, DecisionRoute } from "../../model/index.js";
import type { CompareOperator, Expr, Rational } from "../../model/internal.js";
import { compareRationals, conditionComparison, fromNumber } from "../../model/internal.js";

/** Where every llm and tool node's output is kept (`metadata.outputAs`), read as `output`. */
export const OUTPUT_PATH = "artifacts.output";

/**
 * The most comparisons one decision's expressions may hold together. A switch over one field
 * stays linear, but n conditions that exclude nothing need n²/2 negations: past this bound the
 * decision keeps a function condition, declared, rather than a document of gigabytes.
 */
export const MAX_COMPARISONS = 100_000;

/** A name AgentOS's path pattern (`\w+` segments) reads whole. */
const SEGMENT = /^[A-Za-z0-9_]+$/;
/** A string its interpreter reads back as written: none of the characters it splits on. */
const SAFE_STRING = /^[^"\\=!<>&|?{}]*$/;

/** Each S-FEEL operator written, and its negation (exact whenever FEEL itself decides). */
const OPERATORS: Readonly<Record<CompareOperator, readonly [string, string]>> = {
  "=": ["===", "!=="],
  "!=": ["!==", "==="],
  "<": ["<", ">="],
  "<=": ["<=", ">"],
  ">": [">", "<="],
  ">=": [">=", "<"],
};

type Operand =
  | { readonly text: string; readonly field?: string; readonly literal?: string }
  | { readonly refused: string };

/** One condition written: the comparison, its negation, and what makes it exclusive. */
interface Term {
  readonly text: string;
  readonly negation: string;
  /** Equal for two conditions that hold on the same outputs (the same text, or field = literal). */
  readonly key: string;
  /** The field of a `field = literal` comparison: two of them on one field exclude each other. */
  readonly field?: string;
  /** Whether it reads a field of the output at all. */
  readonly readsOutput: boolean;
}

/** The expressions of every route, in route order, or why the decision keeps a function. */
export type RouteExpressions =
  | { readonly expressions: readonly string[]; readonly readsOutput: boolean }
  | { readonly refused: ReadonlyMap<number, string> };

function numberOperand(value: Rational, label: string): Operand {
  const n = Number(value.num) / Number(value.den);
  const back = fromNumber(n);
  if (back === undefined || compareRationals(back, value) !== 0)
    return {
      refused: `the number ${label} has no exact JavaScript number, which AgentOS compares`,
    };
  return { text: String(n), literal: `n${String(n)}` };
}

function operand(e: Expr): Operand {
  switch (e.kind) {
    case "field": {
      const bad = e.path.find((segment) => !SEGMENT.test(segment));
      if (bad !== undefined)
        return { refused: `the field name '${bad}' is not one AgentOS paths read ([A-Za-z0-9_]+)` };
      const text = [OUTPUT_PATH, ...e.path].join(".");
      return { text, field: text };
    }
    case "string":
      if (!SAFE_STRING.test(e.value))
        return {
          refused: `the string ${JSON.stringify(e.value)} holds a character AgentOS's expression reader splits on or cannot quote`,
        };
      return { text: `"${e.value}"`, literal: `s${e.value}` };
    case "boolean":
      return { text: String(e.value), literal: `b${String(e.value)}` };
    case "number":
      return numberOperand(e.value, e.label);
    case "negate":
      if (e.operand.kind === "number")
        return numberOperand({ num: -e.operand.value.num, den: e.operand.value.den }, e.label);
      return { refused: `${e.label} is arithmetic, which AgentOS expressions do not have` };
    case "arith":
      return { refused: `${e.label} is arithmetic, which AgentOS expressions do not have` };
  }
}

/** One FEEL condition as a term, or why it has no AgentOS form. */
function term(condition: string): Term | string {
  const compiled = conditionComparison(condition);
  if (compiled === undefined)
    return "it is not one S-FEEL comparison (an agentflow simulation cannot decide it either)";
  const left = operand(compiled.left);
  if ("refused" in left) return left.refused;
  const right = operand(compiled.right);
  if ("refused" in right) return right.refused;
  const [op, negated] = OPERATORS[compiled.op];
  const text = `${left.text} ${op} ${right.text}`;
  const negation = `${left.text} ${negated} ${right.text}`;
  const field = left.field ?? right.field;
  const literal = left.literal ?? right.literal;
  const readsOutput = field !== undefined;
  if (compiled.op === "=" && field !== undefined && literal !== undefined)
    return { text, negation, key: `${field}\u0000${literal}`, field, readsOutput };
  return { text, negation, key: text, readsOutput };
}

/**
 * The AgentOS expression of each route of a decision, in route order: route k holds when its
 * condition holds and no earlier one does, an else route when none does, a route after an
 * earlier one with the same condition (or after an else route) never (`false`). Refused, route
 * by route, when a condition has no expression form (text conditions, FEEL outside the
 * comparisons AgentOS reads); refused as a whole (key -1) past {@link MAX_COMPARISONS}.
 */
export function routeExpressions(
  routes: readonly DecisionRoute[],
  language: ConditionLanguage | undefined,
): RouteExpressions {
  const terms: (Term | undefined)[] = [];
  const refused = new Map<number, string>();
  routes.forEach((r, k) => {
    if (r.condition === undefined) {
      terms.push(undefined);
      return;
    }
    const t =
      language === "text"
        ? "a text condition is judged by a model; AgentOS evaluates expressions"
        : term(r.condition);
    if (typeof t === "string") refused.set(k, t);
    else terms.push(t);
  });
  if (refused.size > 0) return { refused };
  // Negations of earlier `field = literal` conditions by field, and of every other condition.
  const byField = new Map<string, string[]>();
  const others: string[] = [];
  const seen = new Set<string>();
  const expressions: string[] = [];
  let closed = false;
  let written = 0;
  for (const t of terms) {
    if (closed || (t !== undefined && seen.has(t.key))) {
      expressions.push("false");
      continue;
    }
    const parts = t === undefined ? [] : [t.text];
    for (const [field, negations] of byField)
      if (field !== t?.field) for (const n of negations) parts.push(n);
    for (const n of others) parts.push(n);
    written += parts.length;
    if (written > MAX_COMPARISONS) {
      const reason = `its routes need more than ${MAX_COMPARISONS.toLocaleString("en-US")} comparisons as exclusive AgentOS expressions`;
      return { refused: new Map([[-1, reason]]) };
    }
    expressions.push(parts.length === 0 ? "true" : parts.join(" && "));
    if (t === undefined) {
      closed = true;
      continue;
    }
    seen.add(t.key);
    if (t.field === undefined) others.push(t.negation);
    else {
      const list = byField.get(t.field);
      if (list === undefined) byField.set(t.field, [t.negation]);
      else list.push(t.negation);
    }
  }
  return { expressions, readsOutput: terms.some((t) => t?.readsOutput === true) };
}
