/**
 * Which flow nodes are approval gates, with their approver roles, and which user tasks are not:
 * collected during the one walk of the definitions. A gate is a node the host's predicate accepts
 * (by default one marked `<btv:gate/>`) or one the organisation's selectors choose. A user task
 * that is neither stays an ordinary task, and a finding that lacks a gate names those downstream
 * of the agent with how to declare one: a person being asked is not by itself an approval. A gate
 * that may complete without anyone approving (an element the engine completes by itself, a
 * multi-instance over a collection that may be empty, a loop that tests before its first turn)
 * is not counted, and a finding says why.
 */
import type { Adjacency } from "../model/index.js";
import { neighbours } from "../model/index.js";
import { hasGateMarker, isGateMarker } from "./agents.js";
import type { GateContext } from "./gate-kind.js";
import { gateKinds, NO_GATE_CONTEXT } from "./gate-kind.js";
import type { GateSelector } from "./gate-select.js";
import { approversOf, selectGate } from "./gate-select.js";
import type { LoopDiscount } from "./loop-runs.js";
import { loopDiscount } from "./loop-runs.js";
import type { ModdleObject } from "./moddle.js";
import { BTV_URI, elementKind, instanceOf, objectProp, stringProp } from "./moddle.js";

// The loop readings moved to their own module; kept importable from here.
export { loopDiscount, nonEmptyList } from "./loop-runs.js";

/** Decides whether a flow node is an approval gate. */
export type GatePredicate = (element: ModdleObject) => boolean;

/** A flow node that is an approval gate. */
export interface GateNode {
  /** Flow node index. */
  readonly node: number;
  /**
   * Everyone who may approve it, one name each (commas and all): its `btv:approverRole` (else
   * the `role` of the selector that chose it), then everyone its assignment lets complete it;
   * `[]` when it names none (a role-less gate).
   */
  readonly approvers: readonly string[];
  /** {@link GateNode.approvers} joined by `, `, as reports show it; `undefined` when none. */
  readonly role: string | undefined;
}

/**
 * Why a node chosen as a gate does not count: it may complete with nobody approving. `passes`:
 * an element the engine completes by itself (a manual task, a gateway, a throw event, a timer, a
 * script, a Camunda connector, a message an agent's tool can publish, a sub-process some path
 * through which waits for nobody; `gate-kind.ts`); or it may complete with no instance run
 * (`collection`, `cardinality`, `test-before`: {@link LoopDiscount}).
 */
export type GateDiscount = "passes" | LoopDiscount;

/** A node chosen as a gate that does not count, and why. */
export interface DiscountedGate {
  /** Flow node index. */
  readonly node: number;
  readonly reason: GateDiscount;
  /**
   * The collection or cardinality expression as written, `""` when none is; for `passes`, what
   * the element is and why it completes by itself (`a manual task, which …`).
   */
  readonly expression: string;
}

/** What the walk learns of gates. */
export interface GateCollection {
  /** The gates that count; filled by {@link GateCollection.settle}. */
  readonly gates: GateNode[];
  /**
   * Nodes chosen as gates that may complete with nobody approving: not in `gates`; filled by
   * {@link GateCollection.settle}.
   */
  readonly discounted: DiscountedGate[];
  /** User tasks that are not gates, by flow node index. */
  readonly userTasks: number[];
  /** Looks at one flow node during the walk. */
  visit(element: ModdleObject, values: readonly ModdleObject[], node: number): void;
  /**
   * Decides which chosen nodes count, once the walk is done: what an element is as a gate may
   * rest on the document's agents (their tool containers, the messages their tools publish).
   */
  settle(context?: GateContext): void;
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

/**
 * Why `element` may complete with nobody approving: it is of a kind the engine completes by
 * itself ({@link passesThrough}), or it may complete without one instance run; `undefined` when
 * someone must act at least once (no loop characteristics, or {@link loopDiscount} finds it runs).
 */
export function gateDiscount(
  element: ModdleObject,
  passesThrough: (element: ModdleObject) => string | undefined = gateKinds(),
): { readonly reason: GateDiscount; readonly expression: string } | undefined {
  const passes = passesThrough(element);
  if (passes !== undefined) return { reason: "passes", expression: passes };
  const loop = objectProp(element, "loopCharacteristics");
  return loop === undefined ? undefined : loopDiscount(loop);
}

/** A collector for one walk: `isGate` (the host's, or the marker) or any selector makes a gate. */
export function gateCollector(
  isGate: GatePredicate = hasGateMarker,
  selectors: readonly GateSelector[] = [],
): GateCollection {
  const gates: GateNode[] = [];
  const discounted: DiscountedGate[] = [];
  const userTasks: number[] = [];
  const chosen: { element: ModdleObject; gate: GateNode }[] = [];
  return {
    gates,
    discounted,
    userTasks,
    visit(element, values, node) {
      const marked = isGate === hasGateMarker ? isGateMarker(values) : isGate(element);
      const selection = selectors.length === 0 ? undefined : selectGate(selectors, element);
      if (marked || selection?.selected === true) {
        // A declared role adds to who the assignment lets approve: it never hides them.
        const declared = markedRole(values);
        const approvers =
          declared === undefined ? (selection?.approvers ?? []) : approversOf(element, declared);
        const role = approvers.join(", ") || undefined;
        chosen.push({ element, gate: { node, approvers, role } });
      } else if (instanceOf(element, "bpmn:UserTask")) {
        userTasks.push(node);
      }
    },
    settle(context = NO_GATE_CONTEXT) {
      const kinds = gateKinds(context);
      for (const { element, gate } of chosen) {
        const discount = gateDiscount(element, kinds);
        if (discount === undefined) gates.push(gate);
        else discounted.push({ node: gate.node, ...discount });
      }
      chosen.length = 0;
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
