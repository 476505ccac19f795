/**
 * The OpenAgentFlow export of a decision right after an llm node: its routes become the agent's
 * conditional edges (to agents) and terminals (to `end`); a bounded-loop decision becomes the
 * unconditional transitions it was read from; a route elsewhere, or a condition with no IR
 * expression, is declared.
 */
import type { DecisionNode, Route } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { ExportWarnings } from "../warnings.js";
import { feelToCondition } from "./condition.js";
import type { OafEdge, OafExpr, OafTerminal } from "./ir-types.js";
import { OAF_LOOP_CONDITION } from "./ir-types.js";
import { omitted } from "../warnings.js";

/** Where a decision's routes go: IR edges and terminals, `maxRetries` bounds, warnings. */
export interface Sink {
  readonly edges: OafEdge[];
  readonly terminals: OafTerminal[];
  readonly bounds: { readonly path: string; readonly value: number }[];
  readonly warnings: ExportWarnings;
  /** The bounded-loop decisions of the workflow (see {@link isLoopDecision}), by id. */
  readonly loops: ReadonlyMap<string, { readonly node: DecisionNode; readonly i: number }>;
  /** The loop decisions written as the fallback of another decision: they need no warning. */
  readonly consumedLoops: Set<string>;
}

/**
 * Whether a decision is the bounded loop an import reads where an agent continues
 * unconditionally both back into a loop and to `end` (`OAF_LOOP_CONDITION`): its one case is
 * written back as that unconditional edge, its `otherwise` (the end) as that terminal.
 */
export function isLoopDecision(node: DecisionNode): boolean {
  const config = node.config;
  return (
    config.conditionLanguage === "text" &&
    "cases" in config &&
    config.cases.length === 1 &&
    config.cases[0]?.condition === OAF_LOOP_CONDITION &&
    config.otherwise.next === "end"
  );
}

/**
 * One route of a decision right after agent `source`: a conditional edge (to an agent), a
 * terminal (to `end`), or the bounded loop's two transitions; any other target is declared.
 */
export function exportRoute(
  source: string,
  route: Route,
  condition: OafExpr | null,
  path: string,
  agents: ReadonlySet<string>,
  sink: Sink,
): void {
  if (route.maxRetries !== undefined)
    sink.bounds.push({ path: `${path}/maxRetries`, value: route.maxRetries });
  const loop = condition === null ? sink.loops.get(route.next) : undefined;
  if (route.next === "end") sink.terminals.push({ source, condition });
  else if (agents.has(route.next)) sink.edges.push({ source, target: route.next, condition });
  else if (loop !== undefined && loopTarget(loop.node, agents) !== undefined) {
    // The fallback is a bounded loop: the agent's unconditional transitions back and to end.
    sink.consumedLoops.add(route.next);
    const back = loopTarget(loop.node, agents);
    const at = pointer("nodes", loop.i, "config", "cases", 0);
    const bound = "cases" in loop.node.config ? loop.node.config.cases[0]?.maxRetries : undefined;
    if (bound !== undefined) sink.bounds.push({ path: `${at}/maxRetries`, value: bound });
    sink.edges.push({ source, target: back ?? "", condition: null });
    sink.terminals.push({ source, condition: null });
  } else
    sink.warnings.add("route to a non-agent", () =>
      omitted(path, `route to '${route.next}' left out: the IR routes only to agents and end`, {
        next: route.next,
      }),
    );
}

/** The agent a bounded-loop decision goes back to, when it goes back to an agent. */
function loopTarget(node: DecisionNode, agents: ReadonlySet<string>): string | undefined {
  const next = "cases" in node.config ? node.config.cases[0]?.next : undefined;
  return next !== undefined && agents.has(next) ? next : undefined;
}

/**
 * A decision right after agent `source` as that agent's conditional edges and terminals: each
 * case with a FEEL condition the IR can express, then the else route unconditioned.
 */
export function exportDecision(
  node: DecisionNode,
  i: number,
  source: string,
  agents: ReadonlySet<string>,
  sink: Sink,
): void {
  const config = node.config;
  const text = config.conditionLanguage === "text";
  const cases =
    "cases" in config
      ? config.cases.map((c, j) => ({ c, path: pointer("nodes", i, "config", "cases", j) }))
      : [
          {
            c: { ...config.onTrue, condition: config.condition },
            path: pointer("nodes", i, "config", "onTrue"),
          },
        ];
  const otherwise = "cases" in config ? config.otherwise : config.onFalse;
  const loop = isLoopDecision(node);
  for (const { c, path } of cases) {
    const tree = loop ? null : text ? undefined : feelToCondition(c.condition);
    if (tree === undefined) {
      sink.warnings.add("condition", () =>
        omitted(
          path,
          `route of '${node.id}' left out: condition '${c.condition}' has no IR expression form`,
          { nodeId: node.id },
        ),
      );
      continue;
    }
    exportRoute(source, c, tree, path, agents, sink);
  }
  const otherPath = pointer("nodes", i, "config", "cases" in config ? "otherwise" : "onFalse");
  exportRoute(source, otherwise, null, otherPath, agents, sink);
}
