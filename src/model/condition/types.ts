/**
 * The shapes conditions are reported in (public) and compiled to (internal to this folder).
 */
import type { Rational } from "./decimal.js";
import type { ConditionLanguage } from "../types.js";
import type { OperatorRewrite } from "./rewrite.js";

export type { ConditionLanguage };

/** Options shared by {@link ConditionAnalysis}-producing and evaluating functions. */
export interface ConditionOptions {
  /** `"text"` marks a natural-language condition, which is never parsed or simulated. */
  readonly language?: ConditionLanguage | undefined;
}

/**
 * What is wrong with a condition. `syntax`: it does not parse (CONDITION_SYNTAX).
 * `not-simulable`: valid FEEL outside S-FEEL (CONDITION_NOT_SIMULABLE). `unknown-name`: it reads a
 * name that does not exist when the condition runs (anything not rooted at `output`).
 */
export type ConditionProblemKind = "syntax" | "not-simulable" | "unknown-name";

/** One problem; `offset` is 0-based, into the text the author wrote (before any rewrite). */
export interface ConditionProblem {
  readonly kind: ConditionProblemKind;
  readonly message: string;
  readonly offset: number;
  /**
   * The FEEL construct at fault, mostly a lezer-feel node name (`Conjunction`,
   * `FunctionInvocation`, `IfExpression`, `in`, `between`…) so that callers can group problems
   * without reading messages.
   */
  readonly construct?: string;
}

/** The static view of a condition that validation rules need. */
export interface ConditionAnalysis {
  /** The text parses as FEEL (after the JS-operator rewrite); always true for `"text"`. */
  readonly ok: boolean;
  /** It is in S-FEEL and reads only `output`, so the simulator can decide it. */
  readonly simulable: boolean;
  /** It reads at least one field of `output` (SPEC 3.1: a *structured* condition). */
  readonly structured: boolean;
  /**
   * The qualified names read (`output.is_complete`, `output.a.b`, and also `confidence` or
   * `input.x`), in order of first occurrence, without duplicates.
   */
  readonly fields: readonly string[];
  /** The `===` / `!==` / `==` operators rewritten before parsing. */
  readonly rewrites: readonly OperatorRewrite[];
  readonly problems: readonly ConditionProblem[];
}

/**
 * The outcome of evaluating a condition. `undecidable` says, for a person, why no answer can be
 * given honestly (an absent field, mixed types, a construct outside S-FEEL…); `offset` points into
 * the original text when one place is at fault.
 */
export type ConditionEvaluation =
  { readonly value: boolean } | { readonly undecidable: string; readonly offset?: number };

/** The comparison operators of S-FEEL. */
export type CompareOperator = "=" | "!=" | "<" | "<=" | ">" | ">=";

/** The arithmetic operators of the simulable subset (`**` is left out: it grows without bound). */
export type ArithOperator = "+" | "-" | "*" | "/";

interface ExprBase {
  /** Offset into the original text. */
  readonly offset: number;
  /** The source text, shortened, for messages. */
  readonly label: string;
}

/** A compiled S-FEEL operand; only ever built from a tree that passed the allow-list. */
export type Expr =
  | (ExprBase & { readonly kind: "number"; readonly value: Rational })
  | (ExprBase & { readonly kind: "string"; readonly value: string })
  | (ExprBase & { readonly kind: "boolean"; readonly value: boolean })
  | (ExprBase & { readonly kind: "field"; readonly path: readonly string[] })
  | (ExprBase & { readonly kind: "negate"; readonly operand: Expr })
  | (ExprBase & {
      readonly kind: "arith";
      readonly op: ArithOperator;
      readonly left: Expr;
      readonly right: Expr;
    });

/** A compiled simulable condition: one comparison of two operands. */
export interface CompiledComparison {
  readonly op: CompareOperator;
  readonly left: Expr;
  readonly right: Expr;
  readonly offset: number;
  readonly label: string;
}
