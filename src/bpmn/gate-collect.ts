/**
 * Which flow nodes are approval gates, with their approver roles, and which user tasks are not:
 * collected during the one walk of the definitions. A gate is a node the host's predicate accepts
 * (by default one marked `<btv:gate/>`) or one the organisation's selectors choose. A user task
 * that is neither stays an ordinary task, and a finding that lacks a gate names those downstream
 * of the agent with how to declare one: a person being asked is not by itself an approval.
 */
import type { Adjacency } from "../model/index.js";
import { neighbours } from "../model/index.js";
import { hasGateMarker, isGateMarker } from "./agents.js";
import type { GateSelector } from "./gate-select.js";
import { selectGate } from "./gate-select.js";
import type { ModdleObject } from "./moddle.js";
import { BTV_URI, elementKind, instanceOf, stringProp } from "./moddle.js";

/** Decides whether a flow node is an approval gate. */
export type GatePredicate = (element: ModdleObject) => boolean;

/** A flow node that is an approval gate. */
export interface GateNode {
  /** Flow node index. */
  readonly node: number;
  /** `btv:approverRole`, else what the selector that chose it gives; `undefined` when none. */
  readonly role: string | undefined;
}

/** What the walk learns of gates. */
export interface GateCollection {
  readonly gates: GateNode[];
  /** User tasks that are not gates, by flow node index. */
  readonly userTasks: number[];
  /** Looks at one flow node during the walk. */
  visit(element: ModdleObject, values: readonly ModdleObject[], node: number): void;
}

/** The `approverRole` of a `<btv:gate/>` among the values, when it names one. */
function markedRole(values: readonly ModdleObject[]): string | undefined {
  for (const value of values) {
    const kind = elementKind(value);
    if (kind.local !== "gate" || kind.namespace !== BTV_URI) continue;
    const role = stringProp(value, "approverRole")?.trim();
    if (role !== undefined && role !== "") return role;
  }
  return undefined;
}

/** A collector for one walk: `isGate` (the host's, or the marker) or any selector makes a gate. */
export function gateCollector(
  isGate: GatePredicate = hasGateMarker,
  selectors: readonly GateSelector[] = [],
): GateCollection {
  const gates: GateNode[] = [];
  const userTasks: number[] = [];
  return {
    gates,
    userTasks,
    visit(element, values, node) {
      const marked = isGate === hasGateMarker ? isGateMarker(values) : isGate(element);
      const selection = selectors.length === 0 ? undefined : selectGate(selectors, element);
      if (marked || selection?.selected === true) {
        gates.push({ node, role: markedRole(values) ?? selection?.role });
      } else if (instanceOf(element, "bpmn:UserTask")) {
        userTasks.push(node);
      }
    },
  };
}

/**
 * The user tasks that are not gates among the vertices reachable from `start` (itself excluded),
 * in the order a breadth-first walk meets them, the first `limit` of them; iterative, O(V+E).
 */
export function userTasksAfter(
  successors: Adjacency,
  vertexCount: number,
  start: number,
  userTask: (vertex: number) => boolean,
  limit = Infinity,
): number[] {
  const seen = new Uint8Array(vertexCount);
  const queue = [start];
  seen[start] = 1;
  const out: number[] = [];
  // A for-of over an array also visits what is pushed while it runs: the queue grows as it goes.
  for (const vertex of queue) {
    for (const next of neighbours(successors, vertex)) {
      if (seen[next] === 1) continue;
      seen[next] = 1;
      if (userTask(next) && out.push(next) >= limit) return out;
      queue.push(next);
    }
  }
  return out;
}
