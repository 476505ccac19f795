import { pointer } from "../../model/index.js";
import { MAX_DELEGATES } from "../resolve.js";
import type { Rule } from "../types.js";
import type { UnreadBelow } from "../unresolved-below.js";
import { unreadBelow } from "../unresolved-below.js";
import { defineRule } from "../../rules/index.js";

/**
 * Without the delegate's document nothing can be checked about it: its contract, its autonomy,
 * whether it delegates back. The warning says which of the reasons applies, because each has a
 * different fix (inject a resolver, publish the delegate, repair the registry). A delegate that
 * is read but reaches an unread one through its own delegations is reported on the edge that
 * leads there (`transitive`): the unread one's own finding is the delegate's, which no output
 * shows, and it would pass without a word.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_UNRESOLVED",
    defaultSeverity: "warning",
    description:
      "A delegate agent could not be resolved, so its contract, autonomy and cycles are unchecked",
    docs: "docs/rules/DELEGATE_UNRESOLVED.md",
    messages: {
      default: 'node "{{nodeId}}" delegates to "{{delegate}}", which was not resolved ({{reason}})',
      "no-resolver":
        'node "{{nodeId}}" delegates to "{{delegate}}", but no delegate resolver was given, so the delegate is unchecked',
      unknown:
        'node "{{nodeId}}" delegates to "{{delegate}}", which the delegate resolver does not know',
      failed: 'node "{{nodeId}}" delegates to "{{delegate}}", whose resolution failed: {{error}}',
      limit:
        'node "{{nodeId}}" delegates to "{{delegate}}", which was not resolved: a workflow resolves at most {{limit}} delegates',
      transitive:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose delegations reach "{{unread}}" ({{depth}} down), which was not resolved ({{reason}}), so what it does is unchecked',
    },
    remediation:
      "inject resolveDelegate (a registry of agent workflows) and make sure it returns a valid AgentWorkflow for this exact ref",
  },
  check(context) {
    // `report` stays on the context: it is declared as a method, so it is not destructured.
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to compute (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    const refs = facts.delegateRefs();
    const { delegates } = facts.resolved;
    let below: ReadonlyMap<string, UnreadBelow> | undefined;
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const parsed = refs[index];
      // Invalid refs are DELEGATE_REF_INVALID's: they were never looked up.
      if (edge?.edgeType !== "delegate" || parsed?.ok !== true) return;
      const resolution = delegates.get(parsed.canonical);
      const base = {
        target: { kind: "node", nodeId: edge.from } as const,
        path: pointer("edges", index, "to"),
      };
      const data = { nodeId: edge.from, index, ref: edge.to, delegate: parsed.canonical };
      if (resolution?.status === "resolved") {
        below ??= unreadBelow(delegates);
        const unread = below.get(parsed.canonical);
        if (unread !== undefined) {
          context.report({
            ...base,
            messageId: "transitive",
            data: { ...data, unread: unread.ref, reason: unread.reason, depth: unread.depth },
          });
        }
        return;
      }
      if (resolution === undefined) {
        // Only reachable past the resolution bound: the ref was never looked up.
        context.report({
          ...base,
          messageId: "limit",
          data: { ...data, reason: "limit", limit: MAX_DELEGATES },
        });
      } else if (resolution.status === "failed") {
        context.report({
          ...base,
          messageId: "failed",
          data: { ...data, reason: "failed", error: resolution.error },
        });
      } else {
        context.report({
          ...base,
          messageId: resolution.status,
          data: { ...data, reason: resolution.status },
        });
      }
    });
  },
});
