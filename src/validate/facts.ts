/**
 * Views of a workflow that several rules need, computed at most once per validation and shared:
 * parsed refs, condition analyses, resolved references, the autonomy assessment and resolved
 * shapes. Each is computed on first use, so a preset that turns rules off pays for less.
 */
import { assessAutonomy, minCoherentLevel } from "../autonomy/index.js";
import type {
  AgentWorkflow,
  ConditionAnalysis,
  ConditionOptions,
  FlowGraph,
  RefParseResult,
  ResolvedShape,
} from "../model/index.js";
import { analyzeCondition, NODE_KIND, parseRef, resolveShape } from "../model/index.js";
import type { RouteVisitor } from "../model/internal.js";
import { forEachRoute, ROUTE_SOURCE, routeLabel, routePointerSuffix } from "../model/internal.js";
import type { DecisionCondition, DelegateVerdict, Facts, ResolvedRefs } from "./types.js";

function lazy<T>(compute: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}

/** Shared by every node without conditions: an empty array per node was 100,000 survivors. */
const NO_CONDITIONS: readonly DecisionCondition[] = Object.freeze([]);

/** How many distinct condition texts one validation remembers the analysis of. */
const ANALYSIS_MEMO_LIMIT = 1024;

function conditionsOf(wf: AgentWorkflow, graph: FlowGraph): (readonly DecisionCondition[])[] {
  // Loops of 10,000 decisions often repeat one condition (`output.done = true`): each text is
  // analysed once per validation. Analyses are frozen and shared anyway. Bounded, so that a
  // decision with 100,000 distinct cases pays a lookup per case, not a table of them.
  const memo = new Map<string, ConditionAnalysis>();
  // An analysis equal in content to the previous one is replaced by it: the 100,000 cases of a
  // wide decision (`output.route = 1`, `= 2`…) all analyse to "reads output.route, simulable".
  // A validation holds its analyses until it ends, so at that size every distinct object was
  // copied and promoted by the young-generation collector; a duplicate now dies at once.
  let last: ConditionAnalysis | undefined;
  const analyze = (text: string): ConditionAnalysis => {
    // Once the memo is full, most texts are new: a lookup would only cost.
    const full = memo.size >= ANALYSIS_MEMO_LIMIT;
    let analysis = full ? undefined : memo.get(text);
    if (analysis === undefined) {
      analysis = analyzeCondition(text, FEEL);
      if (last !== undefined && sameAnalysis(analysis, last)) analysis = last;
      last = analysis;
      if (!full) memo.set(text, analysis);
    }
    return analysis;
  };
  // Collected here, then copied at their exact length: they live for the whole validation, and
  // an array grown by push keeps room for 17. Overwritten, not emptied: emptying frees its room.
  const found: DecisionCondition[] = [];
  let count = 0;
  // The state of the node being read, for the one route visitor shared by all decisions.
  let current = 0;
  let plainText = false;
  const collect: RouteVisitor = (source, _route, condition) => {
    if (typeof condition !== "string") return; // the else branch, or a malformed condition
    const analysis = plainText ? analyzeCondition(condition, TEXT) : analyze(condition);
    found[count++] = new RouteCondition(source, current, condition, analysis);
  };
  const at = (i: number): readonly DecisionCondition[] => {
    const node = wf.nodes[i];
    if (graph.kind[i] !== NODE_KIND.decision || node?.type !== "decision") return NO_CONDITIONS;
    plainText = node.config.conditionLanguage === "text";
    current = i;
    count = 0;
    // The routes as written, not `graph.routes`: a decision may have 100,000 cases, whose route
    // objects, labels and pointers the validation would otherwise build and keep.
    forEachRoute(node.config, collect);
    return found.slice(0, count);
  };
  return perNode(wf.nodes.length, at);
}

/**
 * A {@link DecisionCondition} that builds its label and pointer when asked: rules read them only
 * for a finding, and a decision with 100,000 cases held two strings per case for the whole
 * validation, which every young-generation collection of a large run copied.
 */
