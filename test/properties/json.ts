/**
 * JSON arbitraries shared by the property suites and `scripts/fuzz.ts`: values with hostile keys
 * (`__proto__`, `constructor`) set as own properties, and key-reordered copies.
 */
import fc from "fast-check";

/** Sets an own enumerable key, `__proto__` included, without invoking any setter. */
function define(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON values with hostile keys (`__proto__`, `constructor`) mixed in. */
export const hostileJsonArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom("__proto__", "constructor", "prototype", "kind", "id", "nodes"),
            fc.string(),
          ),
          tie("value"),
        ),
        { maxLength: 4 },
      )
      .map((entries) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of entries) define(out, k, v);
        return out;
      }),
  ),
})).value;

/** `v` with the keys of every object in another order, drawn from `seed` (a small LCG). */
export function reorderKeys(v: unknown, seed: number): unknown {
  let state = seed >>> 0;
  const next = (bound: number): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % bound;
  };
  const reorder = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(reorder);
    if (typeof x !== "object" || x === null) return x;
    const entries = Object.entries(x);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next(i + 1);
      const [a, b] = [entries[i], entries[j]];
      if (a !== undefined && b !== undefined) [entries[i], entries[j]] = [b, a];
    }
    const out: Record<string, unknown> = {};
    for (const [k, child] of entries) define(out, k, reorder(child));
    return out;
  };
  return reorder(v);
}
