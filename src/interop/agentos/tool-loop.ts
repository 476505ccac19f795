/**
 * The tool loop every AgentOS gmi node runs. AgentOS's runtime does not read `executionMode`: a
 * gmi node runs `loopController.execute({ maxIterations: maxInternalIterations ?? 10 })`, in which
 * the model may call any tool the host's ToolOrchestrator runs (the seed: "the step runs the same
 * bounded tool loop as any gmi node"). The IR names none of those tools, so the loop is read as
 * one stand-in: after the gmi's llm node, the text decision `<id>.tools` calls the tool node
 * `<id>.tool` on {@link AGENTOS_TOOLS} (back to the llm node) at most `maxInternalIterations`
 * times, or goes on. No registry resolves that ref unless a contract states what the host's tools
 * may do, so by default its effect is unknown and the verdict strict. The export reads the loop
 * back into the gmi node (`unfoldToolLoops`).
 */
import type { AgentWorkflow, DecisionNode } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { flowEdgesBy } from "../edge-index.js";
import { allocateId } from "../ids.js";
import { toolLoop } from "../tool-loop.js";
import type { Draft } from "./types.js";

/** The contract ref of the tools a gmi node's loop may call: whatever the host runs. */
export const AGENTOS_TOOLS = "tool:agentos.tools@1.0.0";
/** The condition of the loop's one case: the model's choice, so natural language. */
export const AGENTOS_TOOL_CONDITION = "the model calls a tool the host runs";
/** AgentOS's bound on a gmi node's loop when `maxInternalIterations` is not set. */
export const DEFAULT_ITERATIONS = 10;

/** A gmi node's loop to wire: its llm node's id and the loop's bound (none: unbounded). */
export interface GmiLoop {
  readonly nodeId: string;
  readonly max: number | undefined;
}

/**
 * Puts each gmi node's loop after its llm node: the one edge that left it now leaves the
 * decision as its `otherwise` (`end` when none did); a node with several ways out keeps them and
 * the loop is one more branch, ending when the model calls no more tools. The decision and tool
 * node follow the llm node in node order.
 */
export function wireToolLoops(
  nodes: readonly Draft[],
  edges: readonly Draft[],
  loops: readonly GmiLoop[],
  taken: Set<string>,
): { nodes: Draft[]; edges: Draft[] } {
  const out = new Map<string, number[]>();
  edges.forEach((e, j) => {
    const list = out.get(String(e.from)) ?? [];
    list.push(j);
    out.set(String(e.from), list);
  });
  const after = new Map<string, readonly Draft[]>();
  const replaced = new Map<number, Draft>();
  const added: Draft[] = [];
  for (const { nodeId, max } of loops) {
    const own = out.get(nodeId) ?? [];
    const loop = toolLoop({
      from: nodeId,
      decisionId: allocateId(`${nodeId}.tools`, taken),
      tools: [
        {
          id: allocateId(`${nodeId}.tool`, taken),
          ref: AGENTOS_TOOLS,
          condition: AGENTOS_TOOL_CONDITION,
          maxRetries: max,
        },
      ],
      targets: own.map((j) => String(edges[j]?.to)),
    });
    after.set(nodeId, loop.nodes);
    const [only] = own;
    if (loop.sequential && only !== undefined) replaced.set(only, loop.into);
    else added.push(loop.into);
    added.push(...loop.back);
  }
  return {
    nodes: nodes.flatMap((n) => [n, ...(after.get(String(n.id)) ?? [])]),
    edges: [...edges.map((e, j) => replaced.get(j) ?? e), ...added],
  };
}

/** A gmi node's loop found in a workflow: its llm node and bound, and where the bound is. */
export interface FoundLoop {
  readonly max: number | undefined;
  /** The pointer of the loop's case, for what the IR cannot write of it. */
  readonly casePath: string;
}

