/**
 * The input and output schema nodes LangGraph.js draws for a graph without named sentinels (the
 * functional API's `entrypoint`): read as `__start__` and `__end__`, so that such a graph imports
 * as the one Python's `get_graph().to_json()` draws for it.
 */
import { isRecord, own } from "../json.js";
import { SUBGRAPH_SENTINEL } from "./graph-read.js";

/**
 * The schema nodes LangGraph.js numbers instead of naming them `__start__` / `__end__`: a graph
 * without named sentinels (the functional API's `entrypoint`) draws its input and output schemas
 * as `{ id: 0, type: "schema" }` and `{ id: 2, type: "schema" }`. Such a node is the start when no
 * edge enters it and the graph has no `__start__`; the end when no edge leaves it and there is no
 * `__end__`. Only one of each is read; any other schema node stays refused.
 */
export function schemaSentinels(
  nodes: readonly unknown[],
  edges: readonly unknown[],
): Map<number, "start" | "end"> {
  const ids = nodes.map((n) => (isRecord(n) ? own(n, "id") : undefined));
  const sources = new Set<unknown>();
  const targets = new Set<unknown>();
  for (const e of edges) {
    if (!isRecord(e)) continue;
    sources.add(own(e, "source"));
    targets.add(own(e, "target"));
  }
  const candidates = (role: "start" | "end"): number[] =>
    nodes.flatMap((n, i) => {
      const id = ids[i];
      if (!isRecord(n) || own(n, "type") !== "schema") return [];
      if (typeof id !== "number" && (typeof id !== "string" || SUBGRAPH_SENTINEL.test(id)))
        return [];
      if (id === "__start__" || id === "__end__") return [];
      return role === "start" ? (targets.has(id) ? [] : [i]) : sources.has(id) ? [] : [i];
    });
  const roles = new Map<number, "start" | "end">();
  const [start, extraStart] = candidates("start");
  const [end, extraEnd] = candidates("end");
  if (!ids.includes("__start__") && start !== undefined && extraStart === undefined)
    roles.set(start, "start");
  if (!ids.includes("__end__") && end !== undefined && extraEnd === undefined && end !== start)
    roles.set(end, "end");
  return roles;
}
