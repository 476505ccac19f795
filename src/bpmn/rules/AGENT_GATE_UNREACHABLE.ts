import { discountedAfter, levelLabel, refLabel, undeclaredGates } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * Levels 0-3 (and agents of unknown level, by the default policy) need a person to approve what
 * the agent did before the process acts on it. With no gate anywhere downstream, nobody does.
 * A btv ref on a Camunda AI agent agentflow reads does not lower the level the BPMN's agent is
 * read at: when that level is what needs the gate, the finding says so (`camunda`).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_GATE_UNREACHABLE",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task whose level requires a gate has no gate reachable downstream",
    docs: "docs/rules/AGENT_GATE_UNREACHABLE.md",
    messages: {
      default:
        'agent task "{{elementId}}" (autonomy level {{level}}) needs an approval gate downstream, but no gate is reachable from it{{hint}}{{discountHint}}',
      unreviewed:
        'agent task "{{elementId}}" ({{ref}}) could not be reviewed, since its workflow could not be read, so it needs an approval gate downstream as the most demanding case, but no gate is reachable from it{{hint}}{{discountHint}}',
      camunda:
        'agent task "{{elementId}}" names {{ref}} (autonomy level {{level}}) but runs the Camunda AI agent the BPMN draws, read at autonomy level {{camundaLevel}}: it needs an approval gate downstream, and no gate is reachable from it{{hint}}{{discountHint}}',
    },
    remediation:
      "add a flow node marked <btv:gate/> (e.g. a user task for approval) after the agent task",
  },
  check(context) {
    const analysis = context.analysis;
    if (analysis === undefined) return;
    for (const task of analysis.tasks) {
      if (task.requirement !== "required" || task.gate.status !== "missing") continue;
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        ...(task.unreviewed
          ? { messageId: "unreviewed" }
          : task.camundaLevel === undefined
            ? {}
            : { messageId: "camunda" }),
        data: {
          ...undeclaredGates(analysis, task),
          ...discountedAfter(analysis, task),
          elementId: task.node.id,
          level: levelLabel(task),
          source: task.declaration.source,
          ref: refLabel(task),
          ...(task.camundaLevel === undefined ? {} : { camundaLevel: task.camundaLevel }),
        },
      });
    }
  },
});
