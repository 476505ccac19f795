/**
 * AgentOS interop: import of the `CompiledExecutionGraph` IR that AgentGraph, workflow() and
 * mission() all compile to (seed `agentos-orchestration.txt`): import, and export of the subset
 * the import maps.
 *
 * @packageDocumentation
 */
export { agentOs, detectAgentOs } from "./format.js";
export { exportAgentOs } from "./export.js";
export { importAgentOs } from "./import.js";
export { AGENTOS_ID } from "./types.js";
