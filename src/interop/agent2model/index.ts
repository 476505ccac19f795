/**
 * agent2model flowchart interop (SPEC 6): import and export of the Flowchart IR, and the seed's
 * five invariants as diagnostics.
 *
 * @packageDocumentation
 */
import type { Format } from "../types.js";
import { isRecord, own } from "../json.js";
import { exportAgent2Model } from "./export.js";
import { importAgent2Model } from "./import.js";
import type { Agent2ModelDocument } from "./types.js";
import { AGENT2MODEL_ID } from "./types.js";

/**
 * Whether a decoded document is a flowchart: no `kind` (never an AgentWorkflow), a string
 * `start`, and `nodes` a mapping (not a list, as in LangGraph or AgentOS) whose values carry a
 * `role` or a `terminal`. Never throws.
 *
 * @example
 * ```ts
 * import { detectAgent2Model } from "agentflow/interop";
 *
 * const flowchart = {
 *   name: "refund_desk",
 *   start: "greet",
 *   nodes: {
 *     greet: { role: "agent", prompt: "Greet the customer.", next: ["done"] },
 *     done: { terminal: "success" },
 *   },
 * };
 * detectAgent2Model(flowchart); // → true
 * ```
 */
export function detectAgent2Model(doc: unknown): boolean {
  if (!isRecord(doc) || Object.hasOwn(doc, "kind")) return false;
  const nodes = own(doc, "nodes");
  if (typeof own(doc, "start") !== "string" || !isRecord(nodes)) return false;
  return Object.values(nodes).some(
    (n) => isRecord(n) && (Object.hasOwn(n, "role") || Object.hasOwn(n, "terminal")),
  );
}

/** The agent2model Flowchart IR, import and export. */
export const agent2Model: Format<Agent2ModelDocument> = Object.freeze({
  id: AGENT2MODEL_ID,
  title: "agent2model flowchart (Flowchart IR)",
  detect: detectAgent2Model,
  import: importAgent2Model,
  export: exportAgent2Model,
});

export { importAgent2Model, USER_TURN_CONDITION } from "./import.js";
export { exportAgent2Model } from "./export.js";
export {
  A2M_DEAD_END_TRAP,
  A2M_EDGE_TARGET_MISSING,
  A2M_MALFORMED,
  A2M_NO_OUTGOING_EDGE,
  A2M_START_MISSING,
  A2M_TERMINAL_UNREACHABLE,
  checkAgent2ModelInvariants,
} from "./invariants.js";
export type {
  Agent2ModelDocument,
  Agent2ModelDocumentEdge,
  Agent2ModelDocumentTerminal,
  Agent2ModelDocumentTurn,
  Agent2ModelEdge,
  Agent2ModelFlowchart,
  Agent2ModelNode,
  Agent2ModelOutcome,
  Agent2ModelRole,
  Agent2ModelTerminal,
  Agent2ModelTurn,
} from "./types.js";
export { AGENT2MODEL_ID } from "./types.js";
