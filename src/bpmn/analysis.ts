/**
 * The facts every BPMN rule reads, computed once per definitions: the process graph, gate
 * reachability for all vertices, and per agent task its declaration, resolved workflow, levels,
 * gate requirement and gate verdict. Rules only look facts up.
 */
import type { AgentWorkflow, AutonomyLevel, RefParseResult } from "../model/index.js";
import { contentHash, parseRef } from "../model/index.js";
import type { GateRequirement } from "../autonomy/index.js";
import { gateRequirement, isAutonomyLevel, minCoherentLevel } from "../autonomy/index.js";
import type { AgentDeclaration } from "./agents.js";
import { agentDeclaration, hasGateMarker } from "./agents.js";
import type { DiscountedGate, GateNode, GatePredicate } from "./gate-collect.js";
import { gateCollector } from "./gate-collect.js";
import { gateContextOf } from "./gate-context.js";
import type { GateSelector } from "./gate-select.js";
import { camundaCollector } from "./camunda/prepare.js";
import type { GateReach, GateVerdict } from "./gate-reach.js";
import { computeGateReach, gateVerdict } from "./gate-reach.js";
import type { ModdleObject } from "./moddle.js";
import type { UnreadDeclaration } from "./btv-declarations.js";
import { RUNS_NO_AGENT, unreadDeclarations } from "./btv-declarations.js";
import type { NamespaceMismatch } from "./namespace-check.js";
import { namespaceChecker, scopeReader } from "./namespace-check.js";
import { extensionValues } from "./moddle.js";
import type { ProcessGraph } from "./process-graph.js";
import { buildProcessGraph } from "./process-graph.js";
import type { FlowNodeEntry } from "./process-index.js";
import { indexDefinitions, nodeEntry, nodeId, nodePath, NodeFlag } from "./process-index.js";
import type { TaskResolution } from "./resolve-tasks.js";
import type { UnknownLevelPolicy } from "./types.js";
import type { SubjectReading } from "./view/subjects.js";
import { readSubjects } from "./view/subjects.js";

export type { GatePredicate } from "./gate-collect.js";

/** One agent task as the graph sees it, before its workflow is resolved. */
export interface PreparedAgent {
  /** Flow node index. */
  readonly node: number;
  readonly entry: FlowNodeEntry;
  readonly declaration: AgentDeclaration;
  readonly gate: GateVerdict;
}

/** The graph-side facts, before any workflow is resolved. */
export interface PreparedProcess {
  readonly graph: ProcessGraph;
  readonly reach: GateReach;
  /** Agent tasks in document order of the walk. */
  readonly agents: readonly PreparedAgent[];
  readonly gateCount: number;
  /** The approval gates, with their approver roles, in walk order. */
  readonly gates: readonly GateNode[];
  /** Nodes chosen as gates that may complete with nobody approving: not in `gates`. */
  readonly discountedGates: readonly DiscountedGate[];
  /** User tasks that are not gates (a person asked is not an approval unless declared one). */
  readonly userTasks: readonly number[];
  /** Extension elements meant as btv ones, in a namespace that only looks like it. */
  readonly namespaceMismatches: readonly NamespaceMismatch[];
  /**
   * btv declarations nothing reads, in the whole document: on an element that is no flow node
   * of a process, misspelt, or an agent on a flow node that runs none (btv-declarations.ts).
   */
  readonly unreadDeclarations: readonly UnreadDeclaration[];
  /** Flow nodes whose `btv:toolEffect` is no effect: node index and the raw value. */
  readonly invalidToolEffects: readonly { readonly node: number; readonly value: string }[];
  /** Names and lanes for the readable view; read only when a rule will read the view. */
  readonly subjects: SubjectReading | undefined;
}

/**
 * Indexes the definitions, builds the graph and runs the reachability sweeps. Everything read
 * from the moddle tree is read here, before any resolver runs: an async resolver's await must
 * not let an edit of the tree show half-way through one decision.
 */
