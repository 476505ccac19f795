/**
 * Deterministic mapping of LangGraph node names onto agentflow ids. LangGraph names are free
 * text (`write_draft`, `weather_graph:model_node`, numbers for anonymous runnables) while an
 * agentflow id is a letter followed by letters, digits, `.`, `_`-free `:`/`-`: the same name
 * always maps to the same id, and clashes are resolved in document order.
 */

/** Longest id kept before a clash suffix; the model caps ids at 256 characters. */
const MAX_BASE = 240;

/** Ids a LangGraph name must never take: `end` is the route keyword for "the run ends". */
const RESERVED = new Set(["end"]);

/** The id a LangGraph name would take, before clashes are resolved. */
export function baseId(raw: string | number): string {
  if (typeof raw === "number") return `node-${String(raw).replace(/[^A-Za-z0-9.-]/g, "-")}`;
  const cleaned = raw.replace(/[^A-Za-z0-9.:-]/g, "-").slice(0, MAX_BASE);
  if (cleaned === "") return "node";
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `n-${cleaned}`;
}

/** Per id set: the suffix each clashing base was last given (see {@link allocateId}). */
const nextSuffix = new WeakMap<Set<string>, Map<string, number>>();

/**
 * Allocates `wanted`, or `wanted-2`, `wanted-3`, ... when it is taken or reserved, and records
 * it in `used`. The caller owns `used`, so one import allocates all its ids in one place.
 */
export function allocateId(wanted: string, used: Set<string>): string {
  let id = wanted;
  if (used.has(id) || RESERVED.has(id)) {
    // `used` only grows, so the first free suffix of `wanted` only moves up: starting from the
    // last one found keeps 100,000 names with one base linear instead of rescanning from -2.
    let suffixes = nextSuffix.get(used);
    if (suffixes === undefined) nextSuffix.set(used, (suffixes = new Map<string, number>()));
    let n = suffixes.get(wanted) ?? 2;
    for (id = `${wanted}-${String(n)}`; used.has(id) || RESERVED.has(id); n += 1)
      id = `${wanted}-${String(n + 1)}`;
    suffixes.set(wanted, n);
  }
  used.add(id);
  return id;
}
