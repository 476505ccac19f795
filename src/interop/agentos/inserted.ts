/**
 * The decisions inserted for personality and discovery edges: both route on AgentOS state that
 * agentflow cannot read (persona traits, the host's discovery engine), so both become binary
 * text decisions, declared, between the source node and its two possible targets.
 */
import { pointer } from "../../model/index.js";
import { isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import type { Draft, MappedNode, Resolve, Edge } from "./types.js";
import { fail } from "./types.js";

/**
 * Where AgentOS 0.9.164 reads a persona trait (GraphRuntime.evaluateEdges): the runtime config's
 * `personaTraits` first, then `scratch._personaTraits`, else 0.5; it routes `above` when the
 * value is at least the threshold (`>=`), so the condition text says both.
 */
export const PERSONA_TRAIT_SOURCE =
  "AgentOS runtime config personaTraits, else scratch._personaTraits, else 0.5";

/** The decision for a node's personality edges (one shared condition, `above` / `below`). */
export function personality(
  node: MappedNode,
  group: readonly Edge[],
  resolve: Resolve,
  warnings: InteropWarning[],
  id: string,
): Draft {
  const [first] = group;
  const pc = first === undefined ? undefined : own(first.raw, "personalityCondition");
  const fields = isRecord(pc)
    ? ["trait", "threshold", "above", "below"].map((k) => own(pc, k))
    : [];
  const [trait, threshold, above, below] = fields;
  if (
    first === undefined ||
    typeof trait !== "string" ||
    typeof threshold !== "number" ||
    typeof above !== "string" ||
    typeof below !== "string"
  ) {
    throw fail(
      pointer("edges", first?.i ?? 0, "personalityCondition"),
      `node '${node.sourceId}': a personality edge needs personalityCondition {trait, threshold, above, below}`,
      node.sourceId,
    );
  }
  for (const edge of group) {
    const other = own(edge.raw, "personalityCondition");
    if (
      JSON.stringify(other) !== JSON.stringify(pc) ||
      (edge.target !== above && edge.target !== below)
    ) {
      throw fail(
        pointer("edges", edge.i, "personalityCondition"),
        `node '${node.sourceId}': its personality edges disagree on one condition`,
        node.sourceId,
      );
    }
  }
  warnings.push(
    guessed(
      pointer("edges", first.i, "personalityCondition"),
      `node '${node.sourceId}': personality routing reads persona traits, not output; it becomes text decision '${id}', never simulable`,
      { nodeId: node.sourceId, decisionId: id },
    ),
  );
  return {
    id,
    type: "decision",
    config: {
      condition: `persona trait '${trait}' >= ${threshold} (${PERSONA_TRAIT_SOURCE})`,
      conditionLanguage: "text",
      onTrue: { next: resolve(above, first, "personalityCondition") },
      onFalse: { next: resolve(below, first, "personalityCondition") },
    },
  };
}

/** The decision for a node's one discovery edge: its target on a match, else its fallback. */
export function discovery(
  node: MappedNode,
  group: readonly Edge[],
  resolve: Resolve,
  warnings: InteropWarning[],
  id: string,
): Draft {
  const [first, second] = group;
  if (first === undefined || second !== undefined) {
    throw fail(
      pointer("edges", (second ?? first)?.i ?? 0),
      `node '${node.sourceId}' has more than one discovery edge`,
      node.sourceId,
    );
  }
  const fallback = own(first.raw, "discoveryFallback");
  if (typeof fallback !== "string") {
    throw fail(
      pointer("edges", first.i, "discoveryFallback"),
      `node '${node.sourceId}': a discovery edge without a fallback fails the run when nothing is found, which has no agentflow form`,
      node.sourceId,
    );
  }
  const query = own(first.raw, "discoveryQuery");
  const kind = own(first.raw, "discoveryKind");
  warnings.push(
    guessed(
      pointer("edges", first.i),
      `node '${node.sourceId}': discovery routing depends on the host's discovery engine; it becomes text decision '${id}', never simulable`,
      { nodeId: node.sourceId, decisionId: id },
    ),
  );
  return {
    id,
    type: "decision",
    config: {
      condition: `capability discovery finds a ${typeof kind === "string" ? kind : "any"} match${typeof query === "string" ? ` for ${JSON.stringify(query)}` : ""}`,
      conditionLanguage: "text",
      onTrue: { next: resolve(first.target, first) },
      onFalse: { next: resolve(fallback, first, "discoveryFallback") },
    },
  };
}
