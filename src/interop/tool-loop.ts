/**
 * A tool loop an importer reads into a step: the formats that let a model call tools while one
 * node runs (an OpenAgentFlow agent's `tools`, every AgentOS gmi node) say nothing of which tool
 * it calls or how often, so the loop becomes the steps it is. After the node, a text decision
 * calls one tool node (each leading back to the node) or goes on, and each tool's contract
 * decides its effect. What the loop may call, and what bounds it, is the format's to say.
 */

/** One tool the loop may call: its node, its contract ref, and the case that calls it. */
export interface LoopTool {
  readonly id: string;
  readonly ref: string;
  readonly condition: string;
  /** The format's bound on calls of this tool; none when it bounds none. */
  readonly maxRetries?: number | undefined;
}

/** What a loop adds: its decision and tool nodes, the edge into it and the edges back. */
export interface ToolLoop {
  readonly nodes: readonly Record<string, unknown>[];
  /** The edge from the node to the decision. */
  readonly into: Record<string, unknown>;
  /** One edge from each tool node back to the node. */
  readonly back: readonly Record<string, unknown>[];
  /**
   * Whether the node had one way out (or none), which the decision's `otherwise` now takes, so
   * the edge that left the node is replaced by {@link ToolLoop.into}. Otherwise the node's ways
   * out (a fan-out) stay beside the loop, which ends its branch when the model calls no tool.
   */
  readonly sequential: boolean;
  /** Where the decision goes on to: the node's one way out, or `end`. */
  readonly next: string;
  /** The bound `otherwiseMax` put on going on, if any. */
  readonly onBound: number | undefined;
}

/**
 * The loop after node `from`, decided by `decisionId`, calling `tools`. `targets` are where the
 * node's edges went; `otherwiseMax` bounds going on, for a format whose own bound covers the way
 * back into a loop the node is in.
 */
export function toolLoop(spec: {
  readonly from: string;
  readonly decisionId: string;
  readonly tools: readonly LoopTool[];
  readonly targets: readonly string[];
  readonly otherwiseMax?: (next: string) => number | undefined;
}): ToolLoop {
  const [only, ...more] = spec.targets;
  const sequential = more.length === 0;
  const next = sequential && only !== undefined ? only : "end";
  const max = next === "end" ? undefined : spec.otherwiseMax?.(next);
  const cases = spec.tools.map((t) => {
    const call = { condition: t.condition, next: t.id };
    return t.maxRetries === undefined ? call : { ...call, maxRetries: t.maxRetries };
  });
  const decision = {
    id: spec.decisionId,
    type: "decision",
    config: {
      conditionLanguage: "text",
      cases,
      otherwise: max === undefined ? { next } : { next, maxRetries: max },
    },
  };
  const toolNodes = spec.tools.map((t) => ({
    id: t.id,
    type: "tool",
    config: { usesTool: t.ref },
  }));
  return {
    nodes: [decision, ...toolNodes],
    into: { from: spec.from, to: spec.decisionId, edgeType: "data" },
    back: spec.tools.map((t) => ({ from: t.id, to: spec.from, edgeType: "data" })),
    sequential,
    next,
    onBound: max,
  };
}
