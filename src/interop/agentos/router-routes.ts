/**
 * A router's out-edges → the routes of its decision. AgentOS 0.9.164 runs the target the router
 * names and marks skipped only its other targets (`skipped.ts` leads each route on past them); a
 * `__CONDITIONAL__` edge adds every node and `__END__` as targets, declared.
 */
import { pointer } from "../../model/index.js";
import { isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import { edgeId, isPlaceholder } from "./conditional.js";
import type { Choice, Draft, Edge, MappedNode, Resolve } from "./types.js";
import { CONDITIONAL, END, fail } from "./types.js";

/** What mapping a node's out-edges needs besides the edges: end resolution and every target. */
export interface Ends {
  readonly resolve: Resolve;
  /** Every node's source id in source order, then `__END__`: a placeholder's possible targets. */
  readonly targets: readonly string[];
  /** The workflow id of a node's source id. */
  readonly idOf: (sourceId: string) => string;
}

/**
 * The targets of a router's out-edges, in edge order, then those a `__CONDITIONAL__` edge adds:
 * it stands for every target AgentOS itself assumes for it (every node, then `__END__`), each
 * once, declared.
 */
function routerTargets(
  node: MappedNode,
  group: readonly Edge[],
  ends: Ends,
  warnings: InteropWarning[],
): { readonly edge: Edge; readonly target: string }[] {
  const seen = new Set<string>();
  const list: { edge: Edge; target: string }[] = [];
  for (const edge of group) {
    if (!isPlaceholder(edge)) {
      seen.add(edge.target);
      list.push({ edge, target: edge.target });
    }
  }
  for (const edge of group) {
    if (!isPlaceholder(edge)) continue;
    warnings.push(
      guessed(
        pointer("edges", edge.i, "target"),
        `edge '${edgeId(edge)}' of router '${node.sourceId}' leads to ${CONDITIONAL}: its target is picked at run time, so the router may route to every node or ${END}`,
        { edgeId: edgeId(edge), nodeId: node.sourceId, targets: [...ends.targets] },
      ),
    );
    for (const target of ends.targets) {
      if (seen.has(target)) continue;
      seen.add(target);
      list.push({ edge, target });
    }
  }
  return list;
}

/**
 * Fills in a router's decision: a text route per target, `otherwise` for the last, and a data
 * edge to each node target (documentation). Returns the choice, whose routes lead on past the
 * targets they skip (`skipped.ts`).
 */
export function routes(
  node: MappedNode,
  group: readonly Edge[],
  ends: Ends,
  edges: Draft[],
  warnings: InteropWarning[],
): Choice | undefined {
  const from = node.nodeId;
  const { resolve } = ends;
  const targets = routerTargets(node, group, ends, warnings).map(({ edge, target }) => {
    if (edge.type !== "static" && edge.type !== "conditional") {
      throw fail(
        pointer("edges", edge.i, "type"),
        `router '${node.sourceId}' has a ${edge.type} edge; a router's out-edges must be static or conditional`,
        node.sourceId,
      );
    }
    const cond = own(edge.raw, "condition");
    const expr =
      isRecord(cond) && own(cond, "type") === "expression" ? own(cond, "expr") : undefined;
    if (cond !== undefined && !isPlaceholder(edge)) {
      warnings.push(
        guessed(
          pointer("edges", edge.i, "condition"),
          `edge ${edge.i}: its condition is read as part of the text condition of router '${node.sourceId}', never simulable`,
          { nodeId: node.sourceId },
        ),
      );
    }
    const next = resolve(target, edge);
    if (next !== "end") edges.push({ from, to: next, edgeType: "data" });
    const text =
      `router '${node.sourceId}' picks '${target}'` +
      (node.routerExpr === undefined ? "" : ` (router condition: ${node.routerExpr})`) +
      (typeof expr === "string" ? ` (edge condition: ${expr})` : "");
    const route: Draft = { condition: text, next };
    return route;
  });
  const last = targets.pop();
  if (last === undefined) return undefined;
  const cases = targets.length === 0 ? [last] : targets;
  const otherwise: Draft = { next: last.next };
  node.node.config = { conditionLanguage: "text", cases, otherwise };
  return {
    node,
    decisionId: from,
    label: `router '${node.sourceId}'`,
    targets: group.filter((edge) => !isPlaceholder(edge)).map((edge) => resolve(edge.target, edge)),
    routes: [...cases, otherwise],
    documentedAt: edges.length,
  };
}
