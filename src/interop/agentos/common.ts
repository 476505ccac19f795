/**
 * Small shared pieces of the AgentOS importer: id mapping and warning builders. Kept apart so
 * that node and edge mapping read the same rules.
 */
import { mapIds } from "../ids.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { FIELD_DROPPED, HEURISTIC } from "../types.js";

/** The prefix of a workflow id whose source id does not start with a letter (`9 b` → `n-9-b`). */
export const ID_PREFIX = "n-";

/**
 * The workflow id of every node, by the importers' one mapper (`../ids.ts`): an id that is an
 * agentflow id keeps itself; `end` (the route keyword) and invalid ids become unique ids.
 * Entries that are not node objects with a string id are left to the node reader to refuse.
 */
export function nodeIdsOf(raw: readonly unknown[]): Map<string, string> {
  const names = raw.flatMap((n) => {
    const id = isRecord(n) ? own(n, "id") : undefined;
    return typeof id === "string" && id !== "" ? [id] : [];
  });
  return mapIds(names, ID_PREFIX);
}

/** The workflow id of `sourceId` in `ids`; an id read nowhere fails loudly, never guessed. */
export function idIn(ids: ReadonlyMap<string, string>, sourceId: string): string {
  const id = ids.get(sourceId);
  if (id === undefined) throw new Error(`no workflow id for node ${describeValue(sourceId)}`);
  return id;
}

/** A `FIELD_DROPPED` warning. */
export function dropped(
  path: string,
  message: string,
  data: Record<string, unknown>,
): InteropWarning {
  return { code: FIELD_DROPPED, message, path, data };
}

/** A `HEURISTIC` warning: a value filled in, or a construct read in a documented, lossy way. */
export function guessed(
  path: string,
  message: string,
  data: Record<string, unknown>,
): InteropWarning {
  return { code: HEURISTIC, message, path, data };
}
