/**
 * The edge walk the two LangGraph exports share: each workflow edge, in order, becomes a plain
 * edge between steps, or (the edge into a decision written as conditional edges) that decision's
 * routes; what has no LangGraph form is declared; each step with no successor gets an edge into
 * `__end__`. What an edge looks like is the format's own, given as an {@link EdgeWriter}.
 */
import type { AgentEdge, AgentWorkflow, DecisionNode } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { ExportWarnings } from "../warnings.js";
import type { Attachment } from "./export-plan.js";
import { omitted } from "../warnings.js";
import { declareNodeFields } from "./export-plan.js";

/** How one LangGraph export writes its edges. */
export interface EdgeWriter<E> {
  /** The format, for messages (`LangGraph`, `the spec`). */
  readonly format: string;
  /** The conditional edges of the decision attached to `from`, written where its in-edge stood. */
  routed(from: string): readonly E[];
  /** A plain edge between steps; declares itself what of `e` the format cannot hold. */
  plain(e: AgentEdge, j: number): E;
  /** The edge from a step without successors into `__end__`. */
  end(from: string): E;
}

/** The edges in workflow order, and the edges into `__end__` that follow everything else. */
export interface WrittenEdges<E> {
  readonly edges: E[];
  readonly ends: E[];
}

/**
 * Walks `wf.edges`. Edges leaving a decision are skipped: they are documentation, declared with
 * the decision's routes. Never throws.
 */
export function writeEdges<E>(
  wf: AgentWorkflow,
  plan: ReadonlyMap<string, Attachment>,
  writer: EdgeWriter<E>,
  warnings: ExportWarnings,
): WrittenEdges<E> {
  const steps = new Set(wf.nodes.filter((n) => !plan.has(n.id)).map((n) => n.id));
  const decisions = new Set(wf.nodes.filter((n) => n.type === "decision").map((n) => n.id));
  const edges: E[] = [];
  const flows = new Set<string>();
  wf.edges.forEach((e, j) => {
    if (e.edgeType === "delegate") {
      warnings.add("delegate edge", () => {
        const message = `delegate edge '${e.from}' -> '${e.to}' left out: ${writer.format} has no delegation`;
        return omitted(pointer("edges", j), message, { from: e.from, to: e.to });
      });
      return;
    }
    if (plan.get(e.to)?.edge === j) {
      flows.add(e.from);
      for (const routed of writer.routed(e.from)) edges.push(routed);
      return;
    }
    if (!steps.has(e.from) || decisions.has(e.from)) return;
    if (!steps.has(e.to)) {
      warnings.add("edge to a non-step", () => {
        const message = `edge '${e.from}' -> '${e.to}' left out: '${e.to}' is not a step`;
        return omitted(pointer("edges", j), message, { from: e.from, to: e.to });
      });
      return;
    }
    const written = writer.plain(e, j);
    if (e.edgeType === "toolCall")
      warnings.add("toolCall edge", () => {
        const message = `edge '${e.from}' -> '${e.to}': toolCall is written as a plain edge`;
        return omitted(pointer("edges", j, "edgeType"), message);
      });
    flows.add(e.from);
    edges.push(written);
  });
  const ends = wf.nodes
    .filter((n) => steps.has(n.id) && !decisions.has(n.id) && !flows.has(n.id))
    .map((n) => writer.end(n.id));
  return { edges, ends };
}

/**
 * Declares what a decision written as conditional edges loses: its id when it is not the one an
 * import gives the router of its step (`<step>.route`, `start.route` on `__start__`), its name,
 * its decorators, and the label of the edge into it.
 */
export function declareAttached(
  node: DecisionNode,
  i: number,
  place: Attachment,
  wf: AgentWorkflow,
  warnings: ExportWarnings,
): void {
  const expected = `${place.source ?? "start"}.route`;
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  const data = { nodeId: node.id };
  if (node.id !== expected)
    warnings.add("router id", () => {
      const message = `decision id '${node.id}' left out: it is the router of '${place.source ?? "__start__"}', which an import names '${expected}'`;
      return omitted(at("id"), message, { ...data, assumed: expected });
    });
  if (node.name !== undefined)
    warnings.add("router name", () => {
      const message = `decision '${node.id}': name left out: a router has none`;
      return omitted(at("name"), message, data);
    });
  declareNodeFields(node, i, {}, "LangGraph", warnings);
  const into = place.edge === undefined ? undefined : wf.edges[place.edge];
  const j = place.edge;
  if (into?.when !== undefined && j !== undefined) {
    const { from, to, when } = into;
    warnings.add("router edge label", () => {
      const message = `edge '${from}' -> '${to}': label left out: it becomes the router's conditional edges`;
      return omitted(pointer("edges", j, "when"), message, { when });
    });
  }
}
