/**
 * Defaults the seed engine's model gives fields a document may leave out: a planner's
 * `strategy` is `static`, an error boundary's `backoff` is `fixed`. A parsed workflow carries
 * them written out, so every reader (rules, autonomy, simulation, exporters) sees one form, and
 * two spellings of the same agent — with the default written or left out — have one canonical
 * form and one content hash.
 */
import type { AgentNode, AgentWorkflow, Decorator } from "../types.js";

/** The value a planner's `strategy` has when a document leaves it out. */
export const DEFAULT_PLANNER_STRATEGY = "static";

/** The value an error boundary's `backoff` has when a document leaves it out. */
export const DEFAULT_ERROR_BACKOFF = "fixed";

function withDefault(decorator: Decorator): Decorator {
  // A parsed document may leave these out although the type says they are there.
  const d = decorator as unknown as Partial<Record<string, unknown>>;
  if (decorator.type === "planner" && d.strategy === undefined) {
    return { ...decorator, strategy: DEFAULT_PLANNER_STRATEGY };
  }
  if (decorator.type === "errorBoundary" && d.backoff === undefined) {
    return { ...decorator, backoff: DEFAULT_ERROR_BACKOFF };
  }
  return decorator;
}

function nodeWithDefaults(node: AgentNode): AgentNode {
  const decorators = node.decorators;
  if (decorators === undefined) return node;
  // Loops, not map/slice: a document's array may carry an own `constructor` (a value in JSON),
  // which Array.prototype.map and slice read to make their result, and throw on.
  const filled: Decorator[] = [];
  let changed = false;
  for (const decorator of decorators) {
    const next = withDefault(decorator);
    changed ||= next !== decorator;
    filled.push(next);
  }
  return changed ? { ...node, decorators: filled } : node;
}

/**
 * The workflow with each left-out default written in; the same object when none is missing,
 * and otherwise a copy that shares every node it did not change. One pass over the nodes.
 */
export function withDefaults(workflow: AgentWorkflow): AgentWorkflow {
  let nodes: AgentNode[] | undefined;
  workflow.nodes.forEach((node, i) => {
    const filled = nodeWithDefaults(node);
    if (filled === node) return;
    nodes ??= [...workflow.nodes];
    nodes[i] = filled;
  });
  return nodes === undefined ? workflow : { ...workflow, nodes };
}
