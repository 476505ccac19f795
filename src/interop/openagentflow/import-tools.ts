/**
 * An agent's in-agent `tools` as the steps they are. The IR lists the tools an agent may call
 * while it runs; which it calls, and how often, is the model's choice, and nothing in the IR bounds
 * it. Dropping them read an agent that can wire money as pure reasoning, so each becomes a tool
 * node on `tool:<name>@0.0.0`, whose contract decides its effect (no contract: unknown, strict),
 * reached the way `createReactAgent` is read from LangGraph: after the agent's llm node, the text
 * decision `<agent>-tools` picks one of its tools (the tool then leads back to the agent) or goes
 * on. Declared at `/agents/<i>/tools`.
 */
import { isValidRef, pointer } from "../../model/index.js";
import { toolLoop } from "../tool-loop.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import { fail, oafToolCondition, oafToolRef } from "./ir-types.js";

/** The agent whose tools are wired, and the nodes and edges its transitions were read into. */
export interface ToolWiring {
  readonly agentId: string;
  /** The agent's index in `agents`, for the warning's path. */
  readonly index: number;
  readonly from: string;
  readonly tools: readonly string[];
  /** The nodes after the agent's llm node (its route or loop decisions). */
  readonly nodes: readonly unknown[];
  /** The edges the agent's transitions became, every one leaving the agent's llm node. */
  readonly edges: readonly Record<string, unknown>[];
  /** A fresh node id for `wanted`. */
  readonly allocate: (wanted: string) => string;
  /**
   * `max_iterations` when the node the agent goes on to leads back to it (the loop the run's
   * bound bounds), else `undefined`.
   */
  readonly bound: (next: string) => number | undefined;
  readonly warnings: InteropWarning[];
}

/** Refuses a tool name that is empty or forms no tool ref, at its path, naming the agent. */
export function checkToolNames(
  tools: readonly string[],
  at: readonly (string | number)[],
  agentId: string,
): void {
  tools.forEach((name, k) => {
    if (name === "" || !isValidRef(oafToolRef(name)))
      throw fail(
        pointer(...at, "tools", k),
        `tool ${JSON.stringify(name)} does not form a valid tool ref`,
        agentId,
      );
  });
}

/**
 * The agent's transitions with its tool loop in front: the edge that left the agent now leaves
 * the decision `<agent>-tools` as its `otherwise` (or `end` when the agent ended the run), each
 * tool is a case to its tool node, and each tool node leads back to the agent. An agent with
 * several ways out (a fan-out) keeps them: the loop is one more branch, which ends when the agent
 * calls no more tools, since a decision routes to one node.
 */
export function wireTools(w: ToolWiring): {
  nodes: unknown[];
  edges: unknown[];
  boundUsed: boolean;
} {
  if (w.tools.length === 0) return { nodes: [...w.nodes], edges: [...w.edges], boundUsed: false };
  const id = w.allocate(`${w.from}-tools`);
  const tools = w.tools.map((name) => ({
    id: w.allocate(`${w.from}-${name}`),
    ref: oafToolRef(name),
    condition: oafToolCondition(name),
  }));
  // Going on into a loop is a way back to the agent: the run's bound bounds it, as every route
  // back into a loop (the tool calls themselves have no bound in the IR).
  const loop = toolLoop({
    from: w.from,
    decisionId: id,
    tools,
    targets: w.edges.map((e) => String(e.to)),
    otherwiseMax: w.bound,
  });
  const { sequential, next } = loop;
  const names = w.tools.map((t) => `'${t}'`).join(", ");
  const after = sequential
    ? next === "end"
      ? "or ends the run"
      : `or goes on to '${next}'`
    : "or ends that branch (the agent's other ways out are a fan-out beside it)";
  const message = `agent '${w.agentId}' can call ${names} while it runs: read as the text decision '${id}' after it, which calls one tool (each a tool node whose contract decides its effect, then back to the agent) ${after}; the IR does not say which tools it calls or bound how often`;
  w.warnings.push(
    guessed(pointer("agents", w.index, "tools"), message, {
      agentId: w.agentId,
      tools: [...w.tools],
      decisionId: id,
      toolNodes: tools.map((t) => t.id),
      assumed: w.tools.map(oafToolRef),
    }),
  );
  return {
    nodes: [...loop.nodes, ...w.nodes],
    edges: sequential ? [loop.into, ...loop.back] : [...w.edges, loop.into, ...loop.back],
    boundUsed: loop.onBound !== undefined,
  };
}
