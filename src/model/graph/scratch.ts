/**
 * Scratch integer arrays for the temporaries of the graph algorithms, reused from one call to the
 * next. Every typed array owns a buffer outside the JavaScript heap, and V8 answers each few tens
 * of megabytes of such buffers with a young-generation collection: a 100,000-node validation
 * allocated about that much, so most validations ran one, which copied and promoted whatever large
 * arrays the validation held at that moment, and the old generation then filled and was compacted.
 * The cost grew with the square of the size. Temporaries taken from here allocate nothing once the
 * pool has grown to the largest graph seen.
 *
 * Arrays taken in a scope are valid until the scope returns; they must not escape it (a result
 * that outlives the call is allocated normally). Scopes nest: an inner scope takes after the
 * outer one's arrays and gives back only its own.
 */

/** Takes a zero-filled array of `length` elements, valid until the enclosing scope returns. */
export type Take = (length: number) => Int32Array;

/** Above this many elements in use, arrays are allocated instead: the pool stays ≤ 16 MB. */
const MAX_POOLED = 1 << 22;

/** The shared pool; grown (never shrunk) to the largest total a scope has taken. */
let pool = new Int32Array(1024);
/** Elements of `pool` in use by the open scopes. */
let top = 0;

function take(length: number): Int32Array {
  if (top + length > MAX_POOLED) return new Int32Array(length);
  if (top + length > pool.length) {
    // Arrays already taken stay on the old buffer, which lives as long as they do; the new one
    // is large enough for everything the open scopes hold, so the next scope fits.
    pool = new Int32Array(Math.min(MAX_POOLED, Math.max(2 * pool.length, 2 * (top + length))));
  }
  const array = pool.subarray(top, top + length);
  top += length;
  array.fill(0);
  return array;
}

/**
 * Runs `body` with a `take` function for scratch arrays, and gives them back when it returns or
 * throws.
 *
 * @example
 * ```ts
 * const sum = scratchScope((take) => {
 *   const squares = take(4);
 *   squares.forEach((_, i) => (squares[i] = i * i));
 *   return squares.reduce((a, b) => a + b, 0);
 * });
 * sum; // → 14
 * ```
 */
export function scratchScope<T>(body: (take: Take) => T): T {
  const mark = top;
  try {
    return body(take);
  } finally {
    top = mark;
  }
}
