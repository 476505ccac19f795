import { BTV_URI } from "../moddle.js";
import { nodeId, nodePath } from "../process-index.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * A btv declaration agentflow does not read: an extension element or attribute in a namespace
 * that looks like agentflow's but is not it (no version, another version, another host,
 * `urn:btv`, `http` for `https`, a typo), a btv element or attribute btv does not define (a
 * misspelt `btv:agentworkflowref`), or one where agentflow reads none (a `btv:agentTask` on a
 * pool, a lane, the process, a sequence flow; a `btv:agentWorkflowRef` on anything but an
 * activity; an agent on a gateway or a waiting event). The agent task or the gate it declares
 * is ignored, and an agent could pass as no agent at all. The author meant btv, so a verdict
 * that ignores it cannot be trusted: an error that blocks, naming the element and what carries it.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "BTV_NAMESPACE_MISMATCH",
    scope: "process",
    defaultSeverity: "error",
    description:
      "A btv declaration agentflow does not read: in a namespace that only looks like btv's, misspelt, or on an element that runs no agent",
    docs: "docs/rules/BTV_NAMESPACE_MISMATCH.md",
    messages: {
      default:
        '"{{element}}" on "{{elementId}}" is in the namespace "{{namespace}}", not agentflow\'s "{{expected}}": what it declares cannot be read, so no verdict on this element can be trusted',
      attribute:
        'the attribute "{{element}}" of "{{elementId}}" is in the namespace "{{namespace}}", not agentflow\'s "{{expected}}": what it declares cannot be read, so no verdict on this element can be trusted',
      misplaced:
        '"{{element}}" on {{on}} "{{elementId}}" is not read: agentflow reads agent declarations and gates only on the flow nodes of a process, so the process is judged as if it were not there; put it on the task that runs the agent (or the step that is the gate)',
      element:
        '"{{element}}" on {{on}} "{{elementId}}" is in agentflow\'s namespace, but btv defines no such element, so what it declares is not read',
      "element-suggest":
        '"{{element}}" on {{on}} "{{elementId}}" is in agentflow\'s namespace, but btv defines no such element, so what it declares is not read: did you mean "{{suggestion}}"?',
      "unknown-attribute":
        'the attribute "{{element}}" of {{on}} "{{elementId}}" is in agentflow\'s namespace, but btv defines no such attribute there, so what it declares is not read',
      "unknown-attribute-suggest":
        'the attribute "{{element}}" of {{on}} "{{elementId}}" is in agentflow\'s namespace, but btv defines no such attribute there, so what it declares is not read: did you mean "{{suggestion}}"?',
      "attribute-misplaced":
        'the attribute "{{element}}" of {{on}} "{{elementId}}" is not read: agentflow reads btv:agentWorkflowRef only on an activity of a process and btv:toolEffect only on a flow node of one, so the process is judged as if it were not there; put it on the task it is about',
      "attribute-unregistered":
        'the attribute "{{element}}" of {{on}} "{{elementId}}" is not read: the moddle that read the document has no btv package, so it kept the attribute as an unknown one; register agentflow/bpmn/resources/btv.json with it',
      "no-agent-host":
        '"{{element}}" on {{on}} "{{elementId}}": a gateway, a start event, a boundary event or an intermediate catch event runs no agent, so the agent is judged where it never runs and the task that runs it goes undeclared; put the declaration on that task',
    },
    remediation:
      'write btv declarations as agentflow reads them: in the namespace "{{expected}}" (xmlns:btv), spelled as docs/bpmn.md lists them, on the flow node they are about (the task that runs the agent, the step that is the gate)',
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
    for (const u of prepared.unreadDeclarations) {
      const { kind, elementId, path, name, on, suggestion } = u;
      const base = kind === "attribute" ? "unknown-attribute" : kind;
      const suggests = suggestion !== undefined && (kind === "attribute" || kind === "element");
      context.report({
        elementId,
        path,
        messageId: suggests ? `${base}-suggest` : base,
        data: {
          kind,
          elementId,
          element: name,
          on,
          ...(suggestion === undefined ? {} : { suggestion }),
          expected: BTV_URI,
        },
      });
    }
  },
});
