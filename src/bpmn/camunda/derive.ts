/**
 * The agent workflow a Camunda AI agent runs, derived from its reading: a model node (the
 * agent's model and provider, its prompt named by element id and hashed in metadata), a decision
 * the model makes in natural language (a tool, or the end), and one tool node per tool whose
 * call returns to the model. The loop is bounded by `maxModelCalls` (each route back carries
 * `maxRetries` = maxModelCalls − 1); without a static bound the routes carry none, and
 * CAMUNDA_AGENT_UNBOUNDED reports it. An A2A gateway tool hands work to another agent: a
 * delegate edge, when its job type is the A2A client's (the gateway marker borne out).
 */
import type { AutonomyReason } from "../../autonomy/index.js";
import { assessAutonomy } from "../../autonomy/index.js";
import type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  AutonomyLevel,
  DecisionCase,
} from "../../model/index.js";
import { A2A_GATEWAY } from "./gateways.js";
import type { EffectedTool } from "./types.js";
import type { AgentReading } from "./read-hash.js";
import { readingHash } from "./read-hash.js";

/** The version every derived document carries: the BPMN, not a registry, versions the agent. */
export const DERIVED_VERSION = "1.0.0";

/** The derived workflow's id for an agent element. */
export const derivedWorkflowId = (elementId: string): string => `camunda.${elementId}`;

/** The tool ref of a tool element. */
export const derivedToolRef = (toolId: string): string =>
  `tool:camunda.${toolId}@${DERIVED_VERSION}`;

/** The derived workflow, its level with the reasons, and whether its loop is bounded. */
export interface Derivation {
  readonly workflow: AgentWorkflow;
  readonly level: AutonomyLevel;
  readonly reasons: readonly AutonomyReason[];
  /** True when the agent has tools and no static `maxModelCalls`. */
  readonly unbounded: boolean;
}

function llmNode(agent: AgentReading): AgentNode {
  const tokens = agent.limits.maxTokensPerResponse?.value;
  return {
    id: agent.elementId,
    type: "llm",
    ...(agent.name === "" ? {} : { name: agent.name }),
    config: {
      model: agent.model ?? "unknown",
      promptRef: `prm:${derivedWorkflowId(agent.elementId)}@${DERIVED_VERSION}`,
      ...(agent.provider === undefined ? {} : { provider: agent.provider }),
      ...(tokens === undefined || tokens < 1 ? {} : { maxOutputTokens: tokens }),
    },
  };
}

/** The tool ids the model can choose, with a stand-in for a container that cannot be read. */
function choices(agent: AgentReading, tools: readonly EffectedTool[]): string[] {
  const container = agent.container;
  if (container !== undefined && !container.found) return [container.id];
  return tools.map((t) => t.id);
}

function graph(agent: AgentReading, ids: readonly string[], tools: readonly EffectedTool[]) {
  const decisionId = `${agent.elementId}.next`;
  const calls = agent.limits.maxModelCalls?.value;
  const bound = calls === undefined ? {} : { maxRetries: Math.max(calls - 1, 0) };
  const cases: DecisionCase[] = ids.map((id) => ({
    condition: `the model calls the tool "${id}"`,
    next: id,
    ...bound,
  }));
  const nodes: AgentNode[] = [llmNode(agent)];
  const edges: AgentEdge[] = [];
  if (ids.length > 0) {
    nodes.push({
      id: decisionId,
      type: "decision",
      config: { cases, otherwise: { next: "end" }, conditionLanguage: "text" },
    });
    edges.push({ from: agent.elementId, to: decisionId, edgeType: "data" });
  }
  for (const id of ids) {
    nodes.push({ id, type: "tool", config: { usesTool: derivedToolRef(id) } });
    edges.push({ from: id, to: agent.elementId, edgeType: "toolCall" });
  }
  for (const tool of tools) {
    // The marker alone is a label: only the A2A client's own job type makes a delegation.
    if (tool.gateway !== A2A_GATEWAY || tool.nature !== "gateway") continue;
    const to = `${derivedWorkflowId(tool.id)}.remote@${DERIVED_VERSION}`;
    edges.push({ from: tool.id, to, edgeType: "delegate" });
  }
  return { nodes, edges, decisionId };
}

/**
 * Derives the workflow and its level. The graph assessment counts a route back into the loop as
 * a loop (level 2); a model that picks one of several tools each turn (or a tool list that
 * cannot be read, which may hold several) chooses between paths with different effects, so the
 * derived agent is a decision tree (level 3), with that reason naming the decision and the tools.
 */
export function deriveWorkflow(agent: AgentReading, tools: readonly EffectedTool[]): Derivation {
  const ids = choices(agent, tools);
  const { nodes, edges, decisionId } = graph(agent, ids, tools);
  const draft: AgentWorkflow = {
    kind: "AgentWorkflow",
    id: derivedWorkflowId(agent.elementId),
    version: DERIVED_VERSION,
    name: agent.name === "" ? agent.elementId : agent.name,
    autonomyLevel: 1,
    inputSchema: { prompt: "text" },
    outputSchema: { response: "any" },
    nodes,
    edges,
    metadata: {
      source: "camunda",
      elementId: agent.elementId,
      variant: agent.variant,
      ...(agent.templateId === undefined ? {} : { templateId: agent.templateId }),
      ...(agent.templateVersion === undefined ? {} : { templateVersion: agent.templateVersion }),
      ...(agent.systemPromptHash === undefined ? {} : { systemPromptHash: agent.systemPromptHash }),
      limits: agent.limits,
      readHash: readingHash(agent),
    },
  };
  const assessed = assessAutonomy(draft);
  const reasons: AutonomyReason[] = [...assessed.reasons];
  if (ids.length > 1 || agent.container?.found === false) {
    reasons.push({
      level: 3,
      feature: "branching-decision",
      nodeIds: [decisionId, ...ids],
      edgeIndexes: [],
    });
  }
  reasons.sort((a, b) => b.level - a.level);
  const level = reasons[0]?.level ?? 1;
  const unbounded = ids.length > 0 && agent.limits.maxModelCalls?.value === undefined;
  return { workflow: { ...draft, autonomyLevel: level }, level, reasons, unbounded };
}
