/**
 * Small builders for test workflows, so that each rule table states only what matters to it.
 * The base workflow is valid under every rule.
 */
import type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  DecisionNode,
  LlmNode,
  ToolNode,
} from "../../src/model/index.js";

/** A structured llm node. */
export function llm(
  id: string,
  config: Partial<LlmNode["config"]> = {},
  extra: Partial<LlmNode> = {},
): LlmNode {
  return {
    id,
    type: "llm",
    config: { model: "gpt-4o", promptRef: "prm:p@1.0.0", structuredOutput: true, ...config },
    ...extra,
  };
}

/** A tool node. */
export function tool(
  id: string,
  usesTool = "tool:search@1.0.0",
  config: Partial<ToolNode["config"]> = {},
): ToolNode {
  return { id, type: "tool", config: { usesTool, ...config } };
}

/** A binary decision. */
export function decision(
  id: string,
  condition: string,
  onTrue: string | { next: string; maxRetries?: number },
  onFalse: string | { next: string; maxRetries?: number },
  extra: { conditionLanguage?: "feel" | "text" } = {},
): DecisionNode {
  const route = (r: string | { next: string; maxRetries?: number }) =>
    typeof r === "string" ? { next: r } : r;
  return {
    id,
    type: "decision",
    config: { condition, onTrue: route(onTrue), onFalse: route(onFalse), ...extra },
  };
}

/** A data edge (or another type). */
export function edge(
  from: string,
  to: string,
  edgeType: AgentEdge["edgeType"] = "data",
): AgentEdge {
  return { from, to, edgeType };
}

/** A valid workflow with the given nodes and edges (autonomy 1 unless stated). */
export function workflow(
  nodes: readonly AgentNode[],
  edges: readonly AgentEdge[],
  extra: Partial<AgentWorkflow> = {},
): AgentWorkflow {
  return {
    kind: "AgentWorkflow",
    id: "agnt-test",
    version: "1.0.0",
    name: "Test",
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { done: "bool" },
    nodes,
    edges,
    ...extra,
  };
}

/** llm → decision(done) → end: the smallest useful valid workflow. */
export function minimal(extra: Partial<AgentWorkflow> = {}): AgentWorkflow {
  return workflow(
    [llm("a"), decision("d", "output.done = true", "end", "end")],
    [edge("a", "d")],
    extra,
  );
}

/** llm "a" → decision "d" (the given condition) → end, for the condition rules' tables. */
export function withCondition(
  condition: string,
  extra: { conditionLanguage?: "feel" | "text" } = {},
): AgentWorkflow {
  return workflow([llm("a"), decision("d", condition, "end", "end", extra)], [edge("a", "d")]);
}
