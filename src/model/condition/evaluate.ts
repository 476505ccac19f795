/**
 * Evaluation of a compiled S-FEEL comparison against the merged outputs. The evaluator prefers no
 * answer to a wrong one: an absent field, null, mixed types, ordering on strings, division by zero
 * and non-finite numbers all stop with a reason instead of FEEL's null (which an engine would then
 * treat as false).
 */
import {
  add,
  compare,
  divide,
  fromBigInt,
  fromNumber,
  multiply,
  negate,
  subtract,
} from "./decimal.js";
import type { Rational } from "./decimal.js";
import type { CompiledComparison, ConditionEvaluation, Expr } from "./types.js";

type Value =
  | { readonly kind: "number"; readonly value: Rational }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "boolean"; readonly value: boolean };

type Step =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly reason: string; readonly offset: number };

const fail = (reason: string, offset: number): Step => ({ ok: false, reason, offset });

/** Names a JSON-ish value's kind for a message. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "number":
      return Number.isNaN(value) ? "NaN" : Number.isFinite(value) ? "a number" : String(value);
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a big integer";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Reads `output.a.b` from `data` through own properties only, so `output.constructor` or
 * `output.__proto__` can never reach a prototype. Lists are not indexed: FEEL maps a path over a
 * list, which is not what a JSON reader expects, so a list on the way is undecidable.
 */
function readField(expr: Extract<Expr, { kind: "field" }>, data: unknown): Step {
  let current: unknown = data;
  let walked = "output";
  for (const segment of expr.path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) {
      return fail(
        `${walked} is ${describe(current)}, so ${expr.label} cannot be read`,
        expr.offset,
      );
    }
    if (!Object.hasOwn(current, segment))
      return fail(`${walked}.${segment} is absent`, expr.offset);
    current = (current as Readonly<Record<string, unknown>>)[segment];
    walked = `${walked}.${segment}`;
  }
  switch (typeof current) {
    case "number": {
      const value = fromNumber(current);
      if (value === undefined) {
        return fail(`${expr.label} is ${describe(current)}, which has no exact value`, expr.offset);
      }
      return { ok: true, value: { kind: "number", value } };
    }
    case "bigint": {
      const value = fromBigInt(current);
      if (value === undefined)
        return fail(`${expr.label} is too large to compare exactly`, expr.offset);
      return { ok: true, value: { kind: "number", value } };
    }
    case "string":
      return { ok: true, value: { kind: "string", value: current } };
    case "boolean":
      return { ok: true, value: { kind: "boolean", value: current } };
    default:
      return fail(
        `${expr.label} is ${describe(current)}; a condition compares numbers, strings and booleans`,
        expr.offset,
      );
  }
}

function evaluateExpr(expr: Expr, data: unknown): Step {
  switch (expr.kind) {
    case "number":
    case "string":
    case "boolean":
      return { ok: true, value: expr };
    case "field":
      return readField(expr, data);
    case "negate": {
      const inner = evaluateExpr(expr.operand, data);
      if (!inner.ok) return inner;
      if (inner.value.kind !== "number") {
        return fail(
          `arithmetic needs numbers, and ${expr.operand.label} is a ${inner.value.kind}`,
          expr.offset,
        );
      }
      return { ok: true, value: { kind: "number", value: negate(inner.value.value) } };
    }
    case "arith": {
      const left = evaluateExpr(expr.left, data);
      if (!left.ok) return left;
      const right = evaluateExpr(expr.right, data);
      if (!right.ok) return right;
      const a = left.value;
      const b = right.value;
      if (a.kind !== "number") {
        return fail(`arithmetic needs numbers, and ${expr.left.label} is a ${a.kind}`, expr.offset);
      }
      if (b.kind !== "number") {
        return fail(
          `arithmetic needs numbers, and ${expr.right.label} is a ${b.kind}`,
          expr.offset,
        );
      }
      if (expr.op === "/" && b.value.num === 0n)
        return fail(`${expr.label} divides by zero`, expr.offset);
      const operation = { "+": add, "-": subtract, "*": multiply, "/": divide }[expr.op];
      const value = operation(a.value, b.value);
      if (value === undefined) {
        return fail(
          `the numbers in ${expr.label} grow too large for exact arithmetic`,
          expr.offset,
        );
      }
      return { ok: true, value: { kind: "number", value } };
    }
  }
}

/** Evaluates a compiled comparison; never throws, whatever `data` is (a throwing Proxy included). */
export function evaluateComparison(
  comparison: CompiledComparison,
  data: unknown,
): ConditionEvaluation {
  try {
    const left = evaluateExpr(comparison.left, data);
    if (!left.ok) return { undecidable: left.reason, offset: left.offset };
    const right = evaluateExpr(comparison.right, data);
    if (!right.ok) return { undecidable: right.reason, offset: right.offset };
    const a = left.value;
    const b = right.value;
    if (a.kind !== b.kind) {
      return {
        undecidable: `${comparison.left.label} is a ${a.kind} and ${comparison.right.label} is a ${b.kind}; FEEL does not convert types`,
        offset: comparison.offset,
      };
    }
    const { op } = comparison;
    if (a.kind === "number" && b.kind === "number") {
      const order = compare(a.value, b.value);
      const results = {
        "=": order === 0,
        "!=": order !== 0,
        "<": order < 0,
        "<=": order <= 0,
        ">": order > 0,
        ">=": order >= 0,
      };
      return { value: results[op] };
    }
    if (op === "=") return { value: a.value === b.value };
    if (op === "!=") return { value: a.value !== b.value };
    return {
      undecidable: `${comparison.label} orders two ${a.kind}s; strings and booleans compare by equality only`,
      offset: comparison.offset,
    };
  } catch {
    return { undecidable: "reading the output failed", offset: comparison.offset };
  }
}
