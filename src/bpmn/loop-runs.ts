/**
 * Whether an activity with loop characteristics runs at least once: a gate that may run no
 * instance approves nothing, a sub-process that may run none can be passed without its content,
 * and an element inside a gate that may run none waits for nobody. Kept apart from the gate
 * collection so that the gate kinds (`gate-kind.ts`), which the collection reads, read it too.
 */
import { childrenOf, feelExpressionNode } from "../model/internal.js";
import { zeebeValue } from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, instanceOf, objectProp, stringProp } from "./moddle.js";

/**
 * Why a loop may run no instance: `collection`, a multi-instance over an input collection that is
 * not a non-empty list literal (Zeebe completes a multi-instance body with an empty collection at
 * once); `cardinality`, a multi-instance whose loop cardinality is not a literal of at least 1
 * (nor a collection it could run over); `test-before`, a standard loop that tests its condition
 * before the first turn.
 */
export type LoopDiscount = "collection" | "cardinality" | "test-before";

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
): { readonly reason: LoopDiscount; readonly expression: string } | undefined {
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

/** True when the element has loop characteristics that may run no instance. */
export function mayRunNone(element: ModdleObject): boolean {
  const loop = objectProp(element, "loopCharacteristics");
  return loop !== undefined && loopDiscount(loop) !== undefined;
}
