/**
 * Turning the references the walk meets (a flow's ends, a boundary event's host) into node
 * indexes. The obvious `Map` from element to index is what made the walk superlinear: on a large
 * tree each lookup reads the node's identity hash from its property dictionary and a random slot
 * of a table as large as the tree, two cache misses or more. A flow's ends are almost always
 * nodes of its own container, listed shortly before it, so they are first searched by identity
 * near the last match, which reads only the walk's own array of elements; the few references
 * not found there are resolved after the walk, through a `Map` built only if one is needed.
 */

/**
 * A growable int32 column: storage outside the V8 heap, which scavenges need not copy. The walk
 * reserves room for a container's items before it writes, so growing happens once per
 * container at most, never per value.
 */
export interface Column {
  data: Int32Array;
  length: number;
}

/** An empty column. */
export const column = (): Column => ({ data: new Int32Array(0), length: 0 });

/** Makes room for `extra` more values. */
export function reserve(c: Column, extra: number): void {
  const needed = c.length + extra;
  if (needed <= c.data.length) return;
  const grown = new Int32Array(Math.max(needed, 2 * c.data.length));
  grown.set(c.data.subarray(0, c.length));
  c.data = grown;
}

/** Appends a value; room for it must have been reserved. */
export function put(c: Column, value: number): void {
  c.data[c.length++] = value;
}

/** Sets `c[at]`, growing the column (with zeros) to reach it. */
export function fillTo(c: Column, at: number, value: number): void {
  if (at >= c.length) {
    reserve(c, at + 1 - c.length);
    c.length = at + 1;
  }
  c.data[at] = value;
}

/** The column's values (a view of its storage). */
export const done = (c: Column): Int32Array => c.data.subarray(0, c.length);

/** Per container: its nodes' index range `[start, end)`. */
export interface NodeRanges {
  readonly start: Column;
  readonly end: Column;
}

/** What the walk keeps of references it could not resolve on the spot. */
export interface Deferred {
  /** Flows with an end not found nearby: slot in the flow columns, ends, container, hint. */
  readonly flows: [number, unknown, unknown, number, number][];
  /** Boundary events: node, host index (-1 when not found yet), host, container. */
  readonly boundaries: [number, number, unknown, number][];
  /** Link events in node order: node, process-qualified name, catch (else throw). */
  readonly linkEvents: [number, string, boolean][];
}

/** How far on either side of the hint {@link findNear} looks. */
const WINDOW = 16;

/**
 * The index of `ref` among `elements[start..end)`, searched by identity outwards from `hint`
 * within {@link WINDOW} places, or -1.
 */
export function findNear(
  elements: readonly unknown[],
  ref: unknown,
  start: number,
  end: number,
  hint: number,
): number {
  for (let d = 0; d <= WINDOW; d++) {
    const after = hint + d;
    if (after >= start && after < end && elements[after] === ref) return after;
    const before = hint - d - 1;
    if (before >= start && before < end && elements[before] === ref) return before;
  }
  return -1;
}

/** Resolves a late reference: near the hint in its container, else through a `Map` of all. */
export type LateLookup = (ref: unknown, container: number, hint: number) => number;

/**
 * The lookup for references left after the walk. It searches near the hint, then near its own
 * last match (a document that lists flows before nodes still lists them in order), and builds
 * the `Map` on first need.
 */
export function lateLookup(elements: readonly unknown[], ranges: NodeRanges): LateLookup {
  let nodeOf: Map<unknown, number> | undefined;
  let last = -1;
  return (ref, container, hint) => {
    const start = ranges.start.data[container] ?? 0;
    const end = ranges.end.data[container] ?? 0;
    let found = findNear(elements, ref, start, end, hint);
    if (found < 0 && last >= start && last < end) found = findNear(elements, ref, start, end, last);
    if (found < 0) {
      if (nodeOf === undefined) {
        nodeOf = new Map();
        // Later entries win, as a Map filled during the walk would have it.
        for (let i = 0; i < elements.length; i++) nodeOf.set(elements[i], i);
      }
      // Identity lookups need no type check: anything that is not an indexed node misses.
      found = nodeOf.get(ref) ?? -1;
    }
    if (found >= 0) last = found;
    return found;
  };
}

/**
 * The flow columns with late ends filled in, flows between non-nodes left out, and flows whose
 * ends are not both in the flow's own container (`flowScopes`, by slot) set apart: such a flow
 * is invalid BPMN, which no engine runs, so it must not carry reachability.
 */
export function flowPairs(
  sourceColumn: Column,
  targetColumn: Column,
  flowScopes: Column,
  nodeScopes: Int32Array,
  later: Deferred,
  lookup: LateLookup,
): { sources: Int32Array; targets: Int32Array; crossing: CrossingSlot[] } {
  const sources = done(sourceColumn);
  const targets = done(targetColumn);
  const scopes = done(flowScopes);
  for (const [slot, source, target, container, hint] of later.flows) {
    sources[slot] = lookup(source, container, hint);
    targets[slot] = lookup(target, container, hint);
  }
  const crossing: CrossingSlot[] = [];
  let count = 0;
  for (let k = 0; k < sources.length; k++) {
    const from = sources[k] ?? -1;
    const to = targets[k] ?? -1;
    const scope = scopes[k] ?? -1;
    // An end that is no flow node (missing, or a process, a flow, a data object) is reported too.
    if (from < 0 || to < 0 || nodeScopes[from] !== scope || nodeScopes[to] !== scope) {
      crossing.push({ slot: k, source: from, target: to });
      continue;
    }
    sources[count] = from;
    targets[count] = to;
    count += 1;
  }
  if (count === sources.length) return { sources, targets, crossing };
  return { sources: sources.slice(0, count), targets: targets.slice(0, count), crossing };
}

/** A sequence flow whose ends lie outside its container: its slot and its two ends (-1: none). */
export interface CrossingSlot {
  readonly slot: number;
  readonly source: number;
  readonly target: number;
}

/** Per node: the host a boundary event is attached to, or -1. */
export function attachments(count: number, later: Deferred, lookup: LateLookup): Int32Array {
  const out = new Int32Array(count).fill(-1);
  for (const [node, found, host, container] of later.boundaries) {
    out[node] = found >= 0 ? found : lookup(host, container, node);
  }
  return out;
}

/** Link throw → catch pairs: each throw to every catch of its name in its process. */
export function linkPairs(later: Deferred): [number, number][] {
  const catches = new Map<string, number[]>();
  const throws: [string, number][] = [];
  for (const [node, key, isCatch] of later.linkEvents) {
    if (isCatch) {
      const list = catches.get(key) ?? [];
      list.push(node);
      catches.set(key, list);
    } else throws.push([key, node]);
  }
  return throws.flatMap(([key, from]) =>
    (catches.get(key) ?? []).map((to): [number, number] => [from, to]),
  );
}
