/**
 * The shared body of PROMPT_UNRESOLVED and TOOL_UNRESOLVED: for each node of one type whose ref
 * parsed and was looked up, report an unknown or failed resolution (never a missing resolver).
 */
import type { AgentNode } from "../model/index.js";
import { NODE_KIND, pointer } from "../model/index.js";
import type { Resolution, RuleContext } from "./types.js";

/** What differs between the two rules. */
export interface UnresolvedSpec {
  readonly nodeType: "llm" | "tool";
  /** The config field holding the ref (`promptRef`, `usesTool`). */
  readonly field: string;
  /** The data key naming the canonical ref in messages (`prompt`, `tool`). */
  readonly refKey: string;
  /** Only refs that were looked up are in it (tool ids without `tool:` never are). */
  readonly resolutions: ReadonlyMap<string, Resolution<unknown>>;
}

/** Reports every unknown (messageId `default`) or failed (`failed`) resolution. */
export function reportUnresolved(context: RuleContext, spec: UnresolvedSpec): void {
  const refs = context.facts.nodeRefs();
  const kind = context.graph.kind;
  const wanted = NODE_KIND[spec.nodeType];
  context.workflow.nodes.forEach((node: AgentNode, i) => {
    const parsed = refs[i];
    // Invalid refs belong to the *_REF_INVALID rules: they were never looked up.
    if (kind[i] !== wanted || parsed?.ok !== true) return;
    const resolution = spec.resolutions.get(parsed.canonical);
    if (resolution?.status !== "unknown" && resolution?.status !== "failed") return;
    const written = (node.config as unknown as Readonly<Record<string, unknown>>)[spec.field];
    const data = { nodeId: node.id, ref: written, [spec.refKey]: parsed.canonical };
    context.report({
      target: { kind: "node", nodeId: node.id },
      path: pointer("nodes", i, "config", spec.field),
      ...(resolution.status === "failed" ? { messageId: "failed" } : {}),
      data:
        resolution.status === "failed"
          ? { ...data, status: "failed", error: resolution.error }
          : { ...data, status: "unknown" },
    });
  });
}
