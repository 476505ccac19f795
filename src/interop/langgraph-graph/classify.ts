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
}

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
 * chat model → llm), then the name (a tool-like name → tool), else an llm step — the usual
 * content of a LangGraph function node, and the reading that keeps a model's judgement visible.
 */
export function classify(data: unknown, name: string, i: number): Classification {
  const path = classPath(data);
  const last = path?.at(-1);
  if (last === "ToolNode") return { type: "tool", path: pointer("nodes", i, "data", "id") };
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
