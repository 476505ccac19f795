import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The workflow's `inputSchema` declares no field. The input shape is the contract with whatever
 * starts the agent (a BPMN task, a caller): an empty one says the agent receives nothing, so
 * nothing it is given can be checked, and a reviewer cannot see what it works on.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "EMPTY_INPUT_SCHEMA",
    defaultSeverity: "error",
    description: "inputSchema declares no field",
    docs: "docs/rules/EMPTY_INPUT_SCHEMA.md",
    messages: {
      default: "the workflow's {{schema}} declares no field, so nothing it receives can be checked",
    },
    remediation:
      "declare at least one field the workflow receives, for example inputSchema: { query: text }",
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { workflow } = context;
    const shape: unknown = workflow.inputSchema;
    // A value that is not an object (unvalidated input) has no fields either.
    const empty = typeof shape !== "object" || shape === null || Object.keys(shape).length === 0;
    if (!empty) return;
    context.report({
      target: { kind: "workflow" },
      path: pointer("inputSchema"),
      data: { schema: "inputSchema" },
    });
  },
});
