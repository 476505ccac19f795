import {
  discountedAfter,
  levelLabel,
  opaqueMarker,
  refLabel,
  undeclaredGates,
} from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A gate on one branch is not oversight if another branch (a gateway, a boundary event, an event
 * sub-process) reaches the end without it. The report carries one such path, shortest first.
 * As for AGENT_GATE_UNREACHABLE, the level a Camunda AI agent is read at counts beside a btv ref,
 * and a sub-process that is a Camunda agent the BPMN does not describe is named with the
 * attribute that makes it one (`opaque`).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_GATE_BYPASS",
    scope: "process",
    defaultSeverity: "error",
    description:
      "From an agent task that requires a gate, a path reaches an end without passing a gate",
    docs: "docs/rules/AGENT_GATE_BYPASS.md",
    messages: {
      default:
        'agent task "{{elementId}}" (autonomy level {{level}}) can reach the end without an approval gate: {{bypassPath}}{{hint}}{{discountHint}}',
      unreviewed:
        'agent task "{{elementId}}" ({{ref}}) could not be reviewed, since its workflow could not be read, so it needs an approval gate on every path as the most demanding case, but it can reach the end without one: {{bypassPath}}{{hint}}{{discountHint}}',
      camunda:
        'agent task "{{elementId}}" names {{ref}} (autonomy level {{level}}) but runs the Camunda AI agent the BPMN draws, read at autonomy level {{camundaLevel}}: it needs an approval gate on every path, and it can reach the end without one: {{bypassPath}}{{hint}}{{discountHint}}',
      opaque:
        'agent task "{{elementId}}" is a Camunda agent the BPMN does not describe ({{marker}}): its autonomy level is unknown, so it needs an approval gate on every path, but it can reach the end without one: {{bypassPath}}{{hint}}{{discountHint}}',
    },
    remediation:
      "route every path from the agent task through a gate, or gate the bypassing branch too",
  },
  check(context) {
    const analysis = context.analysis;
    if (analysis === undefined) return;
    for (const task of analysis.tasks) {
      if (task.requirement !== "required" || task.gate.status !== "bypassed") continue;
      const marker = opaqueMarker(task);
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        ...(task.unreviewed
          ? { messageId: "unreviewed" }
          : task.camundaLevel !== undefined
            ? { messageId: "camunda" }
            : marker === undefined
              ? {}
              : { messageId: "opaque" }),
        data: {
          ...undeclaredGates(analysis, task),
          ...discountedAfter(analysis, task),
          elementId: task.node.id,
          level: levelLabel(task),
          ref: refLabel(task),
          ...(task.camundaLevel === undefined ? {} : { camundaLevel: task.camundaLevel }),
          ...(marker === undefined ? {} : { marker }),
          source: task.declaration.source,
          bypassPath: task.gate.bypassPath.join(" → "),
          pathIds: task.gate.bypassPath,
        },
      });
    }
  },
});
