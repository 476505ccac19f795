/**
 * The node id → index table of the flow graph. A `Map` of 100,000 string ids is slow to build (the
 * `floor: Map of node ids` row of `npm run bench`): it rehashes as it grows, and its table is
 * megabytes of pointers that every garbage collection traces. Here one `Int32Array`, sized once,
 * holds per slot an index and a few bits of the id's hash (open addressing, linear probing, at most
 * half full): building costs a hash of each id and about one probe, and the collector never looks
 * inside. A real `Map` is built only if someone iterates the index.
 *
 * Hostile ids cannot make it quadratic: a probe is bounded by {@link MAX_PROBE} slots, ids are
 * compared only when their hash bits match, and a document whose ids collide beyond
 * {@link MAX_COLLISIONS} such matches (crafted hashes; long ids would make each comparison long),
 * or whose ids are not all strings, is indexed by a `Map` instead.
 */

/**
 * Linear-probing distance past which the table gives up and a `Map` is used. At most half full,
 * a million ordinary ids need under 40.
 */
export const MAX_PROBE = 128;

/** Distinct ids with the same 32-bit hash past which a `Map` is used (ordinary ids: about one). */
export const MAX_COLLISIONS = 32;

/** From this many nodes a `Map` is used: a slot keeps at least 6 bits of hash beside the index. */
const MAX_TABLE_NODES = 1 << 26;

/**
 * A slot is one 32-bit integer: the low bits hold `index + 1` (0 = empty), the high bits a tag,
 * the same high bits of the id's hash, so that most mismatches are settled without loading the
 * other node. One integer per slot, not a `[hash, index]` pair: at 100,000 ids the table is 1 MB
 * instead of 2, which the cache holds far better, so it builds faster. Returns the mask of
 * the index bits.
 */
function slotLayout(n: number): number {
  const bits = 32 - Math.clz32(n); // enough for n, the largest `index + 1`
  return bits >= 32 ? -1 : (1 << bits) - 1;
}

/** The index of a list of nodes by id, and each node's first occurrence. */
export interface IdIndex {
  /** Id → index of its first occurrence. */
  readonly index: ReadonlyMap<string, number>;
  /** Per node, the index of the first node with the same id (itself when it is the first). */
  readonly firstOf: Int32Array;
}

/**
 * The table's hash: FNV-1a over the UTF-16 code units, seeded with the length, bits mixed down.
 *
 * @example
 * ```ts
 * hashOf("n1") === hashOf("n1"); // → true
 * ```
 */
export function hashOf(id: string): number {
  let h = 0x811c9dc5 ^ id.length;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 15);
}

/**
 * A read-only map over the table: `get`, `has` and `size` probe it; iteration, rare (exports,
 * tests), goes through a `Map` built on first use.
 */
class IdTable implements ReadonlyMap<string, number> {
  readonly size: number;
  readonly #nodes: readonly { readonly id: unknown }[];
  readonly #firstOf: Int32Array;
  /** Per slot `tag | (index + 1)` (see {@link slotLayout}); 0 marks an empty slot. */
  readonly #slots: Int32Array;
  /** The bits of a slot that hold `index + 1`. */
  readonly #indexMask: number;
  /** The longest probe any id needed: an id not found within it is not in the table. */
  readonly #longest: number;
  #map: Map<string, number> | undefined;

  constructor(
    nodes: readonly { readonly id: unknown }[],
    firstOf: Int32Array,
    slots: Int32Array,
    indexMask: number,
    longest: number,
    size: number,
  ) {
    this.#nodes = nodes;
    this.#firstOf = firstOf;
    this.#slots = slots;
    this.#indexMask = indexMask;
    this.#longest = longest;
    this.size = size;
  }

  // `unknown` keys, as a Map takes any: a caller outside TypeScript may ask for a number.
  get(key: unknown): number | undefined {
    if (typeof key !== "string") return undefined;
    const slots = this.#slots;
    const nodes = this.#nodes;
    const indexMask = this.#indexMask;
    const h = hashOf(key);
    const tag = h & ~indexMask;
    const mask = slots.length - 1;
    for (let p = 0, s = h & mask; p <= this.#longest; p++, s = (s + 1) & mask) {
      const v = slots[s] ?? 0;
      if (v === 0) return undefined;
      const at = (v & indexMask) - 1;
      if ((v & ~indexMask) === tag && nodes[at]?.id === key) return at;
    }
    return undefined;
  }

