/**
 * What the two LangGraph exports (drawable graph, langgraph-gen spec) share. LangGraph has no
 * decision node: a router is the conditional edges of the step before it, and the importers turn
 * those back into a decision `<step>.route` placed after that step. So a decision is written as
 * conditional edges only where that reading gives it back: exactly one step leads to it, by one
 * edge, and no route leads to it. Every other decision becomes a step of its own, declared.
 */
import type { AgentNode, AgentWorkflow, DecisionNode, DecisionRoute } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { IndexedEdge } from "../edge-index.js";
import { appendTo, routesOnce } from "../edge-index.js";
import type { ExportWarnings } from "../warnings.js";
import { omitted } from "../warnings.js";

/** Where a decision's routes are written: on `source` (`undefined` is `__start__`). */
export interface Attachment {
  readonly source: string | undefined;
  /** Index in `wf.edges` of the edge into the decision; absent for `__start__`. */
  readonly edge?: number;
}

/** The identity and schemas an importer synthesises; a workflow that differs loses them. */
export interface Synthesised {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
}

function sameShape(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}

/**
 * Declares the workflow-level fields `format` cannot hold: `autonomyLevel` always (an import
 * recomputes it), identity and schemas where they differ from what an import synthesises, and
 * every other top-level key. `kept` lists the keys the format does hold.
 */
export function declareTop(
  wf: AgentWorkflow,
  format: string,
  synthesised: Synthesised,
  kept: ReadonlySet<string>,
  warnings: ExportWarnings,
): void {
  warnings.add("autonomyLevel", () =>
    omitted(
      "/autonomyLevel",
      `autonomyLevel left out: ${format} has none; an import recomputes it`,
      { autonomyLevel: wf.autonomyLevel },
    ),
  );
  const fixed: [keyof Synthesised, boolean][] = [
    ["id", wf.id === synthesised.id],
    ["name", wf.name === synthesised.name],
    ["version", wf.version === synthesised.version],
    ["inputSchema", sameShape(wf.inputSchema, synthesised.inputSchema)],
    ["outputSchema", sameShape(wf.outputSchema, synthesised.outputSchema)],
  ];
  for (const [key, same] of fixed)
    if (!same && !kept.has(key))
      warnings.add("synthesised field", () =>
        omitted(pointer(key), `${key} left out: ${format} has none; an import synthesises it`, {
          key,
        }),
      );
  const handled = new Set(["kind", "nodes", "edges", "autonomyLevel", ...fixed.map(([k]) => k)]);
  for (const key of Object.keys(wf))
    if (!handled.has(key) && !kept.has(key))
      warnings.add("top-level field", () =>
        omitted(pointer(key), `'${key}' left out: ${format} has no such field`, { key }),
      );
}

/**
 * The decisions written as conditional edges, and where. `startRouters`: a decision that is the
 * entry and has no edge into it may be written on `__start__` (the drawable graph allows it; the
 * langgraph-gen spec does not). `routesOf` reads a decision's routes (once, when the export
 * shares it).
 */
export function planDecisions(
  wf: AgentWorkflow,
  startRouters: boolean,
  routesOf: (node: DecisionNode) => readonly DecisionRoute[] = routesOnce(),
): Map<string, Attachment> {
  const types = new Map(wf.nodes.map((n) => [n.id, n.type]));
  // Only edges into decisions are looked up: indexing every edge costs a list per node.
  const decisionIds = new Set(wf.nodes.filter((n) => n.type === "decision").map((n) => n.id));
  const into = new Map<string, number[]>();
  wf.edges.forEach((e, j) => {
    if (e.edgeType !== "delegate" && decisionIds.has(e.to)) appendTo(into, e.to, j);
  });
  const routed = new Set<string>();
  for (const n of wf.nodes)
    if (n.type === "decision")
      for (const r of routesOf(n)) if (types.get(r.next) === "decision") routed.add(r.next);
  const plan = new Map<string, Attachment>();
  const sources = new Set<string | undefined>();
  wf.nodes.forEach((n, i) => {
    if (n.type !== "decision" || routed.has(n.id)) return;
    const edges = into.get(n.id) ?? [];
    const [j] = edges;
    const edge = j === undefined ? undefined : wf.edges[j];
    let source: Attachment | undefined;
    if (edges.length === 0 && i === 0 && startRouters) source = { source: undefined };
    else if (edges.length === 1 && i !== 0 && edge !== undefined && j !== undefined) {
      const from = types.get(edge.from);
      if (from === "llm" || from === "tool") source = { source: edge.from, edge: j };
    }
    if (source === undefined || sources.has(source.source)) return;
    sources.add(source.source);
    plan.set(n.id, source);
  });
  return plan;
}

