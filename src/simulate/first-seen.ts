/**
 * Distinct values in the order first seen, for `visitedNodes` and `traversedEdges`. Values the
 * plan numbers (node ids, the edge ids it made) are marked in a byte array; others are kept in a
 * `Set`. A `Set` of every id, grown as it filled, was a fifth of a 5,000-step run.
 */

/** The values seen so far, in order. */
export interface FirstSeen {
  /** One byte per number below the size the list was made for. */
  readonly marks: Uint8Array;
  /** Values seen without a number. */
  others: Set<string> | undefined;
  readonly list: string[];
}

/** Nothing seen yet; numbers given to {@link see} must stay below `size`. */
export function firstSeen(size: number): FirstSeen {
  return { marks: new Uint8Array(size), others: undefined, list: [] };
}

/**
 * Adds `value` unless seen before; `n` is its number when it has one by now (equal values have
 * equal numbers). An empty value is never added, as a record without one names nothing.
 */
export function see(seen: FirstSeen, value: string, n: number | undefined): void {
  if (value === "") return;
  if (n !== undefined) {
    if (seen.marks[n] === 1) return;
    seen.marks[n] = 1;
    // Seen before it had a number (an edge id is numbered when first cached).
    if (seen.others?.has(value) === true) return;
  } else {
    seen.others ??= new Set();
    if (seen.others.has(value)) return;
    seen.others.add(value);
  }
  seen.list.push(value);
}
