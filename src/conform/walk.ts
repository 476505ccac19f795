/**
 * Where the approved graph lets a run go next: from the last node, through the decisions the
 * recorded outputs decide, to the next llm or tool node or the end — the simulator's own plan
 * and conditions, so that what the simulator produces is what conform accepts.
 */
import type { Plan } from "../simulate/internal.js";
import { routeCondition, TO_END } from "../simulate/internal.js";

/** A decision passed on the way, and the route index it took. */
export type Taken = readonly [decision: number, route: number];

/** The walk's answer. */
export type Walk =
  | { readonly kind: "node"; readonly target: number; readonly taken: readonly Taken[] }
  | { readonly kind: "end"; readonly taken: readonly Taken[] }
  | {
      readonly kind: "undecidable";
      readonly decision: number;
      readonly reason: string;
      readonly taken: readonly Taken[];
      /**
       * The decision's conditions are natural language: the model chooses the route at run time,
       * as the approval accepted, so any of its routes is the model's choice, not an unknown.
       */
      readonly byModel: boolean;
    }
  /** The run cannot go on from here: no route holds, a route to no node, decisions looping. */
  | { readonly kind: "stopped"; readonly why: string; readonly taken: readonly Taken[] };

/** What the walk reads of a run. */
export interface WalkInput {
  readonly plan: Plan;
  /** The node index the walk starts at: the entry, or the successor of the last node. */
  readonly from: number;
  readonly merged: Readonly<Record<string, unknown>>;
  /** Routes the run recorded itself, by decision index: they are followed, not evaluated. */
  readonly recorded: ReadonlyMap<number, number>;
}

/** The route decision `k` takes on `merged`, or why it cannot be told. */
export function evaluateRoute(
  plan: Plan,
  k: number,
  merged: Readonly<Record<string, unknown>>,
): { readonly route: number } | { readonly undecidable: string } | { readonly none: true } {
  const routes = plan.routes[k] ?? [];
  for (let r = 0; r < routes.length; r++) {
    const route = routes[r];
    const condition = route === undefined ? undefined : routeCondition(route);
    if (condition === undefined) return { route: r };
    const result = condition.evaluate(merged);
    if ("undecidable" in result) return { undecidable: result.undecidable };
    if (result.value) return { route: r };
  }
  return { none: true };
}

const isDecision = (plan: Plan, k: number): boolean => plan.wf.nodes[k]?.type === "decision";

/** Walks from `input.from` through decisions to the next llm/tool node or the end. */
export function walk(input: WalkInput): Walk {
  const { plan, merged, recorded } = input;
  const taken: Taken[] = [];
  const seen = new Set<number>();
  let cur = input.from;
  while (cur >= 0 && isDecision(plan, cur)) {
    if (seen.has(cur)) return { kind: "stopped", why: "decisions loop without a step", taken };
    seen.add(cur);
    let route = recorded.get(cur);
    if (route === undefined) {
      if (plan.routes[cur]?.[0]?.language === "text") {
        const reason = "its conditions are natural language, judged by the model";
        return { kind: "undecidable", decision: cur, reason, taken, byModel: true };
      }
      const chosen = evaluateRoute(plan, cur, merged);
      if ("undecidable" in chosen) {
        return {
          kind: "undecidable",
          decision: cur,
          reason: chosen.undecidable,
          taken,
          byModel: false,
        };
      }
      if ("none" in chosen) return { kind: "stopped", why: "no route holds", taken };
      route = chosen.route;
    }
    taken.push([cur, route]);
    const target = plan.routes[cur]?.[route]?.target ?? TO_END;
    if (target === TO_END) return { kind: "end", taken };
    if (target < 0) return { kind: "stopped", why: "the route goes to no node", taken };
    cur = target;
  }
  return cur < 0 ? { kind: "end", taken } : { kind: "node", target: cur, taken };
}

/**
 * The first route of decision `k` through which the run can reach `target` (a node index, or
 * {@link TO_END}) passing only decisions, and the decisions passed after it; `undefined` when
 * none does. Breadth-first over decisions, each once.
 */
export function routeTo(plan: Plan, k: number, target: number): Taken[] | undefined {
  const routes = plan.routes[k] ?? [];
  for (let r = 0; r < routes.length; r++) {
    const path = pathFrom(plan, routes[r]?.target ?? TO_END, target, k);
    if (path !== undefined) return [[k, r], ...path];
  }
  return undefined;
}

function pathFrom(plan: Plan, start: number, target: number, origin: number): Taken[] | undefined {
  if (start === target) return [];
  if (start < 0 || !isDecision(plan, start)) return undefined;
  // Breadth-first over decisions only; each decision entered once; the path is rebuilt from parents.
  const parent = new Map<number, Taken | null>([[start, null]]);
  const queue = [start];
  // The loop reads the decisions pushed while it runs: a for-of over an array sees its growth.
  for (const d of queue) {
    const routes = plan.routes[d] ?? [];
    for (let r = 0; r < routes.length; r++) {
      const t = routes[r]?.target ?? TO_END;
      if (t === target) return rebuild(parent, d, [d, r]);
      if (t >= 0 && t !== origin && isDecision(plan, t) && !parent.has(t)) {
        parent.set(t, [d, r]);
        queue.push(t);
      }
    }
  }
  return undefined;
}

function rebuild(parent: ReadonlyMap<number, Taken | null>, from: number, last: Taken): Taken[] {
  const path: Taken[] = [last];
  let cur = parent.get(from) ?? null;
  while (cur !== null) {
    path.push(cur);
    cur = parent.get(cur[0]) ?? null;
  }
  return path.reverse();
}
