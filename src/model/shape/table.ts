/**
 * Resolution of named types: one analysis per `types` record (cycles, inlining order, expansion
 * sizes, problems), cached by identity and shared by every shape of the workflow.
 *
 * Everything here is iterative. Recursion is found by one depth-first search over all
 * declarations in document order, so a cycle is always reported on the same field whichever shape
 * is being resolved; sizes are memoised per type in dependency order, never by expanding.
 */
import { escapePointerToken } from "../json/index.js";
import type { ShapeProblem } from "./types.js";
import { isRecord, MAX_SHAPE_NODES, readFields, replacePrimary } from "./fields.js";
import type { FieldEntry } from "./fields.js";
import type { ObjectField, ObjectTypeNode, TypeNode } from "./type-expr.js";

/** One declared type after analysis. */
export interface TypeEntry {
  readonly name: string;
  /** Fields as compiled: recursive and over-budget references already degraded. */
  readonly fields: readonly FieldEntry[];
  /** Every type its fields reference, back edges included, in field order. */
  readonly refs: readonly string[];
  /** Problems located in this declaration. */
  readonly problems: readonly ShapeProblem[];
  /** The fully inlined object type. */
  readonly type: ObjectTypeNode;
  /** Schema nodes of the inlined expansion (at most about {@link MAX_SHAPE_NODES}). */
  readonly size: number;
}

/** The analysis of a `types` record. */
export interface TypeTable {
  readonly entries: ReadonlyMap<string, TypeEntry>;
  /** Declared names, dependencies before dependants. */
  readonly order: readonly string[];
}

/** Fields of one shape with references inlined. */
export interface ResolvedFields {
  readonly fields: readonly ObjectField[];
  readonly entries: readonly FieldEntry[];
  readonly problems: readonly ShapeProblem[];
  readonly size: number;
}

const ANY: TypeNode = { kind: "any" };

/**
 * Inlines each field's reference and applies the node budget: the first field that would take the
 * expansion past {@link MAX_SHAPE_NODES} is reported, and it and every later field degrade to
 * `any`, so that neither this shape nor anything inlining it can grow further.
 */
export function resolveEntries(
  entries: readonly FieldEntry[],
  lookup: (name: string) => TypeEntry | undefined,
  cycles: ReadonlyMap<number, readonly string[]>,
): ResolvedFields {
  const problems: ShapeProblem[] = [];
  const out: FieldEntry[] = [];
  const fields: ObjectField[] = [];
  let used = 1;
  let overflow = false;
  entries.forEach((entry, index) => {
    let current = entry;
    const cycle = cycles.get(index);
    if (cycle !== undefined) {
      problems.push({
        path: entry.path,
        reason: "recursive",
        message: `recursive type: ${cycle.join(" → ")}`,
        typeName: cycle[0] ?? "",
        cycle,
      });
      current = { ...stripRef(entry), type: replacePrimary(entry.type, ANY), ownSize: 1 };
    }
    const target = current.ref === undefined ? undefined : lookup(current.ref);
    const size = current.ownSize + (target?.size ?? 0);
    if (!overflow && used + size > MAX_SHAPE_NODES) {
      overflow = true;
      const later = entries.length - index - 1;
      const skipped = later === 0 ? "it is" : `it and the ${later} later field(s) are`;
      problems.push({
        path: entry.path,
        reason: "too-large",
        message:
          `inlining field "${entry.name}" (${size} schema nodes) takes the shape past ` +
          `${MAX_SHAPE_NODES} nodes; ${skipped} not checked`,
        ...(current.ref === undefined ? {} : { typeName: current.ref }),
      });
    }
    if (overflow) {
      current = {
        name: entry.name,
        optional: entry.optional,
        path: entry.path,
        type: ANY,
        ownSize: 1,
      };
      used += 1;
    } else {
      used += size;
    }
    out.push(current);
    const inlined = current.ref === undefined ? undefined : target;
    const type = inlined === undefined ? current.type : replacePrimary(current.type, inlined.type);
    fields.push({ name: current.name, optional: current.optional, type });
  });
  return { fields, entries: out, problems, size: used };
}

function stripRef(entry: FieldEntry): FieldEntry {
  const { name, optional, path, type, ownSize } = entry;
  return { name, optional, path, type, ownSize };
}

interface Frame {
  readonly name: string;
  index: number;
}

