/**
 * Decision routes (SPEC 2.1): the binary and the multi-way decision forms become one ordered list,
 * so validation rules, autonomy and the simulator never branch on the form.
 */

import { pointer } from "./pointer.js";
import type { DecisionConfig, MultiwayDecisionConfig } from "./types.js";

/**
 * One way out of a decision, in evaluation order.
 *
 * `condition` is absent on the else branch (`onFalse`, `otherwise`): that branch is taken when no
 * earlier condition held, so it has no expression of its own to check or simulate.
 */
export interface DecisionRoute {
  /** `"onTrue"`, `"onFalse"`, `"cases/<i>"` or `"otherwise"`; stable, usable in messages. */
  readonly label: string;
  /** The guarding expression; absent on the else branch. */
  readonly condition?: string;
  /** A node id or `"end"`. */
  readonly next: string;
  readonly maxRetries?: number;
  /** JSON Pointer of the route relative to the node's `config` (`/onTrue`, `/cases/0`...). */
  readonly pointerSuffix: string;
}

/**
 * Whether the config uses the multi-way form. Decided by the presence of `cases` or `otherwise`,
 * so a multi-way config that lost one of the two is still read as multi-way (and its remaining
 * route is kept) rather than silently as an empty binary decision.
 *
 * @example
 * ```ts
 * import { isMultiway } from "agentflow/model";
 *
 * const binary = { condition: "output.ok = true", onTrue: { next: "end" }, onFalse: { next: "fix" } };
 * isMultiway(binary); // → false
 * isMultiway({ cases: [{ condition: "output.n > 3", next: "fix" }], otherwise: { next: "end" } }); // → true
 * ```
 */
export function isMultiway(config: DecisionConfig): config is MultiwayDecisionConfig {
  const raw: unknown = config;
  if (typeof raw !== "object" || raw === null) return false;
  return "cases" in raw || "otherwise" in raw;
}

/** The pointer suffixes of the fixed routes, built once. */
const ON_TRUE = pointer("onTrue");
const ON_FALSE = pointer("onFalse");
const OTHERWISE = pointer("otherwise");

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads one route defensively: a route that is missing or has no string `next` is dropped (the
 * schema check reports it), so callers never see a half-formed route.
 */
function readRoute(
  value: unknown,
  label: string,
  pointerSuffix: string,
  condition: unknown,
): DecisionRoute | undefined {
  if (!isRecord(value)) return undefined;
  const next = value.next;
  if (typeof next !== "string") return undefined;
  const maxRetries = value.maxRetries;
  // Four literals rather than spreads of optional parts: a multi-way decision may have 100,000
  // cases, and each spread built a temporary object. The key order is the same in all four.
  if (typeof condition === "string") {
    return typeof maxRetries === "number"
      ? { label, condition, next, maxRetries, pointerSuffix }
      : { label, condition, next, pointerSuffix };
  }
  return typeof maxRetries === "number"
    ? { label, next, maxRetries, pointerSuffix }
    : { label, next, pointerSuffix };
}

/**
 * The decision's routes in evaluation order: `onTrue`, `onFalse` for the binary form;
 * `cases/0`, `cases/1`..., `otherwise` for the multi-way form.
 *
 * Total: it never throws. Routes that are missing or malformed are left out, and a case keeps its
 * array index in its label even when an earlier case was dropped, so pointers stay exact.
 *
 * @example
 * ```ts
 * import { decisionRoutes } from "agentflow/model";
 *
 * const routes = decisionRoutes({
 *   cases: [{ condition: 'output.route = "refund"', next: "refund", maxRetries: 1 }],
 *   otherwise: { next: "end" },
 * });
 * routes.map((r) => `${r.label} → ${r.next}`); // → ["cases/0 → refund", "otherwise → end"]
 * routes[0];
 * // → {
 * //     label: "cases/0",
 * //     condition: 'output.route = "refund"',
 * //     next: "refund",
 * //     maxRetries: 1,
 * //     pointerSuffix: "/cases/0",
 * //   }
 * // the else branch has no condition of its own
 * routes[1]?.condition; // → undefined
 * ```
 */
export function decisionRoutes(config: DecisionConfig): readonly DecisionRoute[] {
  const raw: unknown = config;
  if (!isRecord(raw)) return [];
  // Plain loops and constant pointers: a workflow may hold 10,000 decisions, or one with 100,000
  // cases, and a closure, a callback and a pointer built per route were most of the cost.
  if (!isMultiway(config)) {
    const onTrue = readRoute(raw.onTrue, "onTrue", ON_TRUE, raw.condition);
    const onFalse = readRoute(raw.onFalse, "onFalse", ON_FALSE, undefined);
    if (onTrue === undefined) return onFalse === undefined ? [] : [onFalse];
    return onFalse === undefined ? [onTrue] : [onTrue, onFalse];
  }
  const routes: DecisionRoute[] = [];
  const cases = raw.cases;
  if (Array.isArray(cases)) {
    for (let i = 0; i < cases.length; i++) {
      if (!(i in cases)) continue; // a hole is no route (forEach skipped holes too)
      const c: unknown = cases[i];
      const label = `cases/${String(i)}`;
      const route = readRoute(c, label, `/${label}`, isRecord(c) ? c.condition : undefined);
      if (route !== undefined) routes.push(route);
    }
  }
  const otherwise = readRoute(raw.otherwise, "otherwise", OTHERWISE, undefined);
  if (otherwise !== undefined) routes.push(otherwise);
  return routes;
}
