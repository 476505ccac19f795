import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";
import { defaultEffectOf } from "../camunda/index.js";

/**
 * A tool of a Camunda AI agent whose effect no `btv:toolEffect`, `toolEffects` mapping or
 * agentflow default gives is `unknown`, and unknown counts as needing a gate
 * (TOOL_EFFECT_NEEDS_GATE blocks the agent when no gate follows it). This warning names the tool
 * and says exactly how to map it, gate or not.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "CAMUNDA_TOOL_EFFECT_UNMAPPED",
    scope: "process",
    defaultSeverity: "warning",
    description:
      "A Camunda AI agent's tool has no known effect (no btv:toolEffect, mapping or default); it counts as needing a gate",
    docs: "docs/rules/CAMUNDA_TOOL_EFFECT_UNMAPPED.md",
    messages: {
      default:
        'Camunda agent "{{elementId}}" may call tool "{{toolId}}", whose effect is unknown ({{problem}}); it counts as needing a gate. Map it: add "toolEffects": { "{{key}}": "<effect>" } to agentflow.config.json, or btv:toolEffect="<effect>" on "{{toolId}}"',
      element:
        'Camunda agent "{{elementId}}" may call tool "{{toolId}}", whose effect is unknown ({{problem}}); it counts as needing a gate. Map it: add btv:toolEffect="<effect>" on "{{toolId}}"',
      container:
        'Camunda agent "{{elementId}}" names the tool container "{{toolId}}", whose tools cannot be read ({{problem}}); what they do counts as needing a gate. Give data.tools.containerElementId the id of an ad-hoc sub-process in this file',
    },
    remediation:
      "state the tool's effect: btv:toolEffect on the element, or the toolEffects mapping in agentflow.config.json (effects: read, propose, notify, write-reversible, write-irreversible, external-commitment)",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const derived = task.resolution.derived;
      if (derived === undefined) continue;
      const base = { elementId: task.node.id, path: task.node.path };
      for (const tool of derived.tools) {
        if (tool.effect !== undefined) continue;
        const decider = tool.decidedBy === tool.id ? tool : undefined;
        // The key the unknown effect was looked up by, when it names one: mapping it decides.
        // Else a key whose mapping would decide: a template agentflow has no default for (the
        // organisation's mapping of it is its word), or a job type written out. A template
        // agentflow knows is borne out only by its own job type, so mapping it cannot help an
        // element that runs none, or one known only at run time: btv:toolEffect can.
        const looked = decider?.effectKey;
        const template = decider?.templateId;
        const job = decider?.jobType;
        const key =
          looked !== undefined && looked !== "btv:toolEffect"
            ? looked
            : template !== undefined && defaultEffectOf(template) === undefined
              ? template
              : job !== undefined && !job.trim().startsWith("=")
                ? job
                : undefined;
        context.report({
          ...base,
          ...(key === undefined ? { messageId: "element" } : {}),
          data: {
            elementId: task.node.id,
            toolId: tool.decidedBy,
            problem: tool.unknownReason ?? "unknown",
            ...(key === undefined ? {} : { key }),
          },
        });
      }
      const container = derived.container;
      if (container !== undefined && !container.found) {
        context.report({
          ...base,
          messageId: "container",
          data: {
            elementId: task.node.id,
            toolId: container.id,
            problem: container.problem ?? "unreadable",
          },
        });
      }
    }
  },
});
