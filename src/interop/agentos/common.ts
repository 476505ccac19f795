/**
 * Small shared pieces of the AgentOS importer: id mapping and warning builders. Kept apart so
 * that node and edge mapping read the same rules.
 */
import { isValidId } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { FIELD_DROPPED, HEURISTIC, VALUE_NORMALIZED } from "../types.js";

/**
 * Maps a foreign id to a valid agentflow id, deterministically: characters outside
 * `[A-Za-z0-9._:-]` become `-`, and `n-` is prefixed when the id does not start with a letter.
 * `end` is renamed `node-end` because agentflow routes use `"end"` for the end of the run.
 */
export function mapId(id: string): string {
  if (id === "end") return "node-end";
  if (isValidId(id)) return id;
  const cleaned = id.replace(/[^A-Za-z0-9._:-]/g, "-");
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `n-${cleaned}`;
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

/** A `VALUE_NORMALIZED` warning: an id rewritten into agentflow's id syntax. */
export function renamed(path: string, from: string, to: string): InteropWarning {
  return {
    code: VALUE_NORMALIZED,
    message: `id '${from}' is not a valid agentflow id; it was mapped to '${to}'`,
    path,
    data: { from, to },
  };
}
