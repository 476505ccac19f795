/**
 * A decision back to a flowchart `decision` (or `user`) turn. The importer reads edges e1..en
 * as: n = 1, both routes to e1; n = 2, binary (e1 on true, e2 on false); n ≥ 3, cases and an
 * otherwise; each `when` but the last is a condition. This writes the routes so that they read
 * back the same, and the edges leaving the decision (documentation) so that they do too where
 * the routes allow it; the others are declared.
 */
import type { DecisionNode, DecisionRoute } from "../../model/index.js";
import { decisionRoutes, pointer } from "../../model/index.js";
import type { IndexedEdge } from "../edge-index.js";
import { appendTo } from "../edge-index.js";
import type { ExportContext } from "./export-context.js";
import { omitted } from "../warnings.js";
import { keptTerminal, terminalFor } from "./export-context.js";
import { choiceCondition, defaultCondition } from "./choice.js";
import type { Agent2ModelDocumentEdge, Agent2ModelDocumentTurn, Agent2ModelRole } from "./types.js";

/** Whether the routes are one edge in the flowchart: two routes to the same place. */
function isSingle(
  ctx: ExportContext,
  node: DecisionNode,
  routes: readonly DecisionRoute[],
  out: readonly IndexedEdge[],
): boolean {
  const [first, second] = routes;
  if (first === undefined) return false;
  if (second === undefined) return true;
  if (routes.length !== 2 || first.next !== second.next) return false;
  if (first.next !== "end") return out.filter(({ e }) => e.to === first.next).length <= 1;
  const kept = ctx.exits.get(node.id);
  const terminalOf = (label: string): string | undefined => kept?.get(label)?.terminal;
  return terminalOf(first.label) === terminalOf(second.label);
}

/** Takes an unused out-edge to a target, marking it used; `exact` also matches its label. */
type Take = (to: string, when: string | undefined, exact: boolean) => IndexedEdge | undefined;

/**
 * A {@link Take} over `out` that gives the first unused edge in edge order. The edges are grouped
 * by target (and by target and label) once, and each group is walked past its used edges once
 * in all, so a decision with many routes and many edges stays linear.
 */
function taker(out: readonly IndexedEdge[], used: Set<number>): Take {
  const byTo = new Map<string, IndexedEdge[]>();
  const byLabel = new Map<string, Map<string | undefined, IndexedEdge[]>>();
  for (const edge of out) {
    appendTo(byTo, edge.e.to, edge);
    let labels = byLabel.get(edge.e.to);
    if (labels === undefined)
      byLabel.set(edge.e.to, (labels = new Map<string | undefined, IndexedEdge[]>()));
    appendTo(labels, edge.e.when, edge);
  }
  const skipped = new Map<readonly IndexedEdge[], number>();
  return (to, when, exact) => {
    const list = exact ? byLabel.get(to)?.get(when) : byTo.get(to);
    if (list === undefined) return undefined;
    let k = skipped.get(list) ?? 0;
    while (k < list.length && used.has(list[k]?.j ?? -1)) k += 1;
    skipped.set(list, k);
    const found = list[k];
    if (found !== undefined) used.add(found.j);
    return found;
  };
}

/** The label the importer kept for a way out to a terminal, when the terminal is the one kept. */
function keptWhen(
  ctx: ExportContext,
  from: string,
  route: string | undefined,
  terminal: string,
): string | undefined {
  const exit = ctx.exits.get(from)?.get(route);
  return exit?.terminal === terminal ? exit.when : undefined;
}

/**
 * Writes a decision node as a turn. `role` is `user` when the importer kept it as a user turn
 * with its prompt, else `decision`. Never throws.
 */
export function decisionTurn(
  ctx: ExportContext,
  node: DecisionNode,
  i: number,
): Agent2ModelDocumentTurn {
  const at = (suffix: string): string => `${pointer("nodes", i, "config")}${suffix}`;
  const kept = ctx.kept.nodes.get(node.id);
  const role: Agent2ModelRole =
    kept?.role === "user" && kept.prompt !== undefined ? "user" : "decision";
  if (node.config.conditionLanguage !== "text")
    ctx.warnings.add("FEEL conditions", () =>
      omitted(
        at("/conditionLanguage"),
        `decision '${node.id}': its FEEL conditions are written as natural-language 'when' texts; an import reads them as text (never simulable)`,
        { nodeId: node.id },
      ),
    );
  const routes = decisionRoutes(node.config);
  for (const r of routes) {
    const { maxRetries } = r;
    if (maxRetries !== undefined)
      ctx.warnings.add("maxRetries", () =>
        omitted(
          at(`${r.pointerSuffix}/maxRetries`),
          `decision '${node.id}': maxRetries has no flowchart form`,
          { nodeId: node.id, maxRetries },
        ),
      );
  }
  const out = ctx.out.get(node.id) ?? [];
  const used = new Set<number>();
  const take = taker(out, used);
  const targetOf = (r: DecisionRoute): string => {
    if (r.next === "end") return terminalFor(ctx, node.id, r.label, () => at(r.pointerSuffix));
    const key = ctx.keys.get(r.next);
    if (key !== undefined) return key;
    ctx.warnings.add("route to a non-node", () =>
      omitted(
        at(`${r.pointerSuffix}/next`),
        `decision '${node.id}': route to '${r.next}', which is not a node, ends the run instead`,
        { nodeId: node.id, next: r.next },
      ),
    );
    return terminalFor(ctx, node.id, r.label, () => at(r.pointerSuffix));
  };
  const next: Agent2ModelDocumentEdge[] = [];
  const [first] = routes;
  if (first === undefined) {
    ctx.warnings.add("no route", () =>
      omitted(
        pointer("nodes", i, "config"),
        `decision '${node.id}' has no route; it is written as the end of the run`,
        { nodeId: node.id },
      ),
    );
    next.push({ to: terminalFor(ctx, node.id, undefined, () => pointer("nodes", i)) });
  } else if (isSingle(ctx, node, routes, out)) {
    const to = targetOf(first);
    const condition = first.condition ?? "";
    const when =
      condition === defaultCondition(role, to) || condition === "" ? undefined : condition;
    if (first.next !== "end") take(first.next, when, true);
    // Both exits of a single edge to a terminal go to it: keep the second one's record too.
    if (routes[1] !== undefined && first.next === "end")
      keptTerminal(ctx, node.id, routes[1].label);
    next.push(when === undefined ? { to } : { to, when });
  } else {
    routes.forEach((r, k) => {
      const to = targetOf(r);
      if (k < routes.length - 1) {
        const condition = r.condition ?? "";
        // An edge without `when` among several reads back as this condition.
        const when = condition === choiceCondition(to) ? undefined : condition;
        if (r.next !== "end") take(r.next, when, true);
        next.push(when === undefined ? { to } : { to, when });
        return;
      }
      // The last route holds no condition: an edge's label lives on the workflow's edge to its
      // target, or, for a terminal, in the exit the importer kept.
      const when =
        r.next === "end"
          ? keptWhen(ctx, node.id, r.label, to)
          : take(r.next, undefined, false)?.e.when;
      next.push(when === undefined ? { to } : { to, when });
    });
  }
  for (const { e, j } of out)
    if (!used.has(j))
      ctx.warnings.add("edge leaving a decision", () =>
        omitted(
          pointer("edges", j),
          `edge '${e.from}' -> '${e.to}' left out: an import rebuilds the edges leaving a decision from its routes`,
          { from: e.from, to: e.to },
        ),
      );
  const turn = { role, next };
  return role === "user" && kept?.prompt !== undefined ? { ...turn, prompt: kept.prompt } : turn;
}
