/**
 * The one id mapper of the importers. A foreign name keeps itself whenever the model accepts it
 * as an id and it is not a reserved word; any other name is rewritten the same way every time,
 * and every rewrite is declared by the importer with {@link renamedId}. Reserved words are route
 * keywords: a route `next: "end"` ends the run, so a node called `end` would turn every route to
 * it into the end of the run. Such a node is renamed (`end-2`), never read as the end.
 */
import { isValidId } from "../model/index.js";
import { isReservedNodeId } from "../model/internal.js";
import { isRecord, own } from "./json.js";
import type { InteropWarning } from "./types.js";
import { normalized } from "./warnings.js";

/** Longest rewritten id kept before a clash suffix; the model caps ids at 256 characters. */
const MAX_BASE = 240;

/**
 * The id a foreign name asks for, before clashes and reserved words are resolved: the name itself
 * when the model accepts it (`write_draft`, `sub:x.y`), otherwise every character outside
 * `[A-Za-z0-9._:-]` becomes `-` and `prefix` (the format's, documented) leads when the result
 * does not start with a letter. A reserved name is returned as is: {@link allocateId} renames it.
 */
export function wantedId(raw: string, prefix: string): string {
  if (isValidId(raw)) return raw;
  const cleaned = raw.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, MAX_BASE);
  if (cleaned === "") return "node";
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `${prefix}${cleaned}`;
}

/** Per id set: the suffix each clashing base was last given (see {@link allocateId}). */
const nextSuffix = new WeakMap<Set<string>, Map<string, number>>();

/**
 * Allocates `wanted`, or `wanted-2`, `wanted-3`, ... when it is taken or reserved, and records it
 * in `used`. The caller owns `used`, so one import allocates all its ids in one place.
 */
export function allocateId(wanted: string, used: Set<string>): string {
  let id = wanted;
  if (used.has(id) || isReservedNodeId(id)) {
    // `used` only grows, so the first free suffix of `wanted` only moves up: starting from the
    // last one found keeps 100,000 names with one base linear instead of rescanning from -2.
    let suffixes = nextSuffix.get(used);
    if (suffixes === undefined) nextSuffix.set(used, (suffixes = new Map<string, number>()));
    let n = suffixes.get(wanted) ?? 2;
    for (id = `${wanted}-${String(n)}`; used.has(id) || isReservedNodeId(id); n += 1)
      id = `${wanted}-${String(n + 1)}`;
    suffixes.set(wanted, n);
  }
  used.add(id);
  return id;
}

/**
 * Maps every key to a unique id, in input order: the keys whose name (`nameOf`, the key itself by
 * default) is an id already and not reserved keep it first (so a rewritten name never takes the
 * id of a name written that way), then every other key takes {@link wantedId}, suffixed on a
 * clash. A number (LangGraph's anonymous runnable) is never kept: it becomes `node-<n>`. Keys
 * are told apart by identity, so one name given twice maps once. O(n).
 */
export function mapIds<K = string>(
  keys: Iterable<K>,
  prefix: string,
  nameOf: (key: K) => string | number = String,
): Map<K, string> {
  const out = new Map<K, string>();
  const used = new Set<string>();
  const all = [...keys];
  for (const key of all) {
    const name = nameOf(key);
    if (out.has(key) || typeof name !== "string") continue;
    if (isValidId(name) && !isReservedNodeId(name) && !used.has(name)) {
      out.set(key, name);
      used.add(name);
    }
  }
  for (const key of all) {
    if (out.has(key)) continue;
    const name = nameOf(key);
    const wanted =
      typeof name === "number"
        ? `node-${String(name).replace(/[^A-Za-z0-9.-]/g, "-")}`
        : wantedId(name, prefix);
    out.set(key, allocateId(wanted, used));
  }
  return out;
}

/**
 * The ids of a source array's entries, by {@link mapIds}: each entry that is an object with a
 * non-empty string `key` (`id`, `name`) names one node. Other entries are left to the format's
 * reader to refuse, at their own path.
 */
export function entryIds(
  raw: readonly unknown[],
  key: string,
  prefix: string,
): Map<string, string> {
  const names = raw.flatMap((entry) => {
    const name = isRecord(entry) ? own(entry, key) : undefined;
    return typeof name === "string" && name !== "" ? [name] : [];
  });
  return mapIds(names, prefix);
}

/** Why a name was rewritten, for the message and `data.reason` of {@link renamedId}. */
export function renameReason(from: string): "reserved" | "invalid" | "taken" {
  if (isReservedNodeId(from)) return "reserved";
  return isValidId(from) ? "taken" : "invalid";
}

/**
 * The `VALUE_NORMALIZED` warning that declares a rename, naming the old and the new id and why
 * (`data: { from, to, reason }`): a reserved word, a name the model does not accept as an id, or
 * an id another element took first. `what` names the element (`node`, `agent id`).
 */
export function renamedId(
  path: string,
  what: string,
  from: string | number,
  to: string,
): InteropWarning {
  const reason = renameReason(String(from));
  const why =
    reason === "reserved"
      ? `is agentflow's route keyword for the end of the run, so a route to it would end the run instead of reaching it`
      : reason === "invalid"
        ? "is not a valid agentflow id"
        : "is the id of another element already";
  return normalized(path, `${what} '${String(from)}' ${why}; it is renamed '${to}'`, {
    from,
    to,
    reason,
  });
}
