/**
 * The ids of the AgentOS importer, kept apart so that node and edge mapping read the same ones.
 */
import { describeValue } from "../json.js";

/** The prefix of a workflow id whose source id does not start with a letter (`9 b` → `n-9-b`). */
export const ID_PREFIX = "n-";

/** The workflow id of `sourceId` in `ids`; an id read nowhere fails loudly, never guessed. */
export function idIn(ids: ReadonlyMap<string, string>, sourceId: string): string {
  const id = ids.get(sourceId);
  if (id === undefined) throw new Error(`no workflow id for node ${describeValue(sourceId)}`);
  return id;
}
