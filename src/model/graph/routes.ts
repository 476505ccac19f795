/**
 * Decision routes (SPEC 2.1): the binary and the multi-way decision forms become one ordered list,
 * so validation rules, autonomy and the simulator never branch on the form.
 */

import { pointer } from "../json/index.js";
import type { DecisionConfig, MultiwayDecisionConfig } from "../types.js";

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

/** {@link RouteVisitor}'s `source` of the fixed routes; a case's is its index in `cases`. */
export const ROUTE_SOURCE = { onTrue: -1, onFalse: -2, otherwise: -3 } as const;

/**
 * Called for each well-formed route of a decision, in evaluation order: `source` says where it is
 * written (a {@link ROUTE_SOURCE} or a case index), `route` is the route object as written (its
 * `next` is a string), `condition` is its guarding expression as written (any value; undefined
 * on the else branch).
 */
export type RouteVisitor = (
  source: number,
  route: Readonly<Record<string, unknown>> & { readonly next: string },
  condition: unknown,
) => void;

/** A route that is missing or has no string `next` is dropped (the schema check reports it). */
function wellFormed(
  value: unknown,
): value is Readonly<Record<string, unknown>> & { readonly next: string } {
  return isRecord(value) && typeof value.next === "string";
}

/**
 * The routes of {@link decisionRoutes} without building them: the graph reads only their targets,
 * and a decision with 100,000 cases made 100,000 route objects and 200,000 label and pointer
 * strings that every collection of a validation copied. Allocates nothing.
 */
export function forEachRoute(config: DecisionConfig, visit: RouteVisitor): void {
  const raw: unknown = config;
  if (!isRecord(raw)) return;
  if (!isMultiway(config)) {
    if (wellFormed(raw.onTrue)) visit(ROUTE_SOURCE.onTrue, raw.onTrue, raw.condition);
    if (wellFormed(raw.onFalse)) visit(ROUTE_SOURCE.onFalse, raw.onFalse, undefined);
    return;
  }
  const cases = raw.cases;
  if (Array.isArray(cases)) {
    for (let i = 0; i < cases.length; i++) {
      if (!(i in cases)) continue; // a hole is no route (forEach skipped holes too)
      const c: unknown = cases[i];
      if (wellFormed(c)) visit(i, c, c.condition);
    }
  }
  if (wellFormed(raw.otherwise)) visit(ROUTE_SOURCE.otherwise, raw.otherwise, undefined);
}

/** The label of the route written at `source` (see {@link ROUTE_SOURCE}). */
export function routeLabel(source: number): string {
  if (source >= 0) return `cases/${String(source)}`;
  return source === ROUTE_SOURCE.onTrue
    ? "onTrue"
    : source === ROUTE_SOURCE.onFalse
      ? "onFalse"
      : "otherwise";
}

/** The pointer suffix of the route written at `source`, relative to the node's `config`. */
export function routePointerSuffix(source: number): string {
  if (source >= 0) return `/cases/${String(source)}`;
  return source === ROUTE_SOURCE.onTrue
    ? ON_TRUE
    : source === ROUTE_SOURCE.onFalse
      ? ON_FALSE
      : OTHERWISE;
}

/** The route object; four literals rather than spreads of optional parts, in one key order. */
function routeOf(
  source: number,
  route: Readonly<Record<string, unknown>> & { readonly next: string },
  condition: unknown,
): DecisionRoute {
  const label = routeLabel(source);
  const pointerSuffix = source >= 0 ? `/${label}` : routePointerSuffix(source);
  const next = route.next;
  const maxRetries = route.maxRetries;
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
  const routes: DecisionRoute[] = [];
  forEachRoute(config, (source, route, condition) => {
    routes.push(routeOf(source, route, condition));
  });
  return routes;
}
