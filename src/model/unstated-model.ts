/**
 * The model names importers write where a format does not say which model runs. An llm node
 * needs a `model`, so an import names one; but the model that runs is then the host's (an
 * AgentOS gmi node, an agent2model agent), the runtime's default (an OpenAgentFlow agent with
 * `model: null`) or simply not in the file (a LangGraph drawable graph), and a reader of facts
 * must not take such a name for a model known to run: a policy's deny-list would pass it.
 */

/** The model of an llm node a LangGraph graph, or a langgraph-gen spec, does not name. */
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
