import type { AgentTaskFacts } from "../analysis.js";
import type { Dependency } from "../dependency.js";
import { needsGate } from "../dependency.js";
import { readFromBpmn } from "../camunda/index.js";
import { discountedAfter, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * An irreversible or committing tool needs a person's approval whatever the agent's level: even
 * a level-5 agent may not delete, pay or sign unreviewed. A tool whose contract could not be
 * looked up, and a delegate that could not be, have an unknown effect, read as the most
 * demanding one (fail closed). Reported once per such dependency, when the gate downstream is
 * missing or can be bypassed. The tools of a Camunda AI agent read from the BPMN count too, even
 * where a btv ref names the agent: the engine runs the tools drawn; such a finding names the
 * derived workflow (`camunda.<element id>@1.0.0`) that calls them.
 */
/** Who calls the tool: the derived workflow for a tool read from the BPMN, else the task's ref. */
function callerLabel(task: AgentTaskFacts, dependency: Dependency): string {
  const derived = task.resolution.derived;
  return derived !== undefined && readFromBpmn(dependency) ? derived.workflowRef : refLabel(task);
}

export const rule: BpmnRule = defineRule({
  meta: {
    code: "TOOL_EFFECT_NEEDS_GATE",
    scope: "process",
    defaultSeverity: "error",
    description:
      "An agent calls a tool whose effect needs a gate (or is unknown), and the process has none on every path after it",
    docs: "docs/rules/TOOL_EFFECT_NEEDS_GATE.md",
    messages: {
      default:
        '{{ref}} (agent task "{{elementId}}") calls "{{tool}}" (effect "{{effect}}") at node "{{nodeId}}", but the gate downstream is {{gate}}{{discountHint}}',
      delegated:
        '{{ref}} (agent task "{{elementId}}") delegates to {{via}}, which calls "{{tool}}" (effect "{{effect}}") at node "{{nodeId}}", but the gate downstream is {{gate}}{{discountHint}}',
      unknown:
        '{{ref}} (agent task "{{elementId}}") calls "{{tool}}" at node "{{nodeId}}", whose effect is unknown ({{problem}}) and so counts as needing a gate, but the gate downstream is {{gate}}{{discountHint}}',
      "unknown-delegated":
        '{{ref}} (agent task "{{elementId}}") delegates to {{via}}, which calls "{{tool}}" at node "{{nodeId}}", whose effect is unknown ({{problem}}) and so counts as needing a gate, but the gate downstream is {{gate}}{{discountHint}}',
      "unknown-delegate":
        '{{ref}} (agent task "{{elementId}}") delegates at node "{{nodeId}}" to {{tool}}, which could not be reviewed ({{problem}}): what it calls counts as needing a gate, but the gate downstream is {{gate}}{{discountHint}}',
    },
    remediation:
      "place a gate after the agent task on every path, or use a reversible tool (and make every tool and delegate resolvable)",
  },
  check(context) {
    const analysis = context.analysis;
    for (const task of analysis?.tasks ?? []) {
      if (analysis === undefined || task.gate.status === "reached") continue;
      let discounted: ReturnType<typeof discountedAfter> | undefined;
      for (const dependency of task.resolution.dependencies) {
        if (!needsGate(dependency)) continue;
        const { failure, via } = dependency;
        const messageId =
          failure !== undefined
            ? dependency.kind === "delegate"
              ? "unknown-delegate"
              : via === undefined
                ? "unknown"
                : "unknown-delegated"
            : via === undefined
              ? "default"
              : "delegated";
        context.report({
          elementId: task.node.id,
          path: task.node.path,
          messageId,
          data: {
            ...(via === undefined ? {} : { via }),
            elementId: task.node.id,
            ref: callerLabel(task, dependency),
            tool: dependency.ref,
            effect: dependency.effect ?? "unknown",
            nodeId: dependency.nodeId,
            gate: task.gate.status,
            ...(discounted ??= discountedAfter(analysis, task)),
            ...(failure === undefined ? {} : { problem: failure.detail, failure: failure.reason }),
          },
        });
      }
    }
  },
});
