/**
 * The shared state of one `langgraph-gen` import and the small readers every part of it uses:
 * edge targets, links, paths, and the text decision of a conditional edge.
 */
import { pointer } from "../../model/index.js";
import { describeValue, own } from "../json.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";
import { fail } from "./gen-read.js";

/** The keys of an edge the importer reads. */
export const EDGE_KEYS: ReadonlySet<string> = new Set(["from", "to", "condition", "paths"]);

/** Shared state of one import: ids, nodes, edges, successors, warnings. */
export interface Build {
  /** Each node name's id, by the importers' one mapper (names that are ids keep themselves). */
  readonly ids: ReadonlyMap<string, string>;
  readonly used: Set<string>;
  readonly byName: Map<string, string>;
  readonly nodes: Draft[];
  /** Each decision with the id of the node it follows, placed once every edge is read. */
  readonly decisionsAfter: [string, Draft][];
  readonly edges: Draft[];
  readonly successors: Map<string, string[]>;
  readonly endEdges: { readonly index: number; readonly from: string }[];
  /** Ids of the decisions made from conditional edges: their branches are not a fan-out. */
  readonly decisions: Set<string>;
  readonly warnings: InteropWarning[];
}

/** A spec name as a route target: `__end__` is `"end"`; an unknown name fails at `path`. */
export function target(name: string, path: string, b: Build): string {
  if (name === "__end__") return "end";
  const id = b.byName.get(name);
  if (id === undefined) throw fail(path, `edge names the unknown node '${name}'`, name);
  return id;
}

/** Adds the flow `from` → `to` (an edge, or a way to `__end__`), labelled `when`. */
export function link(from: string, to: string, index: number, b: Build, when?: string): void {
  const next = b.successors.get(from) ?? [];
  b.successors.set(from, next);
  if (to === "end") {
    b.endEdges.push({ index, from });
    return;
  }
  next.push(to);
  b.edges.push({ from, to, edgeType: "data", ...(when === undefined ? {} : { when }) });
}

/** The `paths` of a conditional edge: a non-empty list of node names, or a refusal. */
export function readPaths(raw: Readonly<Record<string, unknown>>, i: number): string[] {
  const paths = own(raw, "paths");
  const at = pointer("edges", i, "paths");
  if (!Array.isArray(paths) || paths.length === 0) {
    throw fail(at, `'paths' must be a non-empty array, found ${describeValue(paths)}`);
  }
  return paths.map((p: unknown, k) => {
    if (typeof p !== "string" || p === "") {
      throw fail(
        pointer("edges", i, "paths", k),
        `a path must be a node name, found ${describeValue(p)}`,
      );
    }
    return p;
  });
}

/** Whether an edge is conditional (`condition`/`paths`), refusing one that is both or neither. */
export function isConditional(
  raw: Readonly<Record<string, unknown>>,
  i: number,
  name: string,
): boolean {
  const conditional = Object.hasOwn(raw, "condition") || Object.hasOwn(raw, "paths");
  if (conditional === Object.hasOwn(raw, "to")) {
    throw fail(
      pointer("edges", i),
      `edge ${String(i)} needs either 'to' or 'condition' and 'paths'`,
      name,
    );
  }
  return conditional;
}

/** The text decision of a conditional edge: a case per path but the last, which is `otherwise`. */
export function routeDecision(
  id: string,
  condition: string,
  paths: readonly string[],
  targets: readonly string[],
): Draft {
  const cases = paths
    .slice(0, -1)
    .map((p, k) => ({ condition: `${condition} returns '${p}'`, next: targets[k] ?? "end" }));
  const config = { conditionLanguage: "text", cases, otherwise: { next: targets.at(-1) ?? "end" } };
  return { id, type: "decision", config };
}