/** An edge leaving a decision that an import would rebuild: its target and label. */
export interface RebuiltEdge {
  readonly to: string;
  readonly when: string | undefined;
}

/**
 * Declares every edge leaving a decision (`out`, its flow edges) that an import would not rebuild
 * from its routes (edges leaving a decision are documentation; the routes carry the flow). Each
 * rebuilt edge accounts for one data edge with its target and label.
 */
export function declareDecisionEdges(
  out: readonly IndexedEdge[],
  rebuilt: readonly RebuiltEdge[],
  warnings: ExportWarnings,
): void {
  if (out.length === 0) return;
  // Counts by target and label instead of a list searched per edge: linear in routes + edges.
  const targets = new Set(out.map(({ e }) => e.to));
  const left = new Map<string, Map<string | undefined, number>>();
  for (const r of rebuilt) {
    if (!targets.has(r.to)) continue;
    let labels = left.get(r.to);
    if (labels === undefined) left.set(r.to, (labels = new Map<string | undefined, number>()));
    labels.set(r.when, (labels.get(r.when) ?? 0) + 1);
  }
  for (const { e, j } of out) {
    const labels = e.edgeType === "data" ? left.get(e.to) : undefined;
    const count = labels?.get(e.when) ?? 0;
    if (labels !== undefined && count > 0) {
      labels.set(e.when, count - 1);
      continue;
    }
    warnings.add("edge leaving a decision", () =>
      omitted(
        pointer("edges", j),
        `edge '${e.from}' -> '${e.to}' left out: an import rebuilds the edges leaving a decision from its routes`,
        { from: e.from, to: e.to },
      ),
    );
  }
}

/** Declares what a route carries and no LangGraph edge can: `maxRetries`. */
export function declareRetries(
  nodeId: string,
  i: number,
  routes: readonly DecisionRoute[],
  warnings: ExportWarnings,
): void {
  for (const r of routes) {
    const { maxRetries } = r;
    if (maxRetries !== undefined)
      warnings.add("maxRetries", () =>
        omitted(
          `${pointer("nodes", i, "config")}${r.pointerSuffix}/maxRetries`,
          `decision '${nodeId}': maxRetries has no LangGraph form`,
          { nodeId, maxRetries },
        ),
      );
  }
}

/**
 * Declares the node fields an import would not give back: `decorators`, and every config key
 * whose value differs from `synthesised` (what the importer writes for that node).
 */
export function declareNodeFields(
  node: AgentNode,
  i: number,
  synthesised: Readonly<Record<string, unknown>>,
  format: string,
  warnings: ExportWarnings,
): void {
  if (node.decorators !== undefined)
    warnings.add("decorators", () =>
      omitted(
        pointer("nodes", i, "decorators"),
        `node '${node.id}': decorators have no form in ${format}`,
        { nodeId: node.id },
      ),
    );
  if (node.type === "decision") return;
  for (const [key, value] of Object.entries(node.config))
    if (!Object.hasOwn(synthesised, key) || synthesised[key] !== value)
      warnings.add("node config", () =>
        omitted(
          pointer("nodes", i, "config", key),
          `node '${node.id}': config.${key} left out: ${format} holds no configuration`,
          { nodeId: node.id, key },
        ),
      );
}
