/**
 * What other modules (the conformance checker above all, which replays recorded runs on the
 * same compiled workflow the simulator runs) share with the simulator but users do not: the
 * compiled plan, its route conditions, and the merge of a node's output. Not a package entry
 * point and not in the API reference.
 */
export type { Plan, PlannedRoute } from "./plan.js";
export { buildPlan, routeCondition, TO_END, TO_MISSING } from "./plan.js";
export { assignOwn } from "./options.js";
export { jsonCopy, jsonText } from "./json.js";
export { COST_KEY } from "./context.js";
