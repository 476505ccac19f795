/**
 * How a decision picks its route (SPEC 5): `decide` when it names one for this visit, otherwise
 * the conditions in route order against the merged output. Then the retry accounting of a route
 * that loops back. Every way this can fail is a stop with a reason, never a default route.
 */
import { budgetStop } from "./budget.js";
import type { FlowContext } from "./context.js";
import { own } from "./options.js";
import { routeCondition, TO_MISSING, type Plan } from "./plan.js";
import { nodeAt, visitsAt } from "./table.js";
import type { BlockCell, RetryCount } from "./types.js";

/** The route chosen at a decision, or why none can be followed. */
export type Choice =
  | {
      readonly kind: "route";
      readonly route: number;
      readonly forced: boolean;
      readonly retry?: RetryCount;
    }
  | {
      readonly kind: "block";
      readonly cell: BlockCell;
      readonly reason: string;
      /** Absent for budget stops: the decision was not evaluated. */
      readonly forced?: boolean;
      readonly route?: string;
      readonly limit?: string;
    };

type Picked =
  | { readonly route: number; readonly forced: boolean }
  | { readonly cell: BlockCell; readonly reason: string; readonly forced: boolean };

function pick(plan: Plan, ctx: FlowContext, k: number): Picked {
  const routes = plan.routes[k] ?? [];
  const nodeId = plan.ids[k] ?? "";
  const visit = visitsAt(ctx.nodes, k) + 1;
  const forcedLabel = own(ctx.decide, nodeId)?.[visit - 1];
  if (forcedLabel !== undefined) {
    const route = routes.findIndex((r) => r.label === forcedLabel);
    if (route >= 0) return { route, forced: true };
    const known = routes.map((r) => r.label).join(", ");
    return {
      cell: "condition",
      reason: `decide names route "${forcedLabel}", which "${nodeId}" does not have (${known})`,
      forced: true,
    };
  }
  for (let r = 0; r < routes.length; r++) {
    const route = routes[r];
    const condition = route === undefined ? undefined : routeCondition(route);
    // The else branch (onFalse, otherwise) has no condition: it is taken when nothing before held.
    if (condition === undefined) return { route: r, forced: false };
    const result = condition.evaluate(ctx.merged);
    if ("undecidable" in result)
      return { cell: "condition", reason: result.undecidable, forced: false };
    if (result.value) return { route: r, forced: false };
  }
  return {
    cell: "condition",
    reason:
      routes.length === 0
        ? `"${nodeId}" has no routes`
        : "no condition held and there is no else route",
    forced: false,
  };
}

/** The choice of decision `k` in `ctx`: a route, or why the run stops there. */
export function choose(plan: Plan, ctx: FlowContext, k: number): Choice {
  const budget = budgetStop(plan, ctx, k);
  if (budget !== undefined) {
    return { kind: "block", cell: "budget", reason: budget.reason, limit: budget.limit };
  }
  const picked = pick(plan, ctx, k);
  if (!("route" in picked)) return { kind: "block", ...picked };
  const route = plan.routes[k]?.[picked.route];
  if (route === undefined) return { kind: "block", cell: "condition", reason: "no such route" };
  const forced = picked.forced;
  const label = route.label;
  if (route.target === TO_MISSING) {
    const reason = `route ${label} goes to "${route.next}", which is not a node`;
    return { kind: "block", cell: label, reason, forced, route: label };
  }
  if (!route.loopsBack) return { kind: "route", route: picked.route, forced };
  if (route.maxRetries === undefined) {
    const reason = "no maxRetries on a looping route";
    return { kind: "block", cell: label, reason, forced, route: label };
  }
  const count = nodeAt(ctx.nodes, k).retries + 1;
  if (count > route.maxRetries) {
    const reason = `retry exhausted after ${route.maxRetries} attempts`;
    return { kind: "block", cell: label, reason, forced, route: label };
  }
  return { kind: "route", route: picked.route, forced, retry: { count, max: route.maxRetries } };
}
