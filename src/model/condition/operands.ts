/**
 * The operand half of the S-FEEL allow-list: literals, `output.<field>…` names, `+ - * /`, unary
 * minus and parentheses, with a light static type check so that a condition that can never be
 * decided (`output.a < "x"`, `1 = "1"`) is reported when it is written, not when it is simulated.
 */
import { parseDecimal } from "./decimal.js";
import type { DecimalParseError } from "./decimal.js";
import { decodeFeelString } from "./literals.js";
import { unwindPath } from "./names.js";
import { childrenOf, nameOf, quote } from "./tree.js";
import type { FeelNode } from "./tree.js";
import type { ArithOperator, ConditionProblem, Expr } from "./types.js";

/** What the walk needs besides the tree. */
export interface CompileContext {
  /** The parsed (rewritten) text that tree offsets refer to. */
  readonly text: string;
  /** The text the author wrote. */
  readonly original: string;
  readonly toOriginal: (offset: number) => number;
  /** Not-simulable problems are appended here. */
  readonly problems: ConditionProblem[];
}

/** What an operand is known to be before any data is seen; fields are `unknown`. */
export type StaticType = "number" | "string" | "boolean" | "unknown";

/** A compiled operand and its static type. */
export interface Operand {
  readonly expr: Expr;
  readonly type: StaticType;
}

/** How messages name the constructs people meet most; anything else is named by its node. */
export const PHRASES: Readonly<Record<string, string>> = {
  Conjunction: "'and'",
  Disjunction: "'or'",
  FunctionInvocation: "a function call",
  IfExpression: "'if … then … else'",
  ForExpression: "'for … return'",
  QuantifiedExpression: "'some' / 'every'",
  FilterExpression: "a filter (list[…])",
  List: "a list",
  Context: "a context ({…})",
  Interval: "a range",
  DateTimeLiteral: "a date or time literal",
  InstanceOfExpression: "'instance of'",
  FunctionDefinition: "a function definition",
  in: "'in'",
  between: "'between'",
  "?": "'?'",
  Exponentiation: "'**'",
  UnaryPlus: "a unary '+'",
  SimplePositiveUnaryTest: "a unary test (a second comparison operator, as in '= = 1')",
};

const NUMBER_REASONS: Readonly<Record<DecimalParseError, string>> = {
  format:
    "write a negative number with nothing between '-' and its digits ('- 1' is read differently by FEEL engines)",
  exponent: "exponent notation is not FEEL (feelin reads 1e3 as 1); write the number out",
  "too-many-digits": "a number literal may have at most 100 digits",
};

const ARITH_OPERATORS: ReadonlySet<string> = new Set(["+", "-", "*", "/"]);

const isArithOperator = (op: string): op is ArithOperator => ARITH_OPERATORS.has(op);

/**
 * Walks operands. Every method returns null after recording why the node is not simulable; the
 * walk goes on with sibling operands so that one report lists every offending construct.
 */
export class OperandWalker {
  constructor(readonly ctx: CompileContext) {}

  /** The parsed source of a node. */
  source(node: FeelNode): string {
    return this.ctx.text.slice(node.from, node.to);
  }

  /** The author's source of a node, shortened for messages. */
  label(node: FeelNode): string {
    const { original, toOriginal } = this.ctx;
    return quote(original.slice(toOriginal(node.from), toOriginal(node.to)));
  }

  /** Records a not-simulable problem at `node` (or at `at`, an offset in the parsed text). */
  refuse(node: FeelNode, construct: string, message?: string, at = node.from): null {
    const phrase = PHRASES[construct] ?? construct;
    this.ctx.problems.push({
      kind: "not-simulable",
      message:
        message ?? `${phrase} is valid FEEL but outside S-FEEL, so the simulator cannot decide it`,
      offset: this.ctx.toOriginal(at),
      construct,
    });
    return null;
  }

