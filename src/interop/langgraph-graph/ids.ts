/**
 * Deterministic mapping of LangGraph node names onto agentflow ids, by the importers' one mapper
 * (`../ids.ts`). LangGraph names are free text (`write_draft`, `weather_graph:model_node`,
 * numbers for anonymous runnables): a name that is an agentflow id keeps itself, any other is
 * rewritten the same way every time, and clashes (and the reserved `end`) are resolved in
 * document order.
 */
import { wantedId } from "../ids.js";

export { allocateId } from "../ids.js";

/** The id a LangGraph name would take, before clashes are resolved. */
export function baseId(raw: string | number): string {
  if (typeof raw === "number") return `node-${String(raw).replace(/[^A-Za-z0-9.-]/g, "-")}`;
  return wantedId(raw, "n-");
}
