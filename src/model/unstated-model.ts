/**
 * The model names importers write where a format does not say which model runs. An llm node
 * needs a `model`, so an import names one; but the model that runs is then the host's (an
 * AgentOS gmi node, an agent2model agent), the runtime's default (an OpenAgentFlow agent with
 * `model: null`) or simply not in the file (a LangGraph drawable graph), and a reader of facts
 * must not take such a name for a model known to run: a policy's deny-list would pass it.
 */

/** The model of a LangGraph chat-model node, which the drawable graph does not name. */
export const LANGGRAPH_UNSTATED_MODEL = "unspecified";
/** The model of an AgentOS gmi node: the host supplies the model call. */
export const AGENTOS_HOST_MODEL = "agentos-host";
/** An OpenAgentFlow agent's `model: null`: the runtime's default model. */
export const OAF_RUNTIME_DEFAULT_MODEL = "runtime-default";
/** What an agent2model agent's model is named by: `agent2model:<workflow id>`. */
export const AGENT2MODEL_MODEL_PREFIX = "agent2model:";

/** Whether `model` is one of the names above: a model the document does not state. */
export function isUnstatedModel(model: string): boolean {
  return (
    model === LANGGRAPH_UNSTATED_MODEL ||
    model === AGENTOS_HOST_MODEL ||
    model === OAF_RUNTIME_DEFAULT_MODEL ||
    model.startsWith(AGENT2MODEL_MODEL_PREFIX)
  );
}

/**
 * The tool id prefix of a LangGraph function node (`tool:langgraph.node.<node id>`): its code is
 * not in the graph (nor in a langgraph-gen spec), so it may call any model as well as any tool.
 */
export const LANGGRAPH_NODE_TOOL_PREFIX = "tool:langgraph.node.";

/**
 * The tool ids of the steps importers bind to one documented contract because the document does
 * not show what they run: a compiled LangGraph subgraph drawn as one node, an AgentOS subgraph.
 */
const OPAQUE_STEP_TOOLS: ReadonlySet<string> = new Set([
  "tool:langgraph.subgraph",
  "tool:agentos.subgraph",
]);

/**
 * Whether a tool node's `usesTool` ref stands for a step whose content the document does not
 * show (a LangGraph function node, a subgraph drawn whole): such a step may call a model the
 * document never names, so a reader of facts must not take the models it lists for all that run.
 */
export function isOpaqueStepRef(usesTool: string): boolean {
  const at = usesTool.lastIndexOf("@");
  const id = at < 0 ? usesTool : usesTool.slice(0, at);
  return OPAQUE_STEP_TOOLS.has(id) || id.startsWith(LANGGRAPH_NODE_TOOL_PREFIX);
}