  /** Strips parentheses, which never change a value. */
  unwrap(node: FeelNode): FeelNode {
    let current = node;
    while (current.name === "ParenthesizedExpression") {
      const inner = childrenOf(current).filter((c) => c.name !== "(" && c.name !== ")");
      const only = inner[0];
      if (inner.length !== 1 || only === undefined) return current;
      current = only;
    }
    return current;
  }

  /** Compiles one operand of a comparison or of arithmetic. */
  operand(raw: FeelNode): Operand | null {
    const node = this.unwrap(raw);
    const base = { offset: this.ctx.toOriginal(node.from), label: this.label(node) };
    switch (node.name) {
      case "NumericLiteral": {
        const parsed = parseDecimal(this.source(node));
        if (!parsed.ok) return this.refuse(node, "NumericLiteral", NUMBER_REASONS[parsed.reason]);
        return { expr: { kind: "number", value: parsed.value, ...base }, type: "number" };
      }
      case "StringLiteral": {
        const decoded = decodeFeelString(this.source(node));
        if (!decoded.ok) {
          return this.refuse(node, "StringLiteral", decoded.message, node.from + decoded.offset);
        }
        return { expr: { kind: "string", value: decoded.value, ...base }, type: "string" };
      }
      case "BooleanLiteral":
        return {
          expr: { kind: "boolean", value: this.source(node) === "true", ...base },
          type: "boolean",
        };
      case "null":
        return this.refuse(
          node,
          "NullLiteral",
          "null is outside the simulable subset: FEEL reads an absent field as null, and the simulator never takes an absent field for a value",
        );
      case "PathExpression":
      case "VariableName":
        return this.name(node);
      case "ArithmeticExpression":
        return this.arithmetic(node);
      case "Comparison":
        return this.refuse(
          node,
          "Comparison",
          "a comparison used as a value is outside S-FEEL; a condition is exactly one comparison",
        );
      default:
        return this.refuse(node, node.name);
    }
  }

  private name(node: FeelNode): Operand | null {
    const chain = unwindPath(node, this.ctx.text);
    if (chain === undefined) return this.refuse(node, node.name);
    if (chain.base.name !== "VariableName") return this.refuse(chain.base, chain.base.name);
    // Other roots are reported once, as unknown names, by the name pass.
    if (nameOf(chain.base, this.ctx.text) !== "output") return null;
    if (chain.path.length === 0) {
      return this.refuse(
        node,
        "VariableName",
        "'output' alone is the whole output object; compare one of its fields, e.g. output.done = true",
      );
    }
    const label = ["output", ...chain.path].join(".");
    const offset = this.ctx.toOriginal(node.from);
    return { expr: { kind: "field", path: chain.path, offset, label }, type: "unknown" };
  }

  private numeric(node: FeelNode, side: Operand): boolean {
    if (side.type !== "string" && side.type !== "boolean") return true;
    const message = `arithmetic needs numbers, and ${side.expr.label} is a ${side.type}`;
    this.refuse(node, "ArithmeticExpression", message);
    return false;
  }

  private arithmetic(node: FeelNode): Operand | null {
    const kids = childrenOf(node);
    const [first, second, third] = kids;
    const base = { offset: this.ctx.toOriginal(node.from), label: this.label(node) };
    if (kids.length === 2 && first?.name === "ArithOp" && second !== undefined) {
      if (this.source(first) !== "-") return this.refuse(node, "UnaryPlus");
      const inner = this.operand(second);
      if (inner === null || !this.numeric(node, inner)) return null;
      return { expr: { kind: "negate", operand: inner.expr, ...base }, type: "number" };
    }
    if (kids.length !== 3 || second?.name !== "ArithOp" || !first || !third) {
      return this.refuse(node, node.name);
    }
    const op = this.source(second);
    if (op === "**") return this.refuse(second, "Exponentiation");
    if (!isArithOperator(op)) return this.refuse(second, "ArithOp");
    const left = this.operand(first);
    const right = this.operand(third);
    if (left === null || right === null) return null;
    if (!this.numeric(node, left) || !this.numeric(node, right)) return null;
    return {
      expr: { kind: "arith", op, left: left.expr, right: right.expr, ...base },
      type: "number",
    };
  }
}
