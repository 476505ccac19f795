import { idOf, isModdleObject } from "../moddle.js";
import type { ProcessIndex } from "../process-index.js";
import { nodeId } from "../process-index.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/** The id of the process or sub-process a container is (`""` without one). */
function scopeId(index: ProcessIndex, container: number): string {
  const c = index.containers[container];
  if (c === undefined) return "";
  if (c.node >= 0) return nodeId(index, c.node);
  return index.processIds[c.process] ?? "";
}

/**
 * A sequence flow runs within one process or sub-process (BPMN 2.0, 10.5.1). One whose source or
 * target sits in another process, or across a sub-process's border, is invalid: an engine refuses
 * or never runs it. Reading it as a path would count a gate behind it as reached, so it carries
 * no reachability, and it is reported.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "SEQUENCE_FLOW_CROSSES_SCOPE",
    scope: "process",
    defaultSeverity: "error",
    description:
      "A sequence flow whose source or target lies in another process, across a sub-process's border, or is no flow node",
    docs: "docs/rules/SEQUENCE_FLOW_CROSSES_SCOPE.md",
    messages: {
      default:
        'sequence flow "{{flowId}}" in "{{flowScope}}" goes from "{{sourceId}}" (in "{{sourceScope}}") to "{{targetId}}" (in "{{targetScope}}"); a sequence flow stays within one process or sub-process, so this one never runs and counts for no path',
      missingEnd:
        'sequence flow "{{flowId}}" in "{{flowScope}}" has no {{end}}Ref; a sequence flow joins two flow nodes of its process or sub-process, so this one never runs and counts for no path',
      notFlowNode:
        'sequence flow "{{flowId}}" in "{{flowScope}}" has {{end}}Ref "{{refId}}", which is no flow node; a sequence flow joins two flow nodes of its process or sub-process, so this one never runs and counts for no path',
    },
    remediation:
      "connect the processes of a collaboration with a message flow, and keep each sequence flow inside its own process or sub-process",
  },
  check(context) {
    const index = context.analysis?.prepared.graph.index;
    if (index === undefined) return;
    for (const flow of index.crossingFlows) {
      const flowId = idOf(flow.element) ?? "";
      if (flow.source < 0 || flow.target < 0) {
        const end = flow.source < 0 ? "source" : "target";
        const ref: unknown = flow.element[`${end}Ref`];
        const refId = isModdleObject(ref) ? idOf(ref) : undefined;
        const flowScope = scopeId(index, flow.container);
        context.report({
          elementId: flowId,
          path: flow.path,
          messageId: refId === undefined ? "missingEnd" : "notFlowNode",
          data: { flowId, flowScope, end, ...(refId === undefined ? {} : { refId }) },
        });
        continue;
      }
      context.report({
        elementId: flowId,
        path: flow.path,
        data: {
          flowId,
          flowScope: scopeId(index, flow.container),
          sourceId: nodeId(index, flow.source),
          sourceScope: scopeId(index, index.container[flow.source] ?? -1),
          targetId: nodeId(index, flow.target),
          targetScope: scopeId(index, index.container[flow.target] ?? -1),
        },
      });
    }
  },
});
