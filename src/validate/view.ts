/**
 * The readable view of one workflow (the policy fact model's `workflow` and `tool` subjects):
 * what policy packs and plugin rules read instead of the engine's indexes. Built only when a
 * rule asks for it, once per validation.
 */
import type {
  AgentNode,
  AgentWorkflow,
  Budget,
  FlowGraph,
  RefParseResult,
  ToolContract,
} from "../model/index.js";
import { neighbours } from "../model/index.js";
import { isOpaqueStepRef, isUnstatedModel } from "../model/internal.js";
import type {
  BudgetFacts,
  NodeFacts,
  KnownToolFacts,
  ToolFacts,
  WorkflowFacts,
  WorkflowView,
} from "../policy/index.js";
import type { Resolution } from "./types.js";

/** What the fact model reads of a tool contract (a resolved contract, or a gate's record of one). */
export interface ToolTerms {
  readonly effect: string;
  readonly authorization: string | undefined;
}

/** The budget a workflow states, as facts; null when it states none. */
export function budgetFacts(budget: Budget | undefined): BudgetFacts | null {
  if (budget === undefined) return null;
  const maxCost: Record<string, number> = {};
  for (const [key, value] of Object.entries(budget)) {
    if (key.startsWith("maxCost") && typeof value === "number") maxCost[key.slice(7)] = value;
  }
  return {
    maxSteps: budget.maxSteps ?? null,
    maxTokens: budget.maxTokens ?? null,
    maxWallTimeMs: budget.maxWallTimeMs ?? null,
    maxCost,
  };
}

/** A tool ref with what its contract says, when it could be read (null fields: unknown). */
export function toolFacts(
  ref: string,
  parsed: RefParseResult | undefined,
  contract: ToolTerms | undefined,
): KnownToolFacts {
  const id = parsed?.ok === true ? parsed.ref.id.replace(/^tool:/, "") : ref;
  return {
    ref: parsed?.ok === true ? parsed.canonical : ref,
    id,
    version: parsed?.ok === true ? parsed.ref.version : null,
    effect: contract?.effect ?? null,
    authorization: contract?.authorization ?? null,
  };
}

/**
 * Every model a node may run, as the document names them: an `llm` node's `model` and its
 * `fallbackModel` (a run that falls back runs that one), in that order; `[]` for a decision or a
 * tool. `null` when the node may run a model the document does not name: an llm node on an
 * importer's stand-in name, or a tool that stands for a step whose content is not shown (a
 * LangGraph function node, a subgraph drawn whole), which may call any model.
 */
export function nodeModels(node: AgentNode): string[] | null {
  if (node.type === "tool") {
    const ref = node.config.usesTool;
    return typeof ref === "string" && isOpaqueStepRef(ref) ? null : [];
  }
  if (node.type !== "llm") return [];
  const { model, fallbackModel } = node.config;
  const models = [model, fallbackModel].filter((m): m is string => typeof m === "string");
  return models.some(isUnstatedModel) ? null : models;
}

/** A model a node names, as a fact: null when it names none or an importer's stand-in. */
function statedModel(model: unknown): string | null {
  return typeof model === "string" && !isUnstatedModel(model) ? model : null;
}

/** What a workflow's nodes and edges say, as the fact model has it. */
export interface WorkflowReading {
  readonly facts: WorkflowFacts;
  readonly toolCalls: WorkflowView["toolCalls"];
}

/**
 * The facts of `workflow`. `nodeRefs` are the parsed `usesTool` refs by node index, `tool`
 * answers a tool contract by canonical ref (undefined: unknown), `justifiedLevel` is the level
 * its graph justifies.
 */
export function readWorkflow(
  workflow: AgentWorkflow,
  nodeRefs: readonly (RefParseResult | undefined)[],
  tool: (canonical: string) => ToolTerms | undefined,
  justifiedLevel: number | null,
): WorkflowReading {
  const nodes: NodeFacts[] = [];
  const models: string[] = [];
  const toolCalls: (ToolFacts & { nodeId: string; path: string })[] = [];
  const tools = new Map<string, KnownToolFacts>();
  let unstated = false;
  for (const [i, node] of workflow.nodes.entries()) {
    const llm = node.type === "llm" ? node.config : undefined;
    nodes.push({
      id: node.id,
      type: node.type,
      model: statedModel(llm?.model),
      fallbackModel: statedModel(llm?.fallbackModel),
    });
    const named = nodeModels(node);
    if (named === null) unstated = true;
    else for (const model of named) if (!models.includes(model)) models.push(model);
    if (node.type !== "tool") continue;
    const parsed = nodeRefs[i];
    const ref = typeof node.config.usesTool === "string" ? node.config.usesTool : "";
    const facts = toolFacts(ref, parsed, parsed?.ok === true ? tool(parsed.canonical) : undefined);
    toolCalls.push({ ...facts, nodeId: node.id, path: `/nodes/${String(i)}/config/usesTool` });
    if (!tools.has(facts.ref)) tools.set(facts.ref, facts);
  }
  const delegates = workflow.edges.filter((e) => e.edgeType === "delegate").map((e) => e.to);
  return {
    facts: {
      id: workflow.id,
      version: workflow.version,
      name: workflow.name,
      level: workflow.autonomyLevel,
      justifiedLevel,
      nodes,
      tools: [...tools.values()],
      // An importer's name for a model its format does not state, or a step whose content it does
      // not show: which models run is unknown.
      models: unstated ? null : models,
      budget: budgetFacts(workflow.budget),
      delegates: [...new Set(delegates)],
      // A workflow document states its budget as data: nothing in it is unread.
      unread: [],
    },
    toolCalls,
  };
}

/** The contract of a resolved tool, or undefined. */
export function resolvedContract(
  resolution: Resolution<ToolContract> | undefined,
): ToolContract | undefined {
  return resolution?.status === "resolved" ? resolution.value : undefined;
}

/** The flow graph's questions, by node id, as the view answers them. */
export function graphQuestions(graph: FlowGraph): Pick<WorkflowView, "next" | "reachable"> {
  return {
    next(nodeId) {
      const i = graph.index.get(nodeId);
      if (i === undefined) return [];
      return [...neighbours(graph.successors, i)].map((j) => graph.nodes[j]?.id ?? "");
    },
    reachable(nodeId) {
      const i = graph.index.get(nodeId);
      return i !== undefined && graph.reachable[i] === 1;
    },
  };
}
