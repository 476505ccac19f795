/**
 * OpenAgentFlow IR interop (seed `openagentflow-ir-schema.txt`): detection, import and export.
 *
 * @packageDocumentation
 */
import type { Format } from "../types.js";
import { isRecord, own } from "../json.js";
import { exportOpenAgentFlow } from "./export.js";
import { importOpenAgentFlow } from "./import.js";
import type { OafDocument } from "./ir-types.js";
import { OPENAGENTFLOW_ID } from "./ir-types.js";

export { importOpenAgentFlow } from "./import.js";
export { exportOpenAgentFlow } from "./export.js";
export type {
  OafAgent,
  OafDocument,
  OafEdge,
  OafExpr,
  OafOption,
  OafTerminal,
  OafVariable,
} from "./ir-types.js";
export {
  OAF_IR_VERSION,
  OAF_LOOP_CONDITION,
  OPENAGENTFLOW_ID,
  RUNTIME_DEFAULT_MODEL,
} from "./ir-types.js";

/**
 * Whether a decoded document is OpenAgentFlow IR: an object without `kind`, with a string
 * `version`, a `workflow` object, an `agents` array and a `graph` object holding `entrypoint`.
 * These four root keys together are the IR's signature; no other format uses them. Never throws.
 *
 * @example
 * ```ts
 * import { detectOpenAgentFlow } from "agentflow/interop";
 *
 * const ir = {
 *   version: "0.1.5",
 *   workflow: { name: "Hello", config: {} },
 *   agents: [],
 *   graph: { edges: [], entrypoint: "Greeter", terminals: [] },
 * };
 * detectOpenAgentFlow(ir); // → true
 * ```
 */
export function detectOpenAgentFlow(doc: unknown): boolean {
  if (!isRecord(doc) || Object.hasOwn(doc, "kind")) return false;
  const graph = own(doc, "graph");
  return (
    typeof own(doc, "version") === "string" &&
    isRecord(own(doc, "workflow")) &&
    Array.isArray(own(doc, "agents")) &&
    isRecord(graph) &&
    Object.hasOwn(graph, "entrypoint")
  );
}

/** The OpenAgentFlow IR, import and export. */
export const openAgentFlow: Format<OafDocument> = Object.freeze({
  id: OPENAGENTFLOW_ID,
  title: "OpenAgentFlow IR",
  detect: detectOpenAgentFlow,
  import: importOpenAgentFlow,
  export: exportOpenAgentFlow,
});
