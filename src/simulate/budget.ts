/**
 * Budget projection (SPEC 5). A budget is charged per llm/tool execution that produced an output,
 * as the seed engine charges it: one step, and the node's projected tokens, wall time and cost.
 * Failed attempts and decisions are free. The check comes before every attempt: if the attempt's
 * output would break a limit, the run stops *before* the node (the seed runs it and stops after;
 * same node and cell, docs/seed-compatibility.md), as a host enforcing the budget would.
 * The simulation's own bound, `maxSteps`, counts moves instead: every attempt and every decision
 * evaluation, so a run that only routes or only fails still ends.
 */
import type { FlowContext, Spent } from "./context.js";
import type { Plan } from "./plan.js";
import type { Usage } from "./types.js";

/** A budget stop: the limit's name and the sentence that explains it. */
export interface BudgetStop {
  readonly limit: string;
  readonly reason: string;
}

/** What has been spent plus one more move (an attempt or a decision evaluation). */
export function moveOn(spent: Spent): Spent {
  return { ...spent, moves: spent.moves + 1 };
}

/** What has been spent plus node `k`'s output: one step and its projected cost. */
export function chargeOutput(plan: Plan, spent: Spent, k: number): Spent {
  const planned = plan.costs[k];
  if (planned === undefined) return { ...spent, steps: spent.steps + 1 };
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
  if (plan.graph.nodes[k]?.type === "decision") return undefined;
  const next = chargeOutput(plan, ctx.spent, k);
  if (limits.budgetSteps !== undefined && next.steps > limits.budgetSteps) {
    return {
      limit: "budget.maxSteps",
      reason: `budget.maxSteps ${limits.budgetSteps} exceeded: step ${next.steps} would run "${plan.ids[k] ?? ""}"`,
    };
  }
  if (limits.maxTokens !== undefined && next.tokens > limits.maxTokens) {
    return {
      limit: "budget.maxTokens",
      reason: `budget.maxTokens ${limits.maxTokens} exceeded: ${next.tokens} tokens projected`,
    };
  }
  if (limits.maxWallTimeMs !== undefined && next.wallTimeMs > limits.maxWallTimeMs) {
    return {
      limit: "budget.maxWallTimeMs",
      reason: `budget.maxWallTimeMs ${limits.maxWallTimeMs} exceeded: ${next.wallTimeMs} ms projected`,
    };
  }
  for (const [code, max] of limits.maxCost) {
    const spent = next.cost.find((e) => e[0] === code)?.[1] ?? 0;
    if (spent > max) {
      return {
        limit: `budget.maxCost${code}`,
        reason: `budget.maxCost${code} ${max} exceeded: ${spent} ${code} projected`,
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
