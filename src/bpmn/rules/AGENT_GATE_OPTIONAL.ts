import { levelLabel, opaqueMarker } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * Level 4 (multi-agent) makes a gate optional, not pointless: the warning keeps the choice
 * visible to the reviewer without blocking promotion. An agent of unknown level is here when the
 * `camundaAgents` policy is `gate-optional`; one that is a sub-process the BPMN does not describe
 * as an agent is named with the attribute that makes it one (`opaque`).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_GATE_OPTIONAL",
    scope: "process",
    defaultSeverity: "warning",
    description: "A level-4 agent task has no gate downstream",
    docs: "docs/rules/AGENT_GATE_OPTIONAL.md",
    messages: {
      default:
        'agent task "{{elementId}}" (autonomy level {{level}}) has no approval gate downstream; at this level one is optional but recommended',
      opaque:
        'agent task "{{elementId}}" is a Camunda agent the BPMN does not describe ({{marker}}): its autonomy level is unknown, and it has no approval gate downstream; the camundaAgents policy makes one optional, but recommended',
    },
    remediation: "consider a gate after the agent task, or record why none is needed",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      if (task.requirement !== "optional" || task.gate.status !== "missing") continue;
      const marker = opaqueMarker(task);
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        ...(marker === undefined ? {} : { messageId: "opaque" }),
        data: {
          elementId: task.node.id,
          level: levelLabel(task),
          source: task.declaration.source,
          ...(marker === undefined ? {} : { marker }),
        },
      });
    }
  },
});
