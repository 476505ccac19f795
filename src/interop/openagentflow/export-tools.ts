/**
 * The tool loops an import makes of an agent's `tools` (`import-tools.ts`), found again so that
 * the export writes them back as the agent's `tools`, not as nodes: the decision `<agent>-tools`
 * right after the agent's llm node whose every case calls one tool node that leads back to the
 * agent, and whose `otherwise` is where the agent goes on.
 */
import type { AgentWorkflow, DecisionNode, Route } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { IndexedEdge } from "../edge-index.js";
import { flowEdgesBy } from "../edge-index.js";
import { omitted } from "../warnings.js";
import type { Sink } from "./export-decision.js";
import { exportRoute, isLoopDecision } from "./export-decision.js";
import { oafToolCondition, oafToolRef } from "./ir-types.js";

/** One agent's tool loop, as found in a workflow. */
export interface ToolLoop {
  readonly agent: string;
  /** The tool names, in case order: the agent's `tools`. */
  readonly tools: readonly string[];
  /** The edges the loop is made of (agent → decision, each tool → agent): written as nothing. */
  readonly edges: readonly number[];
  /** The indices of its tool nodes: written as nothing. */
  readonly toolNodes: readonly number[];
  /** Where the agent goes on, and its pointer. */
  readonly otherwise: Route;
  readonly otherwisePath: string;
  /** The `maxRetries` of tool cases, which the IR has no place for. */
  readonly bounds: readonly string[];
}

const TOOL_CASE = /^the agent calls its tool '(.*)'$/s;

/** The tool name a case calls, when it is the import's condition naming it. */
function toolOf(condition: string): string | undefined {
  const name = TOOL_CASE.exec(condition)?.[1];
  return name !== undefined && oafToolCondition(name) === condition ? name : undefined;
}

function loopOf(
  node: DecisionNode,
  i: number,
  agent: string,
  wf: AgentWorkflow,
  index: ReadonlyMap<string, number>,
  edges: {
    readonly into: ReadonlyMap<string, IndexedEdge[]>;
    readonly out: ReadonlyMap<string, IndexedEdge[]>;
  },
): (Omit<ToolLoop, "agent" | "edges"> & { back: number[] }) | undefined {
  const config = node.config;
  if (config.conditionLanguage !== "text" || !("cases" in config)) return undefined;
  const tools: string[] = [];
  const toolNodes: number[] = [];
  const back: number[] = [];
  const bounds: string[] = [];
  for (const [k, c] of config.cases.entries()) {
    const name = toolOf(c.condition);
    const t = index.get(c.next);
    const tool = t === undefined ? undefined : wf.nodes[t];
    const [out, ...more] = edges.out.get(c.next) ?? [];
    if (name === undefined || t === undefined || tool?.type !== "tool") return undefined;
    if (Object.keys(tool).length !== 3 || Object.keys(tool.config).length !== 1) return undefined;
    if (tool.config.usesTool !== oafToolRef(name) || toolNodes.includes(t)) return undefined;
    if (out?.e.to !== agent || more.length > 0 || edges.into.has(c.next)) return undefined;
    if (c.maxRetries !== undefined) bounds.push(pointer("nodes", i, "config", "cases", k));
    tools.push(name);
    toolNodes.push(t);
    back.push(out.j);
  }
  const otherwisePath = pointer("nodes", i, "config", "otherwise");
  return { tools, toolNodes, back, bounds, otherwise: config.otherwise, otherwisePath };
}

/**
 * The tool loops of a workflow, by decision id: each a text decision whose one flow in-edge
 * comes from an agent and whose every case calls a tool node (`usesTool` its
 * `tool:<name>@0.0.0`, nothing else) that has no other way in and leads back to that agent only.
 */
export function findToolLoops(
  wf: AgentWorkflow,
  agents: ReadonlySet<string>,
  into: ReadonlyMap<string, IndexedEdge[]>,
  out: ReadonlyMap<string, IndexedEdge[]>,
): Map<string, ToolLoop> {
  const index = new Map(wf.nodes.map((n, i) => [n.id, i]));
  const found = new Map<string, ToolLoop>();
  wf.nodes.forEach((node, i) => {
    if (node.type !== "decision") return;
    const [only, ...more] = into.get(node.id) ?? [];
    if (only === undefined || more.length > 0 || !agents.has(only.e.from)) return;
    const loop = loopOf(node, i, only.e.from, wf, index, { into, out });
    if (loop === undefined) return;
    const { back, ...rest } = loop;
    found.set(node.id, { ...rest, agent: only.e.from, edges: [only.j, ...back] });
  });
  return found;
}

/** What the export does with the tool loops of a workflow. */
export interface ToolLoops {
  /** Each loop, by its decision's id. */
  readonly loops: ReadonlyMap<string, ToolLoop>;
  /** Each agent's `tools`, from its loop. */
  readonly ofAgent: ReadonlyMap<string, readonly string[]>;
  /** The tool nodes of the loops: written as nothing. */
  readonly skip: ReadonlySet<number>;
  /** A decision reached only through a loop's `otherwise`: it is right after that agent. */
  readonly after: ReadonlyMap<string, string>;
}

/**
 * The tool loops of a workflow, one per agent at most (a second is exported as any decision
 * would be), with their edges added to `consumed`.
 */
export function toolLoopsOf(
  wf: AgentWorkflow,
  agents: ReadonlySet<string>,
  into: ReadonlyMap<string, IndexedEdge[]>,
  consumed: Set<number>,
): ToolLoops {
  const found = findToolLoops(wf, agents, into, flowEdgesBy(wf, "from"));
  const loops = new Map<string, ToolLoop>();
  const ofAgent = new Map<string, readonly string[]>();
  const skip = new Set<number>();
  const after = new Map<string, string>();
  const decisions = new Map(
    wf.nodes.flatMap((n) => (n.type === "decision" ? [[n.id, n] as const] : [])),
  );
  for (const [id, loop] of found) {
    if (ofAgent.has(loop.agent)) continue;
    loops.set(id, loop);
    ofAgent.set(loop.agent, loop.tools);
    for (const t of loop.toolNodes) skip.add(t);
    for (const j of loop.edges) consumed.add(j);
    const next = decisions.get(loop.otherwise.next);
    if (next !== undefined && !isLoopDecision(next) && !into.has(next.id))
      after.set(next.id, loop.agent);
  }
  return { loops, ofAgent, skip, after };
}

/**
 * Writes where an agent goes on after its tool loop: nothing for the end of the run (the agent
 * then ends it, or its other ways out are written), a decision reached only through the loop
 * where that decision stands, any other route as the agent's unconditional transition.
 */
export function goOn(
  loop: ToolLoop,
  after: ReadonlyMap<string, string>,
  agents: ReadonlySet<string>,
  sink: Sink,
  flowsOut: Set<string>,
): void {
  for (const path of loop.bounds)
    sink.warnings.add("tool maxRetries", () =>
      omitted(`${path}/maxRetries`, `maxRetries on a call of an agent's tool has no IR form`, {
        agentId: loop.agent,
      }),
    );
  const { next, maxRetries } = loop.otherwise;
  if (next === "end") return;
  if (after.has(next)) {
    // The decision is written where it stands; the bound of going on into it is the run's.
    if (maxRetries !== undefined)
      sink.bounds.push({ path: `${loop.otherwisePath}/maxRetries`, value: maxRetries });
    return;
  }
  flowsOut.add(loop.agent);
  exportRoute(loop.agent, loop.otherwise, null, loop.otherwisePath, agents, sink);
}
