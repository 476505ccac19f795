/**
 * agentflow: governance and policy gates for AI-agent sub-workflows embedded in BPMN processes.
 * The root entry re-exports the public API of every module; each module also has its own subpath
 * (`agentflow/model`, `agentflow/validate`, `agentflow/autonomy`, `agentflow/simulate`, `agentflow/interop`,
 * `agentflow/report`, `agentflow/bpmn`).
 *
 * @packageDocumentation
 */
export * from "./model/index.js";
export * from "./validate/index.js";
export * from "./autonomy/index.js";
export * from "./simulate/index.js";
export * from "./interop/index.js";
export * from "./report/index.js";
export * from "./bpmn/index.js";
