/**
 * The `langgraph-gen` spec as an interop {@link Format}: detection, the import of
 * `gen-import.ts`, and the export of `export.ts` (a spec to hand to the stub generator).
 */
import type { Format } from "../types.js";
import { isRecord, own } from "../json.js";
import { exportLangGraphGen } from "./export.js";
import { importLangGraphGen } from "./gen-import.js";
import type { LangGraphGenDocument } from "./gen-types.js";
import { LANGGRAPH_GEN_FORMAT_ID } from "./gen-types.js";

/**
 * Whether a decoded document is a spec: an object without `kind`, with a `nodes` array of
 * objects each with a string `name`, an `edges` array of objects each with a string `from`, and
 * an entry: a top-level string `entrypoint` (OpenAgentFlow nests its own under `graph`) or an
 * edge `from: __start__` (langgraph-gen requires neither `entrypoint` nor `name`; its own test
 * specs start with such an edge). Never throws.
 *
 * @example
 * ```ts
 * import { detectLangGraphGen } from "agentflow/interop";
 *
 * const spec = {
 *   name: "AgenticRag",
 *   entrypoint: "agent",
 *   nodes: [{ name: "agent" }, { name: "generate" }],
 *   edges: [{ from: "agent", to: "generate" }],
 * };
 * detectLangGraphGen(spec); // → true
 * ```
 */
export function detectLangGraphGen(doc: unknown): boolean {
  if (!isRecord(doc) || Object.hasOwn(doc, "kind")) return false;
  const nodes = own(doc, "nodes");
  const edges = own(doc, "edges");
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return false;
  const froms = edges.map((e) => (isRecord(e) ? own(e, "from") : undefined));
  return (
    (typeof own(doc, "entrypoint") === "string" || froms.includes("__start__")) &&
    nodes.every((n) => isRecord(n) && typeof own(n, "name") === "string") &&
    froms.every((from) => typeof from === "string")
  );
}

/** The `langgraph-gen` spec YAML, import and export. */
export const langGraphGen: Format<LangGraphGenDocument> = Object.freeze({
  id: LANGGRAPH_GEN_FORMAT_ID,
  title: "LangGraph langgraph-gen spec",
  detect: detectLangGraphGen,
  import: importLangGraphGen,
  export: exportLangGraphGen,
});
