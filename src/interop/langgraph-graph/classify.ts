/**
 * Which agentflow node type a LangGraph runnable becomes. The drawable graph says only a class
 * path and a name, so only two readings are exact (a `ToolNode` is a tool step, a chat model of
 * LangChain's own packages is a model call); every other reading is a guess the importer declares
 * as a HEURISTIC warning.
 */
import { pointer } from "../../model/index.js";
import { LANGGRAPH_NODE_TOOL_PREFIX } from "../../model/internal.js";
import { isRecord, own } from "../json.js";
import { PLACEHOLDER_VERSION } from "./graph-types.js";

/**
 * How a node was classified: `exact` by its class path (`ToolNode`, a chat model of LangChain's
 * packages), `subgraph` a compiled graph drawn whole, `named` a tool by its name, `function` any
 * other node (a function node, a runnable of another class, a `Chat…` class of the app's own, a
 * node with no class path): code the graph does not show.
 */
export type Reading = "exact" | "subgraph" | "named" | "function";

/** The classification of one node, and why. */
export interface Classification {
  /** The agentflow node type. */
  readonly type: "llm" | "tool";
  /** How the type was read; every reading but `exact` is declared. */
  readonly reading: Reading;
  /** Why, for the warning message of a `subgraph` or `named` reading. */
  readonly guess?: string;
  /** JSON Pointer of the source value the classification rests on. */
  readonly path: string;
  /** The last segment of the node's class path (`RunnableCallable`, `CompiledStateGraph`), if any. */
  readonly className?: string;
}

/**
 * The contract ref of a compiled subgraph drawn as one node (xray off): one documented ref, as
 * AgentOS's `tool:agentos.subgraph@1.0.0`, that no registry resolves unless someone states what
 * every such subgraph may do; until then its effect is unknown and the verdict strict.
 */
export const SUBGRAPH_TOOL = "tool:langgraph.subgraph@0.0.0";

/**
 * The contract ref of a function node, `tool:langgraph.node.<agentflow id>@0.0.0`: one of a
 * documented family of refs for a step whose code the document does not show (so it may call any
 * model, any tool), which the langgraph-gen importer binds its spec nodes to as well. Its effect
 * is unknown until a contract of that id states it, and so are the models it may call.
 */
export function functionToolRef(id: string): string {
  return `${LANGGRAPH_NODE_TOOL_PREFIX}${id}@${PLACEHOLDER_VERSION}`;
}

/** Whether a tool ref is of the {@link functionToolRef} family (any id, any version). */
export function isFunctionToolRef(usesTool: string): boolean {
  return usesTool.startsWith(LANGGRAPH_NODE_TOOL_PREFIX);
}

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

/** Whether a node name reads as a tool step's: the `named` reading of {@link classify}. */
export function isToolName(name: string): boolean {
  return TOOL_WORD.test(name) || TOOL_CAMEL.test(name);
}

/** The class path of a runnable (`["langgraph", "prebuilt", "tool_node", "ToolNode"]`), if any. */
export function classPath(data: unknown): readonly string[] | undefined {
  if (!isRecord(data)) return undefined;
  const path = own(data, "id");
  if (!Array.isArray(path) || !path.every((p): p is string => typeof p === "string")) {
    return undefined;
  }
  return path;
}

/** LangChain's own packages: `langchain` (the serialisation namespace), `langchain_openai`... */
const LANGCHAIN_PACKAGE = /^langchain(_[a-z0-9_]+)?$/;

/**
 * Whether a class path names a chat model of LangChain's own packages: a class in one of their
 * `chat_models` modules, as `to_json()` writes it (`["langchain", "chat_models", "openai",
 * "ChatOpenAI"]`, the serialisation namespace; `["langchain_ollama", "chat_models",
 * "ChatOllama"]`, the module; `["langchain_core", "language_models", "chat_models",
 * "BaseChatModel"]`, what the export writes). A class's own name says nothing: a user's
 * `ChatOpsPayout` runnable, in a module of its own, may pay out, so it reads as a function node.
 */
function isChatModel(path: readonly string[]): boolean {
  const [root, ...rest] = path;
  const last = rest.pop();
  return (
    root !== undefined &&
    last !== undefined &&
    LANGCHAIN_PACKAGE.test(root) &&
    rest.includes("chat_models") &&
    /^[A-Z][A-Za-z0-9_]*$/.test(last)
  );
}

/**
 * Classifies node `i` whose display name is `name`: the class path first (`ToolNode` → tool,
 * a compiled graph → a tool on {@link SUBGRAPH_TOOL}, a LangChain chat model → llm), then the
 * name (a tool-like name → tool), else a `function` reading: a tool step on its
 * {@link functionToolRef}.
 * A function node is arbitrary code — it may call a model, but just as well a payment
 * API — so reading it as a model step (no effect) would let a gate verdict pass what it cannot see.
 */
export function classify(data: unknown, name: string, i: number): Classification {
  const path = classPath(data);
  const last = path?.at(-1);
  const cls = last === undefined ? {} : { className: last };
  if (last === "ToolNode") {
    return { type: "tool", reading: "exact", path: pointer("nodes", i, "data", "id"), ...cls };
  }
  if (last !== undefined && GRAPH_CLASSES.has(last)) {
    return {
      type: "tool",
      reading: "subgraph",
      guess: `a compiled subgraph ('${last}') drawn as one node: its steps, which may loop and call tools, are not in the graph; it stands for them as a tool node bound to '${SUBGRAPH_TOOL}', whose effect is unknown until a contract states it (an export with xray shows the steps)`,
      path: pointer("nodes", i, "type"),
      className: last,
    };
  }
  if (path !== undefined && isChatModel(path)) {
    return { type: "llm", reading: "exact", path: pointer("nodes", i, "data", "id"), ...cls };
  }
  if (isToolName(name)) {
    return {
      type: "tool",
      reading: "named",
      guess: `its name '${name}' reads as a tool step`,
      path: pointer("nodes", i, "id"),
      ...cls,
    };
  }
  return { type: "tool", reading: "function", path: pointer("nodes", i, "type"), ...cls };
}
