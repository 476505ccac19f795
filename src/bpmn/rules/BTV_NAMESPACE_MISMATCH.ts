import { BTV_URI } from "../moddle.js";
import { nodeId, nodePath } from "../process-index.js";
import type { BpmnRule } from "../rule.js";

/**
 * A `btv:agentTask`, `btv:gate` or `btv:agentWorkflowSnapshot` in a namespace that looks like
 * agentflow's but is not it (another version, `http` for `https`, a typo) is read as an unknown
 * element: the agent task or the gate it declares is ignored. Said as a warning, with the
 * element and both URIs, so the ignored declaration does not go unnoticed.
 */
export const rule: BpmnRule = {
  meta: {
    code: "BTV_NAMESPACE_MISMATCH",
    defaultSeverity: "warning",
    description:
      "An extension element named like a btv element, in a namespace that looks like the btv URI but is not it",
    docs: "docs/rules/BTV_NAMESPACE_MISMATCH.md",
    messages: {
      default:
        '"{{element}}" on "{{elementId}}" is in the namespace "{{namespace}}", not agentflow\'s "{{expected}}", so it is ignored: the element declares nothing',
    },
    remediation: 'declare xmlns:btv="{{expected}}" and use that prefix',
  },
  check(context) {
    const prepared = context.analysis?.prepared;
    if (prepared === undefined) return;
    const { index } = prepared.graph;
    for (const m of prepared.namespaceMismatches) {
      const elementId = nodeId(index, m.node);
      context.report({
        elementId,
        path: `${nodePath(index, m.node)}/extensionElements/values/${String(m.value)}`,
        data: { elementId, element: m.element, namespace: m.namespace, expected: BTV_URI },
      });
    }
  },
};
