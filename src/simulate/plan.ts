/**
 * Everything about a workflow the simulator needs, computed once: ids, compiled conditions,
 * output validators, decorators and projected costs. Runs only read it, so a thousand runs of
 * `explore` pay for parsing conditions and compiling schemas once.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import type {
  AgentNode,
  AgentWorkflow,
  CompiledCondition,
  ErrorBoundaryDecorator,
  FlowGraph,
  MemoryDecorator,
  SchemaShape,
} from "../model/index.js";
import {
  compileCondition,
  flowGraph,
  isForwardRouteAt,
  neighbours,
  shapeValidator,
} from "../model/index.js";
import type { CostModel, NodeCost } from "./types.js";

/** A route's target index when it goes to `"end"`. */
export const TO_END = -1;
/** A route's target index when `next` names no node. */
export const TO_MISSING = -2;

/** One decision route, ready to run. */
export interface PlannedRoute {
  readonly label: string;
  readonly next: string;
  /** Node index, {@link TO_END} or {@link TO_MISSING}. */
  readonly target: number;
  /** The target is in the decision's strongly connected component: taking it is a retry. */
  readonly loopsBack: boolean;
  readonly maxRetries?: number;
  /** The condition text; absent on the else branch. Compiled by {@link routeCondition}. */
  readonly conditionText?: string;
  /** How the condition is read. */
  readonly language: "feel" | "text";
}

/** A node's projected cost per execution attempt, with the defaults applied. */
export interface PlannedCost {
  readonly tokens: number;
  readonly wallTimeMs: number;
  readonly cost: readonly (readonly [currency: string, amount: number])[];
}

/** The compiled workflow. Arrays are indexed by node position in `wf.nodes`. */
export interface Plan {
  readonly wf: AgentWorkflow;
  readonly graph: FlowGraph;
  readonly ids: readonly string[];
  /** llm/tool: index of the first successor, or -1 when the node ends the run. */
  readonly next: readonly number[];
  readonly routes: readonly (readonly PlannedRoute[])[];
  /** llm nodes' declared output schemas; compiled by {@link outputValidator}. */
  readonly outputSchemas: readonly (SchemaShape | undefined)[];
  readonly finalValidator: ValidateFunction;
  readonly boundaries: readonly (ErrorBoundaryDecorator | undefined)[];
  readonly memories: readonly (MemoryDecorator | undefined)[];
  readonly costs: readonly PlannedCost[];
  readonly hasCostModel: boolean;
  /** The `from->to` ids of the edges runs took, made on first use (see {@link edgeIdBetween}). */
  readonly edgeIds: EdgeIdCache;
  /**
   * The message of node `k`'s first move at `2k` (`2k + 1` with resolved params), made on first
   * use by the run that writes it.
   */
  readonly messages: (string | undefined)[];
}

/**
 * Edge ids by slot: node `prev`'s edge to its successor (`next`) at slot `prev`, route `r` of
 * decision `prev` at slot `ids.length + routeStart[prev] + r`.
 */
export interface EdgeIdCache {
  readonly ids: (string | undefined)[];
  /** The number of each slot's id (equal ids, from duplicated node ids, share one). */
  readonly slotNumbers: number[];
  /** Each id made, numbered in the order made (`traversedEdges` marks them by number). */
  readonly numbers: Map<string, number>;
  /** The id numbered `n` at `names[n]`. */
  readonly names: string[];
  /** Slots: nodes plus routes; no id is numbered past it. */
  readonly size: number;
}

/** Routes of a decision past which its edge id is built anew rather than looked up. */
const SCANNED_ROUTES = 8;

/** {@link edgeSlot} at the start of a run: there is no edge. */
export const NO_EDGE = -1;
/** {@link edgeSlot} of a route past the first few of a large decision: not cached. */
export const UNCACHED_EDGE = -2;

/**
 * The cache slot of the edge from node `prev` to node `k` (see {@link EdgeIdCache}), or
 * {@link NO_EDGE} or {@link UNCACHED_EDGE}. A decision's route to `k` is looked up among its first
 * few routes only, so that a decision of 100,000 cases does not cost a scan a step.
 */
export function edgeSlot(plan: Plan, prev: number, k: number): number {
  if (plan.ids[prev] === undefined) return NO_EDGE;
  if (plan.next[prev] === k) return prev;
  const routes = plan.routes[prev] ?? [];
  if (routes.length > SCANNED_ROUTES) return UNCACHED_EDGE;
  const start = plan.ids.length + (plan.graph.routeStart[prev] ?? 0);
  for (let r = 0; r < routes.length; r++) if (routes[r]?.target === k) return start + r;
  return UNCACHED_EDGE;
}

/**
 * The id of the edge from node `prev` to node `k` (`undefined` at the start). Made once per plan
 * and edge: a run of 100,000 steps built and hashed (for `traversedEdges`) a new string a step.
 */
export function edgeIdBetween(plan: Plan, prev: number, k: number): string | undefined {
  return edgeIdAt(plan, edgeSlot(plan, prev, k), prev, k);
}

/** {@link edgeIdBetween} when the edge's slot is known (`slot` is `edgeSlot(plan, prev, k)`). */
export function edgeIdAt(plan: Plan, slot: number, prev: number, k: number): string | undefined {
  if (slot === NO_EDGE) return undefined;
  if (slot === UNCACHED_EDGE) return `${plan.ids[prev] ?? ""}->${plan.ids[k] ?? ""}`;
  const cache = plan.edgeIds;
  const cached = cache.ids[slot];
  if (cached !== undefined) return cached;
  const id = `${plan.ids[prev] ?? ""}->${plan.ids[k] ?? ""}`;
  let n = cache.numbers.get(id);
  if (n === undefined) {
    n = cache.numbers.size;
    cache.numbers.set(id, n);
    cache.names.push(id);
  }
  cache.ids[slot] = id;
  cache.slotNumbers[slot] = n;
  return id;
}

