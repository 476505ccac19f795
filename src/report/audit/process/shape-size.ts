/**
 * The sizes BPMN modellers give new shapes (bpmn-js's defaults), used when agentflow lays a
 * process out itself, and the kind of outline each type has.
 */
import type { DiagramNode, DiagramPool } from "../../../bpmn/index.js";

/** The outline a flow node is drawn with. */
export type Outline = "event" | "gateway" | "activity";

/** The outline of `node`'s type. */
export function outlineOf(node: DiagramNode): Outline {
  if (node.type.endsWith("Event")) return "event";
  if (node.type.endsWith("Gateway")) return "gateway";
  return "activity";
}

/** The size of a new shape of `node`'s type (a sub-process is sized around its content). */
export function defaultSize(node: DiagramNode): { width: number; height: number } {
  switch (outlineOf(node)) {
    case "event":
      return { width: 36, height: 36 };
    case "gateway":
      return { width: 50, height: 50 };
    case "activity":
      return { width: 100, height: 80 };
  }
}

/**
 * A pool as a flow node: where a message flow to or from a black-box participant starts or ends.
 * Both layouts route message flows between such ends.
 */
export function poolNode(pool: DiagramPool, bounds: DiagramNode["bounds"]): DiagramNode {
  return {
    id: pool.participantId,
    name: pool.name,
    type: "Participant",
    trigger: "",
    interrupting: true,
    parent: "",
    attachedTo: "",
    container: "",
    gate: false,
    bounds,
    expanded: false,
    label: undefined,
  };
}
