/**
 * What the static check of a `when` (feel-check.ts) gives: its problems, and what the expression
 * reads, which the evaluator (feel.ts, feel-once.ts) needs to run it and weigh unknown facts.
 */
import type { WhenCost } from "./feel-cost.js";

/** A problem in a `when`, at offsets into its text. */
export interface WhenProblem {
  readonly from: number;
  readonly message: string;
}

/** What a `when` reads, as far as can be decided before it runs (for `feel.ts`). */
export interface WhenReads {
  /** Every name it spells as a variable, a path step, a filter field or a context key. */
  readonly mentioned: ReadonlySet<string>;
  /** It calls a function that can see a value's fields without naming them (`get value`). */
  readonly introspects: boolean;
  /** Offsets of path steps into a record of any keys (`budget.maxCost.EUR`): no key is "not stated". */
  readonly openKeys: ReadonlySet<number>;
  /** The subject's facts it reads by name: all an evaluation needs in its context. */
  readonly roots: ReadonlySet<string>;
  /** It calls `today()` or `now()`: its result depends on when it runs. */
  readonly volatile: boolean;
  /** A bound on the steps one evaluation takes, by the size of the facts (feel-cost.ts). */
  readonly cost: WhenCost;
}

/** The check's outcome: problems (none when the expression is sound) and what it reads. */
export interface WhenCheck extends WhenReads {
  readonly problems: readonly WhenProblem[];
}

/** The check of a `when` refused before its names were read: one problem, nothing read. */
export function unchecked(problem: WhenProblem): WhenCheck {
  return {
    problems: [problem],
    mentioned: new Set(),
    introspects: false,
    openKeys: new Set(),
    roots: new Set(),
    volatile: false,
    cost: { steps: [] },
  };
}
