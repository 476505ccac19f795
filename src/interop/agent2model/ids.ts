/**
 * Deterministic mapping of flowchart ids (free-form YAML keys) to valid agentflow ids: an id the
 * model accepts is kept, any other is rewritten the same way every time and declared.
 */
import { isValidId } from "../../model/index.js";

/** The route target that ends a run; a node may not take it as its id. */
const END = "end";

/** One rewrite of an id into the agentflow alphabet (other characters become `-`). */
export function sanitizeId(id: string): string {
  const body = id.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, 200);
  const lettered = /^[A-Za-z]/.test(body) ? body : `n${body}`;
  return lettered === END ? "end-node" : lettered;
}

/**
 * Maps every id to a valid, unique id: valid ids first keep themselves, then each other id takes
 * its sanitized form, suffixed `-2`, `-3`, ... on a clash, in input order.
 */
export function mapIds(ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  // Taken ids are never freed, so the next free suffix of a base only moves up: remembering it
  // keeps many ids with one sanitized form linear instead of rescanning -2, -3, ... each time.
  const nextSuffix = new Map<string, number>();
  for (const id of ids) {
    if (id !== END && isValidId(id)) {
      out.set(id, id);
      taken.add(id);
    }
  }
  for (const id of ids) {
    if (out.has(id)) continue;
    const base = sanitizeId(id);
    let candidate = base;
    if (taken.has(candidate)) {
      let n = nextSuffix.get(base) ?? 2;
      while (taken.has(`${base}-${String(n)}`)) n += 1;
      nextSuffix.set(base, n);
      candidate = `${base}-${String(n)}`;
    }
    out.set(id, candidate);
    taken.add(candidate);
  }
  return out;
}