function decoratorOf<T extends "memory" | "errorBoundary">(
  node: AgentNode,
  type: T,
): Extract<NonNullable<AgentNode["decorators"]>[number], { type: T }> | undefined {
  const list: unknown = node.decorators;
  if (!Array.isArray(list)) return undefined;
  for (const d of list as unknown[]) {
    if (typeof d === "object" && d !== null && (d as { type?: unknown }).type === type) {
      return d as Extract<NonNullable<AgentNode["decorators"]>[number], { type: T }>;
    }
  }
  return undefined;
}

function nonNegative(value: unknown, what: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${what} must be a non-negative finite number`);
  }
  return value;
}

const NO_COST: PlannedCost = Object.freeze({ tokens: 0, wallTimeMs: 0, cost: Object.freeze([]) });

/** Applies the cost model, or the default (llm: `maxOutputTokens`, else nothing). */
function plannedCost(node: AgentNode, costModel: CostModel | undefined): PlannedCost {
  // Shared by every node without a projected cost (most nodes of a large generated workflow).
  if (costModel?.perNode === undefined && (node.type !== "llm" || !node.config.maxOutputTokens)) {
    return NO_COST;
  }
  // A cost model may be plain JavaScript: check what it returns instead of trusting its type.
  const returned: unknown = costModel?.perNode?.(node);
  if (returned !== undefined && (typeof returned !== "object" || returned === null)) {
    throw new TypeError(`costModel.perNode("${node.id}") must return an object or undefined`);
  }
  const fromModel = returned as NodeCost | undefined;
  const declared = node.type === "llm" ? node.config.maxOutputTokens : undefined;
  const defaultTokens = typeof declared === "number" && declared >= 0 ? declared : 0;
  const tokens =
    fromModel?.tokens === undefined
      ? defaultTokens
      : nonNegative(fromModel.tokens, `costModel tokens of "${node.id}"`);
  const cost = Object.entries(fromModel?.cost ?? {})
    .map(([code, amount]) => [code, nonNegative(amount, `costModel cost.${code}`)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    tokens,
    wallTimeMs: nonNegative(fromModel?.wallTimeMs, `costModel wallTimeMs of "${node.id}"`),
    cost,
  };
}

function planRoutes(graph: FlowGraph, k: number): PlannedRoute[] {
  const node = graph.nodes[k];
  if (node?.type !== "decision") return [];
  const language = node.config.conditionLanguage === "text" ? "text" : "feel";
  const start = graph.routeStart[k] ?? 0;
  return (graph.routes[k] ?? []).map((route, r) => {
    // The targets the graph resolved: -2 is "end", -1 no node.
    const resolved = graph.routeTarget[start + r] ?? -1;
    const target = resolved === -2 ? TO_END : resolved === -1 ? TO_MISSING : resolved;
    return {
      label: route.label,
      next: route.next,
      target,
      loopsBack: !isForwardRouteAt(graph, k, start + r),
      ...(route.maxRetries !== undefined ? { maxRetries: route.maxRetries } : {}),
      ...(route.condition !== undefined ? { conditionText: route.condition } : {}),
      language,
    };
  });
}

// Conditions and schemas are compiled when a run first needs them, once per plan: a decision with
// 100,000 cases usually stops at its first, and a run of a large workflow visits a part of it.
const conditions = new WeakMap<PlannedRoute, CompiledCondition>();
const validators = new WeakMap<Plan, (ValidateFunction | undefined)[]>();

/** A route's compiled condition; `undefined` on the else branch. */
export function routeCondition(route: PlannedRoute): CompiledCondition | undefined {
  const text = route.conditionText;
  if (text === undefined) return undefined;
  let compiled = conditions.get(route);
  if (compiled === undefined) {
    compiled = compileCondition(text, { language: route.language });
    conditions.set(route, compiled);
  }
  return compiled;
}

/** The validator of node `k`'s declared output schema; `undefined` when it declares none. */
export function outputValidator(plan: Plan, k: number): ValidateFunction | undefined {
  const schema = plan.outputSchemas[k];
  if (schema === undefined) return undefined;
  let compiled = validators.get(plan);
  if (compiled === undefined) {
    compiled = [];
    validators.set(plan, compiled);
  }
  let validate = compiled[k];
  if (validate === undefined) {
    validate = shapeValidator(schema, plan.wf.types);
    compiled[k] = validate;
  }
  return validate;
}

/** Compiles a workflow for simulation. @throws TypeError when the cost model misbehaves. */
export function buildPlan(wf: AgentWorkflow, costModel?: CostModel): Plan {
  const graph = flowGraph(wf);
  const nodes = graph.nodes;
  const types = wf.types;
  return {
    wf,
    graph,
    ids: nodes.map((n) => n.id),
    next: nodes.map((n, k) =>
      n.type === "decision" ? -1 : (neighbours(graph.successors, k)[0] ?? -1),
    ),
    routes: nodes.map((_, k) => planRoutes(graph, k)),
    outputSchemas: nodes.map((n) => (n.type === "llm" ? n.config.outputSchema : undefined)),
    finalValidator: shapeValidator(wf.outputSchema, types),
    boundaries: nodes.map((n) => decoratorOf(n, "errorBoundary")),
    memories: nodes.map((n) => decoratorOf(n, "memory")),
    costs: nodes.map((n) => plannedCost(n, costModel)),
    hasCostModel: costModel !== undefined,
    edgeIds: {
      ids: [],
      slotNumbers: [],
      numbers: new Map(),
      names: [],
      size: nodes.length + graph.routeTarget.length,
    },
    messages: [],
  };
}