/** Depth-first search in document order; returns post-order and the back edges with cycles. */
function searchCycles(read: ReadonlyMap<string, readonly FieldEntry[]>): {
  order: string[];
  cycles: Map<string, Map<number, readonly string[]>>;
} {
  const order: string[] = [];
  const cycles = new Map<string, Map<number, readonly string[]>>();
  const state = new Map<string, "open" | "done">();
  const stackIndex = new Map<string, number>();
  for (const root of read.keys()) {
    if (state.has(root)) continue;
    const stack: Frame[] = [{ name: root, index: 0 }];
    state.set(root, "open");
    stackIndex.set(root, 0);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) break;
      const entries = read.get(frame.name) ?? [];
      const entry = entries[frame.index];
      if (entry === undefined) {
        stack.pop();
        state.set(frame.name, "done");
        stackIndex.delete(frame.name);
        order.push(frame.name);
        continue;
      }
      const fieldIndex = frame.index;
      frame.index += 1;
      const ref = entry.ref;
      if (ref === undefined) continue;
      const seen = state.get(ref);
      if (seen === "open") {
        const from = stackIndex.get(ref) ?? 0;
        const cycle = [...stack.slice(from).map((f) => f.name), ref];
        const perType = cycles.get(frame.name) ?? new Map<number, readonly string[]>();
        perType.set(fieldIndex, cycle);
        cycles.set(frame.name, perType);
      } else if (seen === undefined) {
        state.set(ref, "open");
        stackIndex.set(ref, stack.length);
        stack.push({ name: ref, index: 0 });
      }
    }
  }
  return { order, cycles };
}

function buildTable(types: Readonly<Record<string, unknown>>, typesPath: string): TypeTable {
  const declared = new Set(Object.keys(types));
  const isDeclared = (name: string): boolean => declared.has(name);
  const read = new Map<string, readonly FieldEntry[]>();
  const ownProblems = new Map<string, ShapeProblem[]>();
  for (const [name, shape] of Object.entries(types)) {
    const path = `${typesPath}/${escapePointerToken(name)}`;
    const result = readFields(shape, path, isDeclared);
    const problems = [...result.problems];
    if (!isRecord(shape)) {
      problems.push({
        path,
        reason: "invalid-schema",
        message: `type "${name}" must be an object mapping field names to types`,
        typeName: name,
      });
    }
    read.set(name, result.entries);
    ownProblems.set(name, problems);
  }
  const { order, cycles } = searchCycles(read);
  const entries = new Map<string, TypeEntry>();
  for (const name of order) {
    const fields = read.get(name) ?? [];
    const resolved = resolveEntries(fields, (n) => entries.get(n), cycles.get(name) ?? new Map());
    const refs = fields.flatMap((f) => (f.ref === undefined ? [] : [f.ref]));
    entries.set(name, {
      name,
      fields: resolved.entries,
      refs,
      problems: [...(ownProblems.get(name) ?? []), ...resolved.problems],
      type: { kind: "object", fields: resolved.fields, typeName: name },
      size: resolved.size,
    });
  }
  return { entries, order };
}

const EMPTY_TABLE: TypeTable = { entries: new Map(), order: [] };
const tables = new WeakMap<object, Map<string, TypeTable>>();

/**
 * The analysis of a workflow's `types`, computed once per record object and pointer prefix. The
 * record is treated as immutable, as the model's readonly types declare it.
 */
export function typeTable(types: unknown, typesPath: string): TypeTable {
  if (!isRecord(types)) return EMPTY_TABLE;
  let byPath = tables.get(types);
  if (byPath === undefined) {
    byPath = new Map();
    tables.set(types, byPath);
  }
  let table = byPath.get(typesPath);
  if (table === undefined) {
    table = buildTable(types, typesPath);
    byPath.set(typesPath, table);
  }
  return table;
}

/**
 * Problems of the declared types a set of references reaches, each type once, in breadth-first
 * order from the references as written.
 */
export function reachableProblems(table: TypeTable, refs: readonly string[]): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  const seen = new Set<string>();
  const queue = [...refs];
  // The iterator reads the length afresh each step, so names pushed below are visited too.
  for (const name of queue) {
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = table.entries.get(name);
    if (entry === undefined) continue;
    out.push(...entry.problems);
    queue.push(...entry.refs);
  }
  return out;
}

/** A shape resolved against a type table: what {@link resolveShape} and the compiler share. */
export interface ShapeAnalysis {
  readonly table: TypeTable;
  readonly resolved: ResolvedFields;
  readonly problems: readonly ShapeProblem[];
}

/**
 * Reads, resolves and checks one shape. Problems are this shape's own, then those of the declared
 * types it reaches (at their declaration paths); duplicates, which arise when the shape is itself
 * a declaration, are dropped.
 */
export function analyzeShape(
  shape: unknown,
  types: unknown,
  basePath: string,
  typesPath: string,
): ShapeAnalysis {
  const table = typeTable(types, typesPath);
  const read = readFields(shape, basePath, (name) => table.entries.has(name));
  const resolved = resolveEntries(read.entries, (n) => table.entries.get(n), new Map());
  const refs = read.entries.flatMap((e) => (e.ref === undefined ? [] : [e.ref]));
  const all = [...read.problems, ...resolved.problems, ...reachableProblems(table, refs)];
  const seen = new Set<string>();
  const problems = all.filter((p) => {
    const key = `${p.path}\u0000${p.reason}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { table, resolved, problems };
}