  has(key: unknown): boolean {
    return this.get(key) !== undefined;
  }

  /** The equivalent `Map`, in insertion (document) order, built once. */
  #asMap(): Map<string, number> {
    if (this.#map === undefined) {
      const map = new Map<string, number>();
      this.#firstOf.forEach((first, i) => {
        if (first === i) map.set(this.#nodes[i]?.id as string, i);
      });
      this.#map = map;
    }
    return this.#map;
  }

  forEach(
    callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void,
    thisArg?: unknown,
  ): void {
    this.#asMap().forEach((value, key) => {
      callback.call(thisArg, value, key, this);
    });
  }

  entries(): MapIterator<[string, number]> {
    return this.#asMap().entries();
  }

  keys(): MapIterator<string> {
    return this.#asMap().keys();
  }

  values(): MapIterator<number> {
    return this.#asMap().values();
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.#asMap().entries();
  }
}

/**
 * The fallback: a plain `Map`, first occurrence kept. `from` is where the table gave up: nodes
 * before it were already visited.
 */
function indexWithMap<N extends { readonly id: unknown }>(
  nodes: readonly N[],
  visit: ((i: number, node: N) => void) | undefined,
  from: number,
): IdIndex {
  const index = new Map<string, number>();
  const firstOf = new Int32Array(nodes.length);
  nodes.forEach((node, i) => {
    const id = node.id as string;
    const first = index.get(id);
    if (first === undefined) index.set(id, i);
    firstOf[i] = first ?? i;
    if (i >= from) visit?.(i, node);
  });
  return { index, firstOf };
}

/**
 * Indexes nodes by id. O(n) plus the ids' total length. `visit`, if given, is called with each
 * node in order, right after its id is read: a caller that needs a second look at every node
 * makes it while the node is in the cache (at 100,000 nodes, a second pass loads them all again).
 *
 * @example
 * ```ts
 * const { index, firstOf } = indexIds([{ id: "a" }, { id: "b" }, { id: "a" }]);
 * index.get("a"); // → 0
 * index.size; // → 2
 * firstOf; // → Int32Array.from([0, 1, 0])
 * ```
 */
export function indexIds<N extends { readonly id: unknown }>(
  nodes: readonly N[],
  visit?: (i: number, node: N) => void,
): IdIndex {
  const n = nodes.length;
  if (n >= MAX_TABLE_NODES) return indexWithMap(nodes, visit, 0);
  let capacity = 16;
  while (capacity < 2 * n) capacity *= 2; // at most half full: probes stay short
  const mask = capacity - 1;
  const slots = new Int32Array(capacity);
  const indexMask = slotLayout(n);
  const firstOf = new Int32Array(n);
  let longest = 0;
  let size = 0;
  let collisions = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    const id = node?.id;
    if (typeof id !== "string") return indexWithMap(nodes, visit, i);
    const h = hashOf(id);
    const tag = h & ~indexMask;
    let s = h & mask;
    let p = 0;
    for (;;) {
      const v = slots[s] ?? 0;
      if (v === 0) {
        slots[s] = tag | (i + 1);
        firstOf[i] = i;
        size++;
        break;
      }
      if ((v & ~indexMask) === tag) {
        const other = nodes[(v & indexMask) - 1]?.id;
        if (other === id) {
          firstOf[i] = (v & indexMask) - 1;
          break;
        }
        // Tags are a few bits of the hash: only equal whole hashes count as a collision.
        if (typeof other === "string" && hashOf(other) === h && ++collisions > MAX_COLLISIONS)
          return indexWithMap(nodes, visit, i);
      }
      if (++p > MAX_PROBE) return indexWithMap(nodes, visit, i);
      s = (s + 1) & mask;
    }
    if (p > longest) longest = p;
    if (visit !== undefined && node !== undefined) visit(i, node);
  }
  return { index: new IdTable(nodes, firstOf, slots, indexMask, longest, size), firstOf };
}