class RouteCondition implements DecisionCondition {
  constructor(
    /** Where the route is written: a case index or a `ROUTE_SOURCE`. */
    private readonly source: number,
    private readonly node: number,
    readonly text: string,
    readonly analysis: ConditionAnalysis,
  ) {}

  get label(): string {
    return routeLabel(this.source);
  }

  get path(): string {
    // The binary form keeps its condition on the config, not on the route.
    const suffix = this.source === ROUTE_SOURCE.onTrue ? "" : routePointerSuffix(this.source);
    return `/nodes/${String(this.node)}/config${suffix}/condition`;
  }
}

/**
 * Whether two analyses are equal in content. Those with rewrites or problems never are: their
 * offsets point into their own text.
 */
function sameAnalysis(a: ConditionAnalysis, b: ConditionAnalysis): boolean {
  if (a.rewrites.length + a.problems.length + b.rewrites.length + b.problems.length > 0) {
    return false;
  }
  if (a.ok !== b.ok || a.simulable !== b.simulable || a.structured !== b.structured) return false;
  if (a.fields.length !== b.fields.length) return false;
  for (let k = 0; k < a.fields.length; k++) if (a.fields[k] !== b.fields[k]) return false;
  return true;
}

const FEEL: ConditionOptions = { language: "feel" };
const TEXT: ConditionOptions = { language: "text" };

/**
 * The parsed `promptRef` / `usesTool` of every node (`undefined` for other types): one pass over
 * the nodes, shared by resolution and the facts, which each made their own before.
 */
export function nodeRefsOf(
  wf: AgentWorkflow,
  graph: FlowGraph,
): readonly (RefParseResult | undefined)[] {
  return perNode(wf.nodes.length, (i) => {
    const kind = graph.kind[i];
    if (kind !== NODE_KIND.llm && kind !== NODE_KIND.tool) return undefined; // not loaded
    const n = wf.nodes[i];
    if (n?.type === "llm") return parseRef(n.config.promptRef);
    if (n?.type === "tool") return parseRef(n.config.usesTool);
    return undefined;
  });
}

/**
 * `[value(0), …, value(length - 1)]`, by a loop into an array of its final length: not
 * `wf.nodes.map`, which would call a constructor a hostile document set on the array, nor
 * `Array.from` with a callback, several times slower.
 */
export function perNode<T>(length: number, value: (i: number) => T): T[] {
  const out = new Array<T>(length);
  for (let i = 0; i < length; i++) out[i] = value(i);
  return out;
}

/** No delegate judged: what the facts give when DELEGATE_INVALID does not run. */
const NO_VERDICTS: ReadonlyMap<string, DelegateVerdict> = new Map();

/**
 * Builds the facts of one validation; `nodeRefs` is {@link nodeRefsOf}'s result if known, and
 * `delegateVerdicts` judges the delegates (the engine gives it when DELEGATE_INVALID runs).
 */
export function createFacts(
  wf: AgentWorkflow,
  graph: FlowGraph,
  resolved: ResolvedRefs,
  nodeRefs: readonly (RefParseResult | undefined)[] = nodeRefsOf(wf, graph),
  delegateVerdicts?: () => ReadonlyMap<string, DelegateVerdict>,
): Facts {
  const shapes = new Map<string, ResolvedShape>();
  return {
    resolved,
    delegateVerdicts: delegateVerdicts === undefined ? () => NO_VERDICTS : lazy(delegateVerdicts),
    autonomy: lazy(() => assessAutonomy(wf)),
    autonomyLevel: lazy(() => minCoherentLevel(wf)),
    conditions: lazy(() => conditionsOf(wf, graph)),
    nodeRefs: () => nodeRefs,
    // Only the delegate edges are loaded; the array still has one slot per edge.
    delegateRefs: lazy(() => {
      const out = new Array<RefParseResult | undefined>(wf.edges.length).fill(undefined);
      for (const k of graph.delegateEdges) out[k] = parseRef(wf.edges[k]?.to);
      return out;
    }),
    shape: (shape, path) => {
      let resolvedShape = shapes.get(path);
      if (resolvedShape === undefined) {
        resolvedShape = resolveShape(shape, wf.types, path);
        shapes.set(path, resolvedShape);
      }
      return resolvedShape;
    },
  };
}
