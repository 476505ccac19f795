/**
 * The decision inserted for an `AgentGraph.addConditionalEdge` edge. Its target is the
 * placeholder `__CONDITIONAL__`: a JS function picks the real one at run time, and the function
 * does not survive serialisation. AgentOS itself then reads the edge as able to lead to every
 * node or `__END__` (its scheduler and validator fan the placeholder out to all of them), so the
 * decision routes to exactly those, each under a FEEL condition that names what is unknown
 * (`route("edge-4") = "summarize"`): valid FEEL outside S-FEEL, so the validator reports
 * `CONDITION_NOT_SIMULABLE` and a simulated run stops there honestly.
 */
import { pointer } from "../../model/index.js";
import { own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import type { Draft, Edge, MappedNode } from "./types.js";
import { CONDITIONAL, END } from "./types.js";

/** Whether an edge is an `addConditionalEdge` placeholder: conditional, to `__CONDITIONAL__`. */
export function isPlaceholder(edge: Edge): boolean {
  return edge.type === "conditional" && edge.target === CONDITIONAL;
}

/** Every node's source id in source order, then `__END__`: what a placeholder may lead to. */
export function anywhere(nodes: ReadonlyMap<string, MappedNode>): string[] {
  return [...nodes.keys(), END];
}

/** The element id of an edge (in errors and warnings): its own `id` when it has one, else its source. */
export function edgeId(edge: Edge): string {
  const id = own(edge.raw, "id");
  return typeof id === "string" ? id : edge.source;
}

/**
 * The FEEL condition of one route: the value the edge's function returns, compared with the
 * source id it would return for that target (what the AgentOS runtime matches on).
 */
export function routeCondition(edgeName: string, target: string): string {
  return `route(${JSON.stringify(edgeName)}) = ${JSON.stringify(target)}`;
}

/**
 * The decision `id` for one placeholder edge of `node`: a case per node (in source order), and
 * `otherwise` the end of the run (the function returned `__END__`, or an id of no node). One
 * `HEURISTIC` warning at the edge's target names the edge and lists the targets assumed.
 */
export function placeholder(
  node: MappedNode,
  edge: Edge,
  id: string,
  targets: readonly string[],
  idOf: (sourceId: string) => string,
  warnings: InteropWarning[],
): Draft {
  const name = edgeId(edge);
  const cases: Draft[] = [];
  for (const target of targets) {
    if (target === END) continue;
    cases.push({ condition: routeCondition(name, target), next: idOf(target) });
  }
  warnings.push(
    guessed(
      pointer("edges", edge.i, "target"),
      `edge '${name}' from '${node.sourceId}' leads to ${CONDITIONAL}: a JS function lost in serialisation picks its target, so it becomes decision '${id}' that may route to every node or the end, never simulable`,
      { edgeId: name, nodeId: node.sourceId, decisionId: id, targets: [...targets] },
    ),
  );
  return { id, type: "decision", config: { cases, otherwise: { next: "end" } } };
}
