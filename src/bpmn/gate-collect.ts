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
import { childrenOf, feelExpressionNode } from "../model/internal.js";
import { hasGateMarker, isGateMarker } from "./agents.js";
import { passesThrough } from "./gate-kind.js";
import type { GateSelector } from "./gate-select.js";
import { selectGate } from "./gate-select.js";
import { zeebeValue } from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import {
  BTV_URI,
  elementKind,
  extensionValues,
  instanceOf,
  objectProp,
  stringProp,
} from "./moddle.js";

/** Decides whether a flow node is an approval gate. */
export type GatePredicate = (element: ModdleObject) => boolean;

/** A flow node that is an approval gate. */
export interface GateNode {
  /** Flow node index. */
  readonly node: number;
  /** `btv:approverRole`, else what the selector that chose it gives; `undefined` when none. */
  readonly role: string | undefined;
}

/**
 * Why a node chosen as a gate does not count: it may complete with nobody approving. `passes`:
 * an element the engine completes by itself (a manual task, a gateway, a throw event, a timer, a
 * script, a Camunda connector; `gate-kind.ts`); or it may complete with no instance run:
 * `collection`: a multi-instance over an input collection that is not a
 * non-empty list literal (Zeebe completes a multi-instance body with an empty collection at
 * once); `cardinality`: a multi-instance whose loop cardinality is not a literal of at least 1
 * (nor a collection it could run over); `test-before`: a standard loop that tests its condition
 * before the first turn.
 */
export type GateDiscount = "passes" | "collection" | "cardinality" | "test-before";

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
  readonly gates: GateNode[];
  /** Nodes chosen as gates that may complete with nobody approving: not in `gates`. */
  readonly discounted: DiscountedGate[];
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

/**
 * Whether a multi-instance input collection (`=["legal", "risk"]`) is a FEEL list literal with at
 * least one item, so never empty. Read with lezer-feel's grammar: the whole expression must be
 * one `List` node holding an item, with no syntax error anywhere. A filter (`[1][item > 5]`), a
 * range, `[]`, a list holding only a comment and any expression that is not a literal may all
 * give an empty collection, so they are `false`.
 */
export function nonEmptyList(expression: string): boolean {
  const list = feelExpressionNode(expression.trim().replace(/^=/, ""));
  if (list?.name !== "List") return false;
  return childrenOf(list).some((item) => item.name !== "[" && item.name !== "]");
}

/** A loop cardinality that is a whole-number literal of at least 1 (`3`, `=3`). */
const POSITIVE = /^=?\s*0*[1-9]\d*\s*$/;

/**
 * Why an activity with these loop characteristics may complete without one instance run, or
 * `undefined` when it runs at least once (a proven count, a loop that tests after its turn). A
 * multi-instance's Zeebe input collection decides over its cardinality, as Zeebe runs it; with
 * neither, nothing says it runs. Shared by the gates (`gateDiscount`) and the process graph, whose
 * sub-process that may run no instance gets an edge from its entry to its exit past its content.
 */
export function loopDiscount(
  loop: ModdleObject,
): { readonly reason: GateDiscount; readonly expression: string } | undefined {
  if (instanceOf(loop, "bpmn:StandardLoopCharacteristics")) {
    return loop.testBefore === true ? { reason: "test-before", expression: "" } : undefined;
  }
  if (!instanceOf(loop, "bpmn:MultiInstanceLoopCharacteristics")) return undefined;
  const zeebe = zeebeValue(extensionValues(loop), "loopcharacteristics");
  const collection = zeebe === undefined ? undefined : stringProp(zeebe, "inputCollection");
  if (collection !== undefined) {
    return nonEmptyList(collection) ? undefined : { reason: "collection", expression: collection };
  }
  if (objectProp(loop, "loopDataInputRef") !== undefined) {
    return { reason: "collection", expression: "" };
  }
  const cardinality = objectProp(loop, "loopCardinality");
  const body = cardinality === undefined ? undefined : stringProp(cardinality, "body");
  if (body !== undefined && POSITIVE.test(body)) return undefined;
  return { reason: "cardinality", expression: body ?? "" };
}

/**
 * Why `element` may complete with nobody approving: it is of a kind the engine completes by
 * itself ({@link passesThrough}), or it may complete without one instance run; `undefined` when
 * someone must act at least once (no loop characteristics, or {@link loopDiscount} finds it runs).
 */
export function gateDiscount(
  element: ModdleObject,
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
  return {
    gates,
    discounted,
    userTasks,
    visit(element, values, node) {
      const marked = isGate === hasGateMarker ? isGateMarker(values) : isGate(element);
      const selection = selectors.length === 0 ? undefined : selectGate(selectors, element);
      if (marked || selection?.selected === true) {
        const discount = gateDiscount(element);
        if (discount === undefined)
          gates.push({ node, role: markedRole(values) ?? selection?.role });
        else discounted.push({ node, ...discount });
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
