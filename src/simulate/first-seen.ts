/**
 * Distinct values in the order first seen, for `visitedNodes` and `traversedEdges`. Values the
 * plan numbers (node ids, the edge ids it made) are marked in a byte array and recorded by number;
 * others are kept in a `Set`. A `Set` of every id, grown as it filled, was a fifth of a
 * 5,000-step run; a list of the strings, pushed as they came, grew through arrays of 100,000
 * elements in a 100,000-step run, each a fresh allocation the size of the last, where a typed
 * array of numbers grows by copying bytes and the list is built once, at its final length.
 */

/** The values seen so far, in order. */
export interface FirstSeen {
  /** One byte per number below the size the list was made for. */
  readonly marks: Uint8Array;
  /**
   * The numbers seen, in order, in `order[0..count)`; `-(j + 1)` stands for the `j`-th value of
   * {@link FirstSeen.others} (a `Set` lists its values in the order added).
   */
  order: Int32Array;
  count: number;
  /** Values seen without a number. */
  others: Set<string> | undefined;
}

/** Nothing seen yet; numbers given to {@link see} must stay below `size`. */
export function firstSeen(size: number): FirstSeen {
  return {
    marks: new Uint8Array(size),
    order: new Int32Array(Math.max(16, Math.min(size, 1024))),
    count: 0,
    others: undefined,
  };
}

/** A copy that goes on from `seen` without changing it. */
export function copiedSeen(seen: FirstSeen): FirstSeen {
  return {
    marks: seen.marks.slice(),
    order: seen.order.slice(),
    count: seen.count,
    others: seen.others === undefined ? undefined : new Set(seen.others),
  };
}

function append(seen: FirstSeen, code: number): void {
  if (seen.count === seen.order.length) {
    const grown = new Int32Array(seen.order.length * 2);
    grown.set(seen.order);
    seen.order = grown;
  }
  seen.order[seen.count++] = code;
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
    append(seen, n);
    return;
  }
  seen.others ??= new Set();
  if (seen.others.has(value)) return;
  seen.others.add(value);
  append(seen, -seen.others.size);
}

/** The values seen, in order; `names[n]` is the value numbered `n`. */
export function seenList(seen: FirstSeen, names: readonly (string | undefined)[]): string[] {
  const list = new Array<string>(seen.count);
  const { order } = seen;
  const extra = seen.others === undefined ? [] : [...seen.others];
  for (let i = 0; i < seen.count; i++) {
    const code = order[i] ?? 0;
    list[i] = (code >= 0 ? names[code] : extra[-code - 1]) ?? "";
  }
  return list;
}
