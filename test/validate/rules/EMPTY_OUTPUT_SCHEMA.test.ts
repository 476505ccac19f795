import type { AgentWorkflow } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/EMPTY_OUTPUT_SCHEMA.js";
import { minimal } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** Unvalidated input: a workflow object whose outputSchema is not a shape at all. */
const withRawOutput = (outputSchema: unknown): AgentWorkflow =>
  ({ ...minimal(), outputSchema }) as AgentWorkflow;

const expected = [
  {
    code: "EMPTY_OUTPUT_SCHEMA",
    target: { kind: "workflow" },
    path: "/outputSchema",
    data: { schema: "outputSchema" },
  },
] as const;

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "one field", workflow: minimal() },
    {
      name: "only an optional field still declares a field",
      workflow: minimal({ outputSchema: { "done?": "bool" } }),
    },
    {
      name: "a field with an invalid type is SCHEMA_TYPE_INVALID's business",
      workflow: minimal({ outputSchema: { done: "Nope" } }),
    },
    {
      name: "a field named __proto__ is a field",
      workflow: minimal({
        outputSchema: JSON.parse('{"__proto__": "text"}') as Record<string, string>,
      }),
    },
    {
      name: "an empty inputSchema is another rule's business",
      workflow: minimal({ inputSchema: {} }),
    },
  ],
  invalid: [
    { name: "an empty shape", workflow: minimal({ outputSchema: {} }), errors: expected },
    {
      name: "an empty shape with types declared",
      workflow: minimal({ outputSchema: {}, types: { T: { a: "text" } } }),
      errors: expected,
    },
    {
      name: "a missing outputSchema (unvalidated input)",
      workflow: withRawOutput(undefined),
      errors: expected,
    },
    { name: "null (unvalidated input)", workflow: withRawOutput(null), errors: expected },
  ],
});