export function prepareProcess(
  definitions: ModdleObject,
  isGate: GatePredicate = hasGateMarker,
  selectors: readonly GateSelector[] = [],
  withSubjects = false,
): PreparedProcess {
  const collected = gateCollector(isGate, selectors);
  const found: { node: number; declaration: AgentDeclaration }[] = [];
  const mismatches: NamespaceMismatch[] = [];
  const camunda = camundaCollector();
  const scopes = scopeReader();
  const checkNamespaces = namespaceChecker(definitions, scopes);
  const noAgentHosts: { node: number; path: string }[] = [];
  // Read during the walk, while the element is at hand: on a large tree each revisit is a miss.
  const index = indexDefinitions(definitions, (element, node, flags) => {
    const values = extensionValues(element);
    mismatches.push(...checkNamespaces(node, element, values));
    collected.visit(element, values, node);
    // Only activities can carry a Camunda template; other nodes need extension values to be agents.
    const candidate = values.length > 0 || (flags & NodeFlag.activity) !== 0;
    const declaration = candidate ? agentDeclaration(element, values) : undefined;
    if (declaration !== undefined) found.push({ node, declaration });
    // Still judged (it needs its gate), but from where no agent runs: reported as well.
    if (declaration?.source === "btv" && (flags & RUNS_NO_AGENT) !== 0) {
      noAgentHosts.push({ node, path: declaration.path });
    }
    camunda.visit(element, node);
  });
  const graph = buildProcessGraph(index);
  // The whole tree, not only the flow nodes: a declaration on anything else is read by nothing.
  const unread = unreadDeclarations(definitions, new Set(index.elements), scopes);
  for (const { node, path } of noAgentHosts) {
    const element = index.elements[node];
    unread.push({
      kind: "no-agent-host",
      elementId: nodeId(index, node),
      path: `${nodePath(index, node)}${path}`,
      name: "btv:agentTask",
      on: element?.$type ?? "",
    });
  }
  const read = camunda.read(found, index.elements);
  // Whether a chosen gate counts may rest on the agents read: their tool containers, the
  // messages their tools publish.
  collected.settle(gateContextOf(read.flatMap((a) => a.declaration.camunda ?? [])));
  // An agent is never its own or another agent's approval, whatever marks it: a gate is a person.
  const agentNodes = new Set(read.map((a) => a.node));
  const gateNodes = collected.gates.filter((g) => !agentNodes.has(g.node));
  const gates = gateNodes.map((g) => g.node);
  const reach = computeGateReach(graph, gates);
  const agents = read.map(({ node, declaration }) => ({
    node,
    entry: nodeEntry(index, node),
    declaration,
    gate: gateVerdict(graph, reach, node),
  }));
  return {
    graph,
    reach,
    agents,
    gateCount: gates.length,
    gates: gateNodes,
    discountedGates: collected.discounted,
    userTasks: collected.userTasks,
    namespaceMismatches: mismatches,
    unreadDeclarations: unread,
    invalidToolEffects: camunda.invalidToolEffects,
    subjects: withSubjects
      ? readSubjects(definitions, index, [...agents.map((a) => a.node), ...gates])
      : undefined,
  };
}

/** Everything known about one agent task. */
export interface AgentTaskFacts {
  readonly node: FlowNodeEntry;
  /** Its flow node index (its vertex in the process graph). */
  readonly vertex: number;
  readonly declaration: AgentDeclaration;
  /** The parsed `agentWorkflowRef` (btv only). */
  readonly ref: RefParseResult | undefined;
  /** The task's own `autonomyLevel`, when it is a valid 0..5 integer. */
  readonly declaredLevel: AutonomyLevel | undefined;
  readonly resolution: TaskResolution;
  /** The level the resolved workflow's graph justifies (a Camunda agent's: its reading's). */
  readonly justifiedLevel: AutonomyLevel | undefined;
  /**
   * For a btv task on a Camunda AI agent agentflow reads, when the agent read from the BPMN needs
   * a stricter gate than the btv levels do: the level it was read at, which then decides the
   * requirement (the gate rules' messages say so). Absent otherwise.
   */
  readonly camundaLevel?: AutonomyLevel;
  /** The level the task runs at: its own, else its workflow's declared level. */
  readonly level: AutonomyLevel | undefined;
  /**
   * The strictest gate requirement of the known levels, or the policy's for an unknown level;
   * `required` for a btv agent whose workflow could not be reviewed (fail closed). For a btv
   * task on a Camunda AI agent agentflow reads, the level of the agent read from the BPMN is
   * one of the known levels.
   */
  readonly requirement: GateRequirement;
  /** True for a btv agent whose workflow could not be read: its level proves nothing. */
  readonly unreviewed: boolean;
  readonly gate: GateVerdict;
  /** `sha256:` hash of the canonical resolved workflow. */
  readonly contentHash: string | undefined;
}

/** The facts of a whole definitions, shared by every rule. */
export interface GateAnalysis {
  readonly prepared: PreparedProcess;
  readonly tasks: readonly AgentTaskFacts[];
  readonly policy: UnknownLevelPolicy;
  /** Whether a workflow registry (a `resolveWorkflow`) was consulted at all. */
  readonly registry: boolean;
}

