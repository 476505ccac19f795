/**
 * Views of a workflow that several rules need, computed at most once per validation and shared:
 * parsed refs, condition analyses, resolved references, the autonomy assessment and resolved
 * shapes. Each is computed on first use, so a preset that turns rules off pays for less.
 */
import type { AutonomyAssessment } from "../autonomy/index.js";
import { assessAutonomy } from "../autonomy/index.js";
import type {
  AgentWorkflow,
  ConditionAnalysis,
  FlowGraph,
  RefParseResult,
  ResolvedShape,
  SchemaShape,
} from "../model/index.js";
import { analyzeCondition, parseRef, pointer, resolveShape } from "../model/index.js";
import type { ResolvedRefs } from "./resolve.js";

/** One condition of a decision with its analysis. */
export interface DecisionCondition {
  /** The route label (`onTrue`, `cases/0`, ...). */
  readonly label: string;
  readonly text: string;
  /** JSON Pointer of the condition string. */
  readonly path: string;
  readonly analysis: ConditionAnalysis;
}

/** The shared views; see the module comment. */
export interface Facts {
  readonly resolved: ResolvedRefs;
  readonly autonomy: () => AutonomyAssessment;
  /** Conditions per node index (empty for llm/tool nodes). */
  readonly conditions: () => readonly (readonly DecisionCondition[])[];
  /** Parsed `promptRef` / `usesTool` per node index; `undefined` for other node types. */
  readonly nodeRefs: () => readonly (RefParseResult | undefined)[];
  /** Parsed `to` per edge index for delegate edges; `undefined` for other edges. */
  readonly delegateRefs: () => readonly (RefParseResult | undefined)[];
  /** A shape of the workflow resolved against its `types`, by JSON Pointer; memoised. */
  readonly shape: (shape: SchemaShape, path: string) => ResolvedShape;
}

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

function conditionsOf(wf: AgentWorkflow, graph: FlowGraph): DecisionCondition[][] {
  return wf.nodes.map((node, i) => {
    if (node.type !== "decision") return [];
    const language = node.config.conditionLanguage ?? "feel";
    const out: DecisionCondition[] = [];
    const config = pointer("nodes", i, "config");
    for (const route of graph.routes[i] ?? []) {
      if (route.condition === undefined) continue;
      // The binary form keeps its condition on the config, not on the route.
      const conditionPath =
        route.label === "onTrue"
          ? `${config}/condition`
          : `${config}${route.pointerSuffix}/condition`;
      out.push({
        label: route.label,
        text: route.condition,
        path: conditionPath,
        analysis: analyzeCondition(route.condition, { language }),
      });
    }
    return out;
  });
}

/** Builds the facts of one validation. */
export function createFacts(wf: AgentWorkflow, graph: FlowGraph, resolved: ResolvedRefs): Facts {
  const shapes = new Map<string, ResolvedShape>();
  return {
    resolved,
    autonomy: lazy(() => assessAutonomy(wf)),
    conditions: lazy(() => conditionsOf(wf, graph)),
    nodeRefs: lazy(() =>
      wf.nodes.map((n) => {
        if (n.type === "llm") return parseRef(n.config.promptRef);
        if (n.type === "tool") return parseRef(n.config.usesTool);
        return undefined;
      }),
    ),
    delegateRefs: lazy(() =>
      wf.edges.map((e) => (e.edgeType === "delegate" ? parseRef(e.to) : undefined)),
    ),
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
