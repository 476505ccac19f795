/**
 * The OpenAgentFlow export of a decision right after an llm node: its routes become the agent's
 * conditional edges (to agents) and terminals (to `end`); a route elsewhere, or a condition with
 * no IR expression, is declared.
 */
import type { DecisionNode, Route } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { NOT_EXPORTABLE } from "../types.js";
import type { ExportWarnings } from "../warnings.js";
import { feelToCondition } from "./condition.js";
import type { OafEdge, OafExpr, OafTerminal } from "./ir-types.js";

/** The warning that declares a construct the IR cannot hold. */
export function omitted(
  path: string,
  message: string,
  data: Record<string, unknown> = {},
): InteropWarning {
  return { code: NOT_EXPORTABLE, message, path, data };
}

/** Where a decision's routes go: IR edges and terminals, `maxRetries` bounds, warnings. */
export interface Sink {
  readonly edges: OafEdge[];
  readonly terminals: OafTerminal[];
  readonly bounds: { readonly path: string; readonly value: number }[];
  readonly warnings: ExportWarnings;
}

function exportRoute(
  source: string,
  route: Route,
  condition: OafExpr | null,
  path: string,
  agents: ReadonlySet<string>,
  sink: Sink,
): void {
  if (route.maxRetries !== undefined)
    sink.bounds.push({ path: `${path}/maxRetries`, value: route.maxRetries });
  if (route.next === "end") sink.terminals.push({ source, condition });
  else if (agents.has(route.next)) sink.edges.push({ source, target: route.next, condition });
  else
    sink.warnings.add("route to a non-agent", () =>
      omitted(path, `route to '${route.next}' left out: the IR routes only to agents and end`, {
        next: route.next,
      }),
    );
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
  for (const { c, path } of cases) {
    const tree = text ? undefined : feelToCondition(c.condition);
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
