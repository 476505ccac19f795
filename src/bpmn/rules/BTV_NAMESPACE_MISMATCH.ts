import { BTV_URI } from "../moddle.js";
import { nodeId, nodePath } from "../process-index.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * An extension element or attribute in a namespace that looks like agentflow's but is not it
 * (no version, another version, another host, `urn:btv`, `http` for `https`, a typo) is read as
 * an unknown one: the agent task or the gate it declares is ignored, and an agent could pass
 * as no agent at all. The author meant btv, so a verdict that ignores it cannot be trusted: an
 * error that blocks, with the element and both URIs.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "BTV_NAMESPACE_MISMATCH",
    scope: "process",
    defaultSeverity: "error",
    description:
      "An extension element named like a btv element, in a namespace that looks like the btv URI but is not it",
    docs: "docs/rules/BTV_NAMESPACE_MISMATCH.md",
    messages: {
      default:
        '"{{element}}" on "{{elementId}}" is in the namespace "{{namespace}}", not agentflow\'s "{{expected}}": what it declares cannot be read, so no verdict on this element can be trusted',
      attribute:
        'the attribute "{{element}}" of "{{elementId}}" is in the namespace "{{namespace}}", not agentflow\'s "{{expected}}": what it declares cannot be read, so no verdict on this element can be trusted',
    },
    remediation: 'declare xmlns:btv="{{expected}}" and use that prefix',
  },
  check(context) {
    const prepared = context.analysis?.prepared;
    if (prepared === undefined) return;
    const { index } = prepared.graph;
    for (const m of prepared.namespaceMismatches) {
      const elementId = nodeId(index, m.node);
      const path = nodePath(index, m.node);
      context.report({
        elementId,
        ...(m.value === undefined
          ? { path, messageId: "attribute" }
          : { path: `${path}/extensionElements/values/${String(m.value)}` }),
        data: { elementId, element: m.element, namespace: m.namespace, expected: BTV_URI },
      });
    }
  },
});
