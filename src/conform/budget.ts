/**
 * The run's budget: what it spent so far against each limit, and the steps that should have
 * recorded what they spent of a limited quantity and did not — a budget is never passed on
 * spending the run did not record.
 */
import type { AgentNode, Budget } from "../model/index.js";
import { COST_KEY } from "../simulate/internal.js";
import type { CheckFinding } from "./checks.js";
import type { StepEvent } from "./types.js";

/** Spending so far, for the budget checks. */
export interface Spent {
  steps: number;
  tokens: number;
  readonly cost: Map<string, number>;
  firstTime: number | undefined;
  lastTime: number | undefined;
}

/** The currencies the budget limits cost in (`maxCostUSD` → `USD`). */
function costLimits(budget: Budget): string[] {
  return Object.keys(budget).flatMap((k) => {
    const code = COST_KEY.exec(k)?.[1];
    return code !== undefined && budget[k as `maxCost${string}`] !== undefined ? [code] : [];
  });
}

/** The budget limits the run is over now and was not over before (each reported once). */
export function budgetFindings(
  budget: Budget | undefined,
  spent: Spent,
  reported: Set<string>,
): CheckFinding[] {
  if (budget === undefined) return [];
  const found: CheckFinding[] = [];
  const over = (limit: string, used: number, max: number | undefined): void => {
    if (max === undefined || used <= max || reported.has(limit)) return;
    reported.add(limit);
    found.push({ class: "BUDGET_EXCEEDED", data: { limit: `budget.${limit}`, used, max } });
  };
  over("maxSteps", spent.steps, budget.maxSteps);
  over("maxTokens", spent.tokens, budget.maxTokens);
  if (spent.firstTime !== undefined && spent.lastTime !== undefined) {
    over("maxWallTimeMs", spent.lastTime - spent.firstTime, budget.maxWallTimeMs);
  }
  // Cost in a currency the budget sets no limit for, while it limits another: no exchange rate
  // is known, so the spending cannot be compared: unverified, never within budget.
  const limited = costLimits(budget);
  for (const [code, amount] of spent.cost) {
    const key = `maxCost${code}` as const;
    if (budget[key] === undefined && limited.length > 0) {
      if (reported.has(key)) continue;
      reported.add(key);
      const data = { currency: code, used: amount, limited: limited.join(", ") };
      found.push({ reason: "COST_UNLIMITED", data });
      continue;
    }
    over(key, amount, budget[key]);
  }
  return found;
}

/**
 * A quantity the budget limits that this step counts toward and did not record: the run's
 * spending is then known only in part, so the run is unverified (`USAGE_UNRECORDED`), as a
 * model call that records no model is — never within budget on the steps that did record it.
 * A model call that succeeded (an llm node) counts toward tokens and cost; a tool counts toward
 * what it records. As for the model, a failed call may have recorded nothing and is not
 * reported. Each quantity is reported once per run.
 */
export function usageFindings(
  budget: Budget | undefined,
  node: AgentNode,
  step: StepEvent,
  reported: Set<string>,
): CheckFinding[] {
  if (budget === undefined || node.type !== "llm" || step.status !== "ok") return [];
  const found: CheckFinding[] = [];
  const unrecorded = (quantity: string, limit: string, partial: boolean): void => {
    const key = `unrecorded ${quantity}`;
    if (reported.has(key)) return;
    reported.add(key);
    const data = { node: node.id, quantity, limit, ...(partial ? { partial } : {}) };
    found.push({ reason: "USAGE_UNRECORDED", data });
  };
  if (budget.maxTokens !== undefined && (step.tokens === undefined || step.tokensPartial === true))
    unrecorded("tokens", "budget.maxTokens", step.tokens !== undefined);
  const currencies = costLimits(budget);
  if (currencies.length > 0 && Object.keys(step.cost ?? {}).length === 0) {
    const limits = currencies.map((code) => `budget.maxCost${code}`).join(", ");
    unrecorded("cost", limits, false);
  }
  return found;
}
