/**
 * The OpenAgentFlow export of a decision right after an llm node: its routes become the agent's
 * conditional edges (to agents) and terminals (to `end`); a bounded-loop decision becomes the
 * unconditional transitions it was read from; a route elsewhere, a condition with no IR
 * expression or reading no state variable, and a transition OAF refuses (an agent to itself, a
 * second one between the same two nodes) are declared.
 */
import type { DecisionNode, Route } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { ExportWarnings } from "../warnings.js";
import { feelToCondition } from "./condition.js";
import type { PlannedCase } from "./export-routes.js";
import { identifiersOf, MAX_NEGATIONS, planTransitions } from "./export-routes.js";
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
  /** The state variables written: a condition may read only these. */
  readonly variables: ReadonlySet<string>;
  /** The transitions written, as `source\u0000target` (`end` for a terminal). */
  readonly written: Set<string>;
}

/**
 * Writes one transition of agent `source` to `target` (an agent, or `end`), unless OAF refuses
 * it: its validator refuses an edge from an agent to itself and a second edge between the same
 * two agents, so such a transition is declared at `path` instead. Whether written.
 */
export function writeTransition(
  source: string,
  target: string,
  condition: OafExpr | null,
  path: string,
  sink: Sink,
): boolean {
  // A terminal's key says whether it is conditional: see `exportDecision` on the two terminals.
  const key = `${source}\u0000${target}${target === "end" && condition !== null ? "\u0000?" : ""}`;
  if (target === source || sink.written.has(key)) {
    const why =
      target === source
        ? "OAF refuses an agent's edge to itself (self-loop)"
        : "OAF refuses a second transition between the same two nodes";
    sink.warnings.add("refused transition", () =>
      omitted(path, `transition '${source}' -> '${target}' left out: ${why}`, {
        source,
        target,
        reason: target === source ? "self-loop" : "duplicate",
      }),
    );
    return false;
  }
  sink.written.add(key);
  if (target === "end") sink.terminals.push({ source, condition });
  else sink.edges.push({ source, target, condition });
  return true;
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
  if (route.next === "end" || agents.has(route.next))
    writeTransition(source, route.next, condition, path, sink);
  else if (loop !== undefined && loopTarget(loop.node, agents) !== undefined) {
    // The fallback is a bounded loop: the agent's unconditional transitions back and to end.
    sink.consumedLoops.add(route.next);
    const back = loopTarget(loop.node, agents);
    const at = pointer("nodes", loop.i, "config", "cases", 0);
    const bound = "cases" in loop.node.config ? loop.node.config.cases[0]?.maxRetries : undefined;
    if (bound !== undefined) sink.bounds.push({ path: `${at}/maxRetries`, value: bound });
    writeTransition(source, back ?? "", null, at, sink);
    writeTransition(source, "end", null, pointer("nodes", loop.i, "config", "otherwise"), sink);
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

/** The condition tree of a case, or why it has none (declared at the case). */
function treeOf(
  condition: string,
  text: boolean,
  variables: ReadonlySet<string>,
): OafExpr | { readonly why: string; readonly reads?: string } {
  const tree = text ? undefined : feelToCondition(condition);
  if (tree === undefined) return { why: "it has no IR expression form" };
  const reads = identifiersOf(tree).find((name) => !variables.has(name));
  if (reads !== undefined)
    return { why: `it reads '${reads}', which is not a state variable of the IR`, reads };
  return tree;
}

/**
 * A decision right after agent `source` as that agent's conditional edges and terminals, taking
 * the route agentflow takes (see `export-routes.ts`), then the else route unconditioned.
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
  const otherPath = pointer("nodes", i, "config", "cases" in config ? "otherwise" : "onFalse");
  if (isLoopDecision(node)) {
    for (const { c, path } of cases) exportRoute(source, c, null, path, agents, sink);
    exportRoute(source, otherwise, null, otherPath, agents, sink);
    return;
  }
  const planned: PlannedCase[] = [];
  cases.forEach(({ c, path }, k) => {
    const tree = treeOf(c.condition, text, sink.variables);
    if ("why" in tree) {
      sink.warnings.add("condition", () =>
        omitted(
          path,
          `route of '${node.id}' left out: condition '${c.condition}' has no IR form: ${tree.why}`,
          tree.reads === undefined ? { nodeId: node.id } : { nodeId: node.id, reads: tree.reads },
        ),
      );
      return;
    }
    if (c.maxRetries !== undefined)
      sink.bounds.push({ path: `${path}/maxRetries`, value: c.maxRetries });
    if (c.next === source) writeTransition(source, source, tree, path, sink);
    else if (c.next === "end" || agents.has(c.next)) planned.push({ k, target: c.next, tree });
    else
      sink.warnings.add("route to a non-agent", () =>
        omitted(path, `route to '${c.next}' left out: the IR routes only to agents and end`, {
          next: c.next,
        }),
      );
  });
  // A case to the agent the otherwise goes to is that edge (a second one OAF refuses); a case to
  // `end` keeps its conditional terminal beside the unconditional one, which the adapter reads as
  // written and an import reads back as the same decision.
  const fallback =
    agents.has(otherwise.next) && otherwise.next !== source ? otherwise.next : undefined;
  const transitions = planTransitions(planned, fallback);
  if (transitions === undefined)
    sink.warnings.add("decision", () =>
      omitted(
        pointer("nodes", i, "config"),
        `the cases of '${node.id}' left out: written so that the peer takes the route agentflow takes, they need more than ${MAX_NEGATIONS.toLocaleString("en-US")} negations`,
        { nodeId: node.id },
      ),
    );
  for (const t of transitions ?? []) {
    const at = cases[t.cases[0] ?? 0]?.path ?? otherPath;
    writeTransition(source, t.target, t.condition, at, sink);
  }
  exportRoute(source, otherwise, null, otherPath, agents, sink);
}
