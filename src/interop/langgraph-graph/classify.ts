/**
 * Which agentflow node type a LangGraph runnable becomes. The drawable graph says only a class
 * path and a name, so only two readings are exact (a `ToolNode` is a tool step, a chat model is a
 * model call); every other reading is a guess the importer declares as a HEURISTIC warning.
 */
import { pointer } from "../../model/index.js";
import { isRecord, own } from "../json.js";

/** The classification of one node, and why. */
export interface Classification {
  /** The agentflow node type. */
  readonly type: "llm" | "tool";
  /** Why, for the warning message; `undefined` when the class path says it exactly. */
  readonly guess?: string;
  /** JSON Pointer of the source value the classification rests on. */
  readonly path: string;
  /** The graph class (`CompiledStateGraph`) when the node is a compiled subgraph drawn whole. */
  readonly subgraph?: string;
}

/**
 * The contract ref of a compiled subgraph drawn as one node (xray off): one documented ref, as
 * AgentOS's `tool:agentos.subgraph@1.0.0`, that no registry resolves unless someone states what
 * every such subgraph may do; until then its effect is unknown and the verdict strict.
 */
export const SUBGRAPH_TOOL = "tool:langgraph.subgraph@0.0.0";

/**
 * The classes of a compiled graph (LangGraph.js `["langgraph", "pregel", "CompiledStateGraph"]`,
 * Python's `lc_id()` of `CompiledStateGraph`, the older `CompiledGraph`, a bare `Pregel`, a
 * `RemoteGraph` run by a server): its steps are hidden, so they may loop and call tools.
 */
const GRAPH_CLASSES: ReadonlySet<string> = new Set([
  "CompiledStateGraph",
  "CompiledGraph",
  "Pregel",
  "RemoteGraph",
]);

/** A node named like a tool step: `tools`, `search_tool`, `tool-call`, `Tool`... */
const TOOL_WORD = /(^|[^a-z])tools?([^a-z]|$)/i;
/** The camelCase form: `searchTool`, `webTools`, `runToolNode`. */
const TOOL_CAMEL = /[a-z]Tools?(Node)?$/;

/** The class path of a runnable (`["langgraph", "prebuilt", "tool_node", "ToolNode"]`), if any. */
export function classPath(data: unknown): readonly string[] | undefined {
  if (!isRecord(data)) return undefined;
  const path = own(data, "id");
  if (!Array.isArray(path) || !path.every((p): p is string => typeof p === "string")) {
    return undefined;
  }
  return path;
}

/** Whether a class path names a chat model (`langchain_openai.chat_models...ChatOpenAI`). */
function isChatModel(path: readonly string[]): boolean {
  const last = path.at(-1) ?? "";
  return /^Chat[A-Z]/.test(last) || last === "BaseChatModel" || path.includes("chat_models");
}

/**
 * Classifies node `i` whose display name is `name`: the class path first (`ToolNode` → tool,
 * a compiled graph → a tool on {@link SUBGRAPH_TOOL}, chat model → llm), then the name (a tool-like name → tool), else an llm step — the usual
 * content of a LangGraph function node, and the reading that keeps a model's judgement visible.
 */
export function classify(data: unknown, name: string, i: number): Classification {
  const path = classPath(data);
  const last = path?.at(-1);
  if (last === "ToolNode") return { type: "tool", path: pointer("nodes", i, "data", "id") };
  if (last !== undefined && GRAPH_CLASSES.has(last)) {
    return {
      type: "tool",
      guess: `a compiled subgraph ('${last}') drawn as one node: its steps, which may loop and call tools, are not in the graph; it stands for them as a tool node bound to '${SUBGRAPH_TOOL}', whose effect is unknown until a contract states it (an export with xray shows the steps)`,
      path: pointer("nodes", i, "type"),
      subgraph: last,
    };
  }
  if (path !== undefined && isChatModel(path)) {
    return { type: "llm", path: pointer("nodes", i, "data", "id") };
  }
  if (TOOL_WORD.test(name) || TOOL_CAMEL.test(name)) {
    return {
      type: "tool",
      guess: `its name '${name}' reads as a tool step`,
      path: pointer("nodes", i, "id"),
    };
  }
  const what = last === undefined ? "a node with no class path" : `a '${last}' function node`;
  return {
    type: "llm",
    guess: `${what} is read as a model step (the graph does not say what the function does)`,
    path: pointer("nodes", i, "type"),
  };
}