function loopOf(
  node: DecisionNode,
  wf: AgentWorkflow,
  index: ReadonlyMap<string, number>,
  into: ReadonlyMap<string, { e: { from: string }; j: number }[]>,
  out: ReadonlyMap<string, { e: { to: string }; j: number }[]>,
): { llm: string; tool: number; edges: number[]; max: number | undefined } | undefined {
  const config = node.config;
  if (config.conditionLanguage !== "text" || !("cases" in config)) return undefined;
  const [call, ...more] = config.cases;
  if (call === undefined || more.length > 0 || call.condition !== AGENTOS_TOOL_CONDITION)
    return undefined;
  const [inEdge, ...moreIn] = into.get(node.id) ?? [];
  const t = index.get(call.next);
  const tool = t === undefined ? undefined : wf.nodes[t];
  const [back, ...moreBack] = out.get(call.next) ?? [];
  const llm = inEdge?.e.from;
  const llmNode = llm === undefined ? undefined : wf.nodes[index.get(llm) ?? -1];
  if (inEdge === undefined || moreIn.length > 0 || llmNode?.type !== "llm") return undefined;
  if (t === undefined || tool?.type !== "tool" || Object.keys(tool).length !== 3) return undefined;
  if (Object.keys(tool.config).length !== 1 || tool.config.usesTool !== AGENTOS_TOOLS)
    return undefined;
  if (back === undefined || moreBack.length > 0 || back.e.to !== llm || into.has(call.next))
    return undefined;
  return { llm, tool: t, edges: [inEdge.j, back.j], max: call.maxRetries };
}

/** A workflow with its gmi loops read back into the llm nodes, and where everything was. */
export interface Unfolded {
  readonly wf: AgentWorkflow;
  /** Each llm node with a loop, by id. */
  readonly loops: ReadonlyMap<string, FoundLoop>;
  /** The original index of each node and edge of `wf`. */
  readonly nodeIndex: readonly number[];
  readonly edgeIndex: readonly number[];
}

/**
 * The workflow without the gmi loops an import made: each decision that calls only a tool node
 * on {@link AGENTOS_TOOLS} which leads back to the one llm node leading into it is taken out with
 * its tool node; the llm node's edge into it goes where its `otherwise` goes (none for `end`).
 */
export function unfoldToolLoops(wf: AgentWorkflow): Unfolded {
  const index = new Map<string, number>();
  wf.nodes.forEach((n, i) => {
    if (!index.has(n.id)) index.set(n.id, i);
  });
  const into = flowEdgesBy(wf, "to");
  const out = flowEdgesBy(wf, "from");
  const loops = new Map<string, FoundLoop>();
  const dropNodes = new Set<number>();
  const rewired = new Map<number, string | undefined>();
  wf.nodes.forEach((node, i) => {
    if (node.type !== "decision") return;
    const loop = loopOf(node, wf, index, into, out);
    if (loop === undefined || loops.has(loop.llm)) return;
    const casePath = pointer("nodes", i, "config", "cases", 0);
    loops.set(loop.llm, { max: loop.max, casePath });
    dropNodes.add(i).add(loop.tool);
    const [inEdge, back] = loop.edges;
    const next = "cases" in node.config ? node.config.otherwise.next : "end";
    if (inEdge !== undefined) rewired.set(inEdge, next === "end" ? undefined : next);
    if (back !== undefined) rewired.set(back, undefined);
  });
  if (loops.size === 0)
    return {
      wf,
      loops,
      nodeIndex: wf.nodes.map((_n, i) => i),
      edgeIndex: wf.edges.map((_e, j) => j),
    };
  const nodeIndex = wf.nodes.flatMap((_n, i) => (dropNodes.has(i) ? [] : [i]));
  const edgeIndex = wf.edges.flatMap((_e, j) =>
    rewired.has(j) && rewired.get(j) === undefined ? [] : [j],
  );
  const edges = edgeIndex.map((j) => {
    const e = wf.edges[j];
    const to = rewired.get(j);
    return e === undefined || to === undefined ? e : { ...e, to };
  });
  const nodes = nodeIndex.map((i) => wf.nodes[i]);
  return {
    wf: {
      ...wf,
      nodes: nodes.filter((n) => n !== undefined),
      edges: edges.filter((e) => e !== undefined),
    },
    loops,
    nodeIndex,
    edgeIndex,
  };
}
