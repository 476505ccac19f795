/**
 * The process a call activity calls, when the document holds it: read by the gate kinds (does a
 * called gate wait?) and by the reading of what an agent's tools can send (a signal or a message
 * from a process a tool calls is the tool's).
 */
import { zeebeValue } from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, idOf, instanceOf, listProp, stringProp } from "./moddle.js";

/**
 * The id of the process a call activity calls, when it is written as a literal: the
 * `zeebe:calledElement processId` Camunda 8 runs, else BPMN's own `calledElement`. `undefined`
 * for a FEEL expression (`=…`: known when the process runs) or none.
 */
export function calledProcessId(element: ModdleObject): string | undefined {
  const zeebe = zeebeValue(extensionValues(element), "calledelement");
  const id =
    (zeebe === undefined ? undefined : stringProp(zeebe, "processId")) ??
    stringProp(element, "calledElement");
  const text = id?.trim();
  return text === undefined || text === "" || text.startsWith("=") ? undefined : text;
}

/** The `bpmn:Definitions` that holds the element, if it is in one. */
export function definitionsOf(element: ModdleObject): ModdleObject | undefined {
  let root: ModdleObject | undefined = element;
  // Up the `$parent` chain: as deep as the document nests, walked without recursion.
  while (root !== undefined && !instanceOf(root, "bpmn:Definitions")) {
    const parent: unknown = root.$parent;
    root = typeof parent === "object" && parent !== null ? (parent as ModdleObject) : undefined;
  }
  return root;
}

/** The process of this id among `definitions`' root elements, if the document holds it. */
export function processOf(definitions: ModdleObject, id: string): ModdleObject | undefined {
  return listProp(definitions, "rootElements").find(
    (candidate) => instanceOf(candidate, "bpmn:Process") && idOf(candidate) === id,
  );
}