const LEVEL_TEXT = /^[0-5]$/;

/** Hash and justified level per workflow object: many tasks may share one resolved workflow. */
const WORKFLOW_FACTS = new WeakMap<
  AgentWorkflow,
  { readonly contentHash: string; readonly justifiedLevel: AutonomyLevel }
>();

/** The content hash and justified level of a workflow document, computed once per object. */
export function workflowFactsOf(workflow: AgentWorkflow): {
  readonly contentHash: string;
  readonly justifiedLevel: AutonomyLevel;
} {
  let facts = WORKFLOW_FACTS.get(workflow);
  if (facts === undefined) {
    facts = { contentHash: contentHash(workflow), justifiedLevel: minCoherentLevel(workflow) };
    WORKFLOW_FACTS.set(workflow, facts);
  }
  return facts;
}
const STRICTNESS: Readonly<Record<GateRequirement, number>> = { none: 0, optional: 1, required: 2 };
const BY_POLICY: Readonly<Record<UnknownLevelPolicy, GateRequirement>> = {
  "gate-required": "required",
  "gate-optional": "optional",
  ignore: "none",
};

function strictest(levels: readonly (AutonomyLevel | undefined)[]): GateRequirement | undefined {
  let out: GateRequirement | undefined;
  for (const level of levels) {
    if (level === undefined) continue;
    const requirement = gateRequirement(level);
    if (out === undefined || STRICTNESS[requirement] > STRICTNESS[out]) out = requirement;
  }
  return out;
}

/**
 * Combines the graph facts with each task's resolution. The gate requirement takes the strictest
 * of the task's level, the workflow's declared level and its justified level: a mismatch must
 * not let a task escape the gate its graph needs (levels 4 and 5 need less than 0-3). For a btv
 * task on a Camunda AI agent agentflow reads, the level read from the BPMN joins the strictest
 * (its resolution carries that reading: `withCamundaReading`), since the engine runs what the
 * BPMN draws whatever the ref names.
 */
export function analyze(
  prepared: PreparedProcess,
  resolutions: readonly TaskResolution[],
  policy: UnknownLevelPolicy,
  registry: boolean,
): GateAnalysis {
  const tasks = prepared.agents.flatMap(
    ({ node, entry, declaration, gate }, i): AgentTaskFacts[] => {
      const resolution = resolutions[i];
      if (resolution === undefined) return [];
      const text = declaration.levelText;
      const parsedLevel = text !== undefined && LEVEL_TEXT.test(text) ? Number(text) : undefined;
      const declaredLevel = isAutonomyLevel(parsedLevel) ? parsedLevel : undefined;
      const workflow = resolution.workflow;
      const facts = workflow === undefined ? undefined : workflowFactsOf(workflow);
      // A derived Camunda agent's level is justified by its reading (a tool choice is a decision).
      const read = resolution.derived?.level;
      const ownReading = resolution.resolution === "derived";
      const justifiedLevel = ownReading ? read : facts?.justifiedLevel;
      // Beside a btv ref, the reading's level is one more the gate must satisfy.
      const levels = [declaredLevel, workflow?.autonomyLevel, justifiedLevel];
      const ownRequirement = strictest(levels);
      const withRead = ownReading ? ownRequirement : strictest([...levels, read]);
      const level = declaredLevel ?? workflow?.autonomyLevel;
      // What an unread workflow does is unknown: the most demanding case, whatever level is declared.
      const unreviewed = declaration.source === "btv" && workflow === undefined;
      // A level declared but not one of 0-5 says nothing of what the agent may do: the most
      // demanding case too, even where AGENT_AUTONOMY_INVALID was lowered.
      const unreadLevel = text !== undefined && declaredLevel === undefined;
      const requirement = unreviewed || unreadLevel ? "required" : (withRead ?? BY_POLICY[policy]);
      const readDecides =
        !unreviewed && !unreadLevel && read !== undefined && withRead !== ownRequirement;
      return [
        {
          node: entry,
          vertex: node,
          declaration,
          ref: declaration.source === "btv" ? parseRef(declaration.ref) : undefined,
          declaredLevel,
          resolution,
          justifiedLevel,
          ...(readDecides ? { camundaLevel: read } : {}),
          level,
          requirement,
          unreviewed,
          gate,
          contentHash: facts?.contentHash,
        },
      ];
    },
  );
  return { prepared, tasks, policy, registry };
}
