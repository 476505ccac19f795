/* global module */
/**
 * `plugin:agentflow/recommended`: each rule at its BPMN rule's default severity. Written out
 * rather than loaded from the ES module build so the config resolves on any Node.js; the tests
 * check it equals `configs.recommended` of `agentflow/bpmnlint`.
 */
"use strict";

module.exports = {
  rules: {
    "sequence-flow-crosses-scope": "error",
    "btv-namespace-mismatch": "error",
    "agent-ref-invalid": "error",
    "agent-autonomy-invalid": "error",
    "agent-ref-conflict": "error",
    "agent-unresolved": "warn",
    "agent-lookup-invalid": "error",
    "agent-dependency-unresolved": "warn",
    "agent-autonomy-mismatch": "error",
    "agent-workflow-invalid": "error",
    "tool-effect-invalid": "error",
    "camunda-tool-effect-unmapped": "warn",
    "camunda-agent-unbounded": "error",
    "agent-gate-unreachable": "error",
    "agent-gate-bypass": "error",
    "agent-gate-optional": "warn",
    "agent-self-modifying": "warn",
    "tool-effect-needs-gate": "error",
  },
};
