/**
 * The S-FEEL allow-list (SPEC 2.6, DMN 1.5 clause 9 as narrowed by the spec): a walk over an
 * error-free lezer-feel tree that either builds a {@link CompiledComparison} or records why the
 * condition is valid FEEL but not simulable.
 *
 * Allowed: one top-level comparison (`= != < <= > >=`, parentheses around it allowed) of operands
 * built from number, string and boolean literals, `output.<field>…` names, `+ - * /`, unary minus
 * and parentheses. Everything else that parses is reported with the construct named, once per
 * outermost offending node.
 *
 * The walk recurses; the caller only calls it on trees whose depth it has bounded.
 */
import { OperandWalker, PHRASES } from "./operands.js";
import type { CompileContext } from "./operands.js";
import { childrenOf } from "./tree.js";
import type { FeelNode } from "./tree.js";
import type { CompareOperator, CompiledComparison } from "./types.js";

export type { CompileContext } from "./operands.js";

const COMPARE_OPERATORS: ReadonlySet<string> = new Set(["=", "!=", "<", "<=", ">", ">="]);

const isCompareOperator = (op: string): op is CompareOperator => COMPARE_OPERATORS.has(op);

function comparison(walker: OperandWalker, node: FeelNode): CompiledComparison | null {
  const kids = childrenOf(node);
  const [first, op, third] = kids;
  if (kids.length !== 3 || op?.name !== "CompareOp" || !first || !third) {
    const keyword = kids.find((k) => k.name === "in" || k.name === "between");
    return walker.refuse(node, keyword?.name ?? "Comparison");
  }
  const operator = walker.source(op);
  if (!isCompareOperator(operator)) return walker.refuse(op, "CompareOp");
  const left = walker.operand(first);
  const right = walker.operand(third);
  if (left === null || right === null) return null;
  const typed = [left.type, right.type].filter((t) => t !== "unknown");
  if (operator !== "=" && operator !== "!=" && typed.some((t) => t !== "number")) {
    return walker.refuse(
      node,
      "Comparison",
      `strings and booleans compare by equality only ('=' or '!='), not with '${operator}'`,
    );
  }
  const [a, b] = typed;
  if (a !== undefined && b !== undefined && a !== b) {
    return walker.refuse(
      node,
      "Comparison",
      `compares a ${a} with a ${b}; FEEL does not convert types, so the result is never true or false`,
    );
  }
  return {
    op: operator,
    left: left.expr,
    right: right.expr,
    offset: walker.ctx.toOriginal(node.from),
    label: walker.label(node),
  };
}

/** Compiles the tree's single comparison, or returns undefined with problems recorded. */
export function compileTree(top: FeelNode, ctx: CompileContext): CompiledComparison | undefined {
  const walker = new OperandWalker(ctx);
  const kids = childrenOf(top);
  const only = kids[0];
  if (kids.length !== 1 || only === undefined) {
    walker.refuse(top, top.name);
    return undefined;
  }
  const body = walker.unwrap(only);
  if (body.name === "Comparison") return comparison(walker, body) ?? undefined;
  if (Object.hasOwn(PHRASES, body.name)) {
    walker.refuse(body, body.name);
    return undefined;
  }
  const name = body.name === "PathExpression" || body.name === "VariableName";
  const suggestion = name ? ` (write ${walker.label(body)} = true)` : "";
  walker.refuse(
    body,
    body.name,
    `the condition is not a comparison${suggestion}; an S-FEEL condition compares two values`,
  );
  return undefined;
}
