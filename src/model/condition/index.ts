/**
 * Decision conditions (SPEC 2.6): FEEL expressions over `output`, with S-FEEL as the subset the
 * simulator can decide exactly. See docs/conditions.md for the rules authors follow.
 */
export {
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  analyzeCondition,
  compileCondition,
  conditionComparison,
  evaluateCondition,
} from "./analyze.js";
export { compare as compareRationals, fromNumber } from "./decimal.js";
export type { Rational } from "./decimal.js";
export type { CompiledCondition } from "./analyze.js";
export { applyRewrites, rewriteJsDialect, rewriteJsOperators } from "./rewrite.js";
export type { OperatorRewrite, RewriteResult } from "./rewrite.js";
export type {
  CompareOperator,
  CompiledComparison,
  Expr,
  ConditionAnalysis,
  ConditionEvaluation,
  ConditionLanguage,
  ConditionOptions,
  ConditionProblem,
  ConditionProblemKind,
} from "./types.js";
export { decodeFeelString } from "./literals.js";
export type { StringDecodeResult } from "./literals.js";
export { feelExpressionNode } from "./expression-node.js";
export { childrenOf } from "./tree.js";
export type { FeelNode } from "./tree.js";
