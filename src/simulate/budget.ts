/**
 * Budget projection (SPEC 5). A budget is charged per llm/tool execution that produced an output,
 * as the seed engine charges it: one step, and the node's projected tokens, wall time and cost.
 * Failed attempts and decisions are free. The check comes before every attempt: if the attempt's
 * output would break a limit, the run stops *before* the node (the seed runs it and stops after;
 * same node and cell, docs/seed-compatibility.md), as a host enforcing the budget would.
 * The simulation's own bound, `maxSteps`, counts moves instead: every attempt and every decision
 * evaluation, so a run that only routes or only fails still ends.
 */
import { NODE_KIND } from "../model/index.js";
import type { FlowContext, Mutable, Spent } from "./context.js";
import type { Plan } from "./plan.js";
import type { Usage } from "./types.js";

/** A budget stop: the limit's name and the sentence that explains it. */
export interface BudgetStop {
  readonly limit: string;
  readonly reason: string;
}

/** One more move spent (an attempt or a decision evaluation), in place. */
export function spendMove(ctx: FlowContext): Spent {
  const spent: Mutable<Spent> = ctx.spent;
  spent.moves += 1;
  return spent;
}

/**
 * Node `k`'s output charged, in place: one step and its projected cost (the cost per currency
 * in a new list, which {@link chargeOutput} builds).
 */
export function spendOutput(plan: Plan, ctx: FlowContext, k: number): Spent {
  const planned = plan.costs[k];
  if (planned !== undefined && planned.cost.length > 0) return chargeOutput(plan, ctx.spent, k);
  const spent: Mutable<Spent> = ctx.spent;
  spent.steps += 1;
  if (planned !== undefined) {
    spent.tokens += planned.tokens;
    spent.wallTimeMs += planned.wallTimeMs;
  }
  return spent;
}

/** What has been spent plus node `k`'s output: one step and its projected cost. */
export function chargeOutput(plan: Plan, spent: Spent, k: number): Spent {
  const planned = plan.costs[k];
  if (planned === undefined) {
    const { moves, tokens, wallTimeMs, cost } = spent;
    return { moves, steps: spent.steps + 1, tokens, wallTimeMs, cost };
  }
  let cost = spent.cost;
  if (planned.cost.length > 0) {
    const next = cost.map(([code, amount]) => [code, amount] as [string, number]);
    for (const [code, amount] of planned.cost) {
      const entry = next.find((e) => e[0] === code);
      if (entry === undefined) next.push([code, amount]);
      else entry[1] += amount;
    }
    cost = next;
  }
  return {
    moves: spent.moves,
    steps: spent.steps + 1,
    tokens: spent.tokens + planned.tokens,
    wallTimeMs: spent.wallTimeMs + planned.wallTimeMs,
    cost,
  };
}

/**
 * Whether one more move at node `k` stays within every limit; the first limit broken if not. A
 * decision is checked against `maxSteps` only; an llm/tool attempt as if it produced its output.
 */
export function budgetStop(plan: Plan, ctx: FlowContext, k: number): BudgetStop | undefined {
  const limits = ctx.limits;
  if (ctx.spent.moves + 1 > limits.maxSteps) {
    return {
      limit: "maxSteps",
      reason: `maxSteps ${limits.maxSteps} reached: the simulation's step bound stops the run`,
    };
  }
  if (plan.graph.kind[k] === NODE_KIND.decision) return undefined;
  const spent = ctx.spent;
  const planned = plan.costs[k];
  const steps = spent.steps + 1;
  if (limits.budgetSteps !== undefined && steps > limits.budgetSteps) {
    return {
      limit: "budget.maxSteps",
      reason: `budget.maxSteps ${limits.budgetSteps} exceeded: step ${steps} would run "${plan.ids[k] ?? ""}"`,
    };
  }
  const tokens = spent.tokens + (planned?.tokens ?? 0);
  if (limits.maxTokens !== undefined && tokens > limits.maxTokens) {
    return {
      limit: "budget.maxTokens",
      reason: `budget.maxTokens ${limits.maxTokens} exceeded: ${tokens} tokens projected`,
    };
  }
  const wallTimeMs = spent.wallTimeMs + (planned?.wallTimeMs ?? 0);
  if (limits.maxWallTimeMs !== undefined && wallTimeMs > limits.maxWallTimeMs) {
    return {
      limit: "budget.maxWallTimeMs",
      reason: `budget.maxWallTimeMs ${limits.maxWallTimeMs} exceeded: ${wallTimeMs} ms projected`,
    };
  }
  if (limits.maxCost.length === 0) return undefined;
  const next = chargeOutput(plan, spent, k);
  for (const [code, max] of limits.maxCost) {
    const amount = next.cost.find((e) => e[0] === code)?.[1] ?? 0;
    if (amount > max) {
      return {
        limit: `budget.maxCost${code}`,
        reason: `budget.maxCost${code} ${max} exceeded: ${amount} ${code} projected`,
      };
    }
  }
  return undefined;
}

/** The usage summary written on `end` and `decision-blocked` records. */
export function usageOf(plan: Plan, ctx: FlowContext): Usage {
  const { steps, moves, tokens, wallTimeMs, cost } = ctx.spent;
  if (!plan.hasCostModel) return { steps, moves, tokens, logicalTime: ctx.clock };
  const sorted = [...cost].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const total = Object.fromEntries(sorted);
  return { steps, moves, tokens, logicalTime: ctx.clock, wallTimeMs, cost: total };
}
