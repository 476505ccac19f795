import { readFromBpmn } from "../camunda/index.js";
import { refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A tool contract or delegate workflow that cannot be found, or whose lookup failed (the
 * resolver threw, rejected, or gave no answer in time), leaves the agent's effects unknown.
 * Unknown is read as the most demanding effect: `TOOL_EFFECT_NEEDS_GATE` blocks the task unless
 * a gate follows it on every path. This warning says what could not be read, gate or not.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_DEPENDENCY_UNRESOLVED",
    scope: "process",
    defaultSeverity: "warning",
    description:
      "A tool contract or delegate workflow an agent uses could not be resolved; its effect counts as needing a gate",
    docs: "docs/rules/AGENT_DEPENDENCY_UNRESOLVED.md",
    messages: {
      tool: '{{ref}} (agent task "{{elementId}}") calls "{{dependency}}" at node "{{nodeId}}", which could not be resolved ({{problem}}); its effect is unknown and counts as needing a gate',
      delegate:
        '{{ref}} (agent task "{{elementId}}") delegates at node "{{nodeId}}" to {{dependency}}, which could not be resolved ({{problem}}); what it calls is unknown and counts as needing a gate',
      default:
        '{{ref}} (agent task "{{elementId}}") uses {{dependency}}, which could not be resolved ({{problem}})',
    },
    remediation:
      "publish the tool contract or workflow to the registry (or fix the ref), so its effect is known",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      for (const dependency of task.resolution.dependencies) {
        const failure = dependency.failure;
        if (failure?.reason !== "missing" && failure?.reason !== "failed") continue;
        // A tool container read from the BPMN is its derived workflow's, beside a btv ref too.
        const derived = task.resolution.derived;
        const bpmn = derived !== undefined && readFromBpmn(dependency);
        context.report({
          elementId: task.node.id,
          path: task.node.path,
          messageId: dependency.kind,
          data: {
            elementId: task.node.id,
            ref: bpmn ? derived.workflowRef : refLabel(task),
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
