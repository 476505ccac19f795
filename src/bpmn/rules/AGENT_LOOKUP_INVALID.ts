import { declarationPath, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A registry that answers a lookup with another document than the one asked for — another
 * `id@version`, or something that is not a valid workflow or tool contract (an effect outside
 * the six, say) — cannot be trusted for the rest of the review either: what would run is not
 * what was named. An error whatever the gates, once per lookup.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_LOOKUP_INVALID",
    scope: "process",
    defaultSeverity: "error",
    description:
      "The registry answered an agent's workflow, tool or delegate lookup with another or an invalid document",
    docs: "docs/rules/AGENT_LOOKUP_INVALID.md",
    messages: {
      default:
        'the registry\'s answer for {{ref}} (agent task "{{elementId}}") cannot be used: {{problem}}',
      tool: 'the registry\'s answer for "{{dependency}}", which {{ref}} (agent task "{{elementId}}") calls at node "{{nodeId}}", cannot be used: {{problem}}',
      delegate:
        'the registry\'s answer for {{dependency}}, which {{ref}} (agent task "{{elementId}}") delegates to at node "{{nodeId}}", cannot be used: {{problem}}',
    },
    remediation:
      "fix the registry (or the resolver) so that each id@version answers with its own valid document",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const ref = refLabel(task);
      const own = task.resolution.registryFailure;
      if (own === "mismatch" || own === "invalid") {
        context.report({
          elementId: task.node.id,
          path: declarationPath(task, "agentWorkflowRef"),
          data: {
            elementId: task.node.id,
            ref,
            failure: own,
            problem: task.resolution.registryProblem ?? own,
          },
        });
      }
      for (const dependency of task.resolution.dependencies) {
        const failure = dependency.failure;
        if (failure?.reason !== "mismatch" && failure?.reason !== "invalid") continue;
        context.report({
          elementId: task.node.id,
          path: task.node.path,
          messageId: dependency.kind,
          data: {
            elementId: task.node.id,
            ref,
            dependency: dependency.ref,
            nodeId: dependency.nodeId,
            ...(dependency.via === undefined ? {} : { via: dependency.via }),
            failure: failure.reason,
            problem: failure.detail,
          },
        });
      }
    }
  },
});
