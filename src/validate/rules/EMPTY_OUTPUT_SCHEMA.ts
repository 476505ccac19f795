import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The workflow's `outputSchema` declares no field. The output shape is what the BPMN process (and
 * any downstream gate) relies on: an empty one promises nothing, so the simulator cannot check
 * the final output and a reviewer cannot see what the agent hands back.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "EMPTY_OUTPUT_SCHEMA",
    defaultSeverity: "error",
    description: "outputSchema declares no field",
    docs: "docs/rules/EMPTY_OUTPUT_SCHEMA.md",
    messages: {
      default: "the workflow's {{schema}} declares no field, so nothing it returns can be checked",
    },
    remediation:
      "declare at least one field the workflow returns, for example outputSchema: { answer: text }",
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { workflow } = context;
    const shape: unknown = workflow.outputSchema;
    // A value that is not an object (unvalidated input) has no fields either.
    const empty = typeof shape !== "object" || shape === null || Object.keys(shape).length === 0;
    if (!empty) return;
    context.report({
      target: { kind: "workflow" },
      path: pointer("outputSchema"),
      data: { schema: "outputSchema" },
    });
  },
});
