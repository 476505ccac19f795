/**
 * Deterministic mapping of flowchart ids (free-form YAML keys) to valid agentflow ids, by the
 * importers' one mapper (`../ids.ts`): an id the model accepts is kept, `end` (the route keyword)
 * and any other are rewritten the same way every time and declared. The export asks the same
 * functions what an import would read, so both directions agree.
 */
import { mapIds as mapForeignIds, wantedId } from "../ids.js";

/** The prefix of an id that does not start with a letter (`1st` → `n1st`). */
const PREFIX = "n";

/** One rewrite of an id into the agentflow alphabet (other characters become `-`). */
export function sanitizeId(id: string): string {
  return wantedId(id, PREFIX);
}

/**
 * Maps every id to a valid, unique id: valid ids other than `end` first keep themselves, then
 * each other id takes its sanitized form, suffixed `-2`, `-3`, ... on a clash (`end` → `end-2`),
 * in input order.
 */
export function mapIds(ids: readonly string[]): Map<string, string> {
  return mapForeignIds(ids, PREFIX);
}
