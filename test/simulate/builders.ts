/**
 * Small workflow builders shared by the simulator tests: compact node constructors so that each
 * table row shows only the graph under test.
 */
import type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  DecisionConfig,
  LlmConfig,
  SchemaShape,
} from "../../src/model/index.js";
import { getTemplate } from "../../src/model/index.js";
import type { SimulationState, TransitionRecord } from "../../src/simulate/index.js";

/** An llm node. */
export function llm(id: string, extra: Partial<LlmConfig> = {}): AgentNode {
  return { id, type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0", ...extra } };
}

/** A tool node with params. */
export function tool(id: string, params?: Readonly<Record<string, unknown>>): AgentNode {
  return {
    id,
    type: "tool",
    config: { usesTool: "tool:t@1.0.0", ...(params !== undefined ? { params } : {}) },
  };
}

/** A decision node. */
export function decision(id: string, config: DecisionConfig): AgentNode {
  return { id, type: "decision", config };
}

/** A data edge. */
export function edge(from: string, to: string): AgentEdge {
  return { from, to, edgeType: "data" };
}

/** A workflow around the given graph; the output schema accepts anything by default. */
export function workflow(
  nodes: readonly AgentNode[],
  edges: readonly AgentEdge[],
  extra: Partial<AgentWorkflow> = {},
): AgentWorkflow {
  const outputSchema: SchemaShape = { "result?": "any" };
  return {
    kind: "AgentWorkflow",
    id: "agnt-test",
    version: "1.0.0",
    name: "Test",
    autonomyLevel: 3,
    inputSchema: { q: "text" },
    outputSchema,
    nodes,
    edges,
    ...extra,
  };
}

/** A fresh copy of a shipped template. */
export function template(name: string): AgentWorkflow {
  const wf = getTemplate(name);
  if (wf === undefined) throw new Error(`no template ${name}`);
  return wf;
}

/** The records of one type. */
export function records(
  state: SimulationState,
  type: TransitionRecord["type"],
): TransitionRecord[] {
  return state.trail.filter((r) => r.type === type);
}

/** `nodeId:type` per record, the shortest readable picture of a trail. */
export function path(state: SimulationState): string[] {
  return state.trail.map((r) => `${r.nodeId ?? ""}:${r.type}`);
}

/** A binary decision `d` whose else route may carry a retry bound. */
export function binary(
  condition: string,
  onTrue: string,
  onFalse: string,
  maxRetries?: number,
): AgentNode {
  return decision("d", {
    condition,
    onTrue: { next: onTrue },
    onFalse: maxRetries === undefined ? { next: onFalse } : { next: onFalse, maxRetries },
  });
}

/** `a → d` followed by the given nodes. */
export function gate(d: AgentNode, ...more: AgentNode[]): AgentWorkflow {
  return workflow([llm("a"), d, ...more], [edge("a", "d")]);
}
