/**
 * What the exporters record a model call spent: a perfect recorder records the tokens of every
 * model call, and its cost in each currency the workflow's budget limits (a run that leaves out
 * either, against a budget that limits it, is unverified).
 */
import type { AgentWorkflow } from "../../../src/model/index.js";

/** The tokens a simulated model call used, as input and output. */
export const CALL_TOKENS = { input: 80, output: 20 } as const;

/** What a simulated model call cost, in each currency `wf`'s budget limits. */
export function callCost(wf: AgentWorkflow): Record<string, number> {
  const cost: Record<string, number> = {};
  for (const [key, max] of Object.entries(wf.budget ?? {})) {
    const code = /^maxCost([A-Z]{3})$/.exec(key)?.[1];
    if (code !== undefined && max !== undefined) cost[code] = 0.01;
  }
  return cost;
}

/** The same cost as agentflow's keys (`agentflow.cost.USD`). */
export function costKeys(wf: AgentWorkflow): Record<string, number> {
  return Object.fromEntries(
    Object.entries(callCost(wf)).map(([code, amount]) => [`agentflow.cost.${code}`, amount]),
  );
}
