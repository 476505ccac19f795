import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A Camunda AI agent with tools loops: the model calls tools and is called again with their
 * results until it answers. `data.limits.maxModelCalls` bounds that loop; without a static value
 * (absent, or a FEEL expression agentflow cannot evaluate) the BPMN states no bound, and agentflow
 * does not assume the connector's default: the loop is unbounded (as RETRY_WITHOUT_MAX for a
 * workflow document).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "CAMUNDA_AGENT_UNBOUNDED",
    scope: "process",
    defaultSeverity: "error",
    description:
      "A Camunda AI agent with tools states no static maximum of model calls: its loop has no stated bound",
    docs: "docs/rules/CAMUNDA_AGENT_UNBOUNDED.md",
    messages: {
      default:
        'Camunda agent "{{elementId}}" calls its {{tools}} tool(s) in a loop with no maximum of model calls (data.limits.maxModelCalls is absent), so the loop has no stated bound',
      feel: "Camunda agent \"{{elementId}}\" calls its {{tools}} tool(s) in a loop whose maximum of model calls is the expression '{{source}}' ({{input}}), which agentflow cannot evaluate, so the loop has no stated bound",
    },
    remediation:
      'set "Maximum model calls" (data.limits.maxModelCalls) to a number, e.g. =10, in the agent\'s Limits group',
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const derived = task.resolution.derived;
      if (derived?.unbounded !== true) continue;
      const limit = derived.limits.maxModelCalls;
      const tools = derived.container?.found === false ? "unreadable" : derived.tools.length;
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        ...(limit === undefined ? {} : { messageId: "feel" }),
        data: {
          elementId: task.node.id,
          tools,
          ...(limit === undefined ? {} : { source: limit.source, input: limit.input }),
        },
      });
    }
  },
});
