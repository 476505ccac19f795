/**
 * The id a LangGraph name asks for, in both LangGraph formats (the drawable graph and the
 * `langgraph-gen` spec), by the importers' one mapper (`../ids.ts`): the name itself when it is
 * an agentflow id (`write_draft` stays `write_draft`), else invalid characters become `-`.
 */
import { wantedId } from "../ids.js";

/** What leads a rewritten LangGraph name that does not start with a letter (`1st` → `n-1st`). */
export const LANGGRAPH_ID_PREFIX = "n-";

/** The id a LangGraph name would take, before clashes and reserved words are resolved. */
export function baseId(raw: string): string {
  return wantedId(raw, LANGGRAPH_ID_PREFIX);
}
