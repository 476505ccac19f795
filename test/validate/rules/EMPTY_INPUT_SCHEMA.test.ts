import type { AgentWorkflow } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/EMPTY_INPUT_SCHEMA.js";
import { minimal } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** Unvalidated input: a workflow object whose inputSchema is not a shape at all. */
const withRawInput = (inputSchema: unknown): AgentWorkflow =>
  ({ ...minimal(), inputSchema }) as AgentWorkflow;

const expected = [
  {
    code: "EMPTY_INPUT_SCHEMA",
    target: { kind: "workflow" },
    path: "/inputSchema",
    data: { schema: "inputSchema" },
  },
] as const;

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "one field", workflow: minimal() },
    {
      name: "only an optional field still declares a field",
      workflow: minimal({ inputSchema: { "q?": "text" } }),
    },
    {
      name: "a field with an invalid type is SCHEMA_TYPE_INVALID's business",
      workflow: minimal({ inputSchema: { q: "Nope" } }),
    },
    {
      name: "a field named __proto__ is a field",
      workflow: minimal({
        inputSchema: JSON.parse('{"__proto__": "text"}') as Record<string, string>,
      }),
    },
    {
      name: "an empty outputSchema is another rule's business",
      workflow: minimal({ outputSchema: {} }),
    },
  ],
  invalid: [
    { name: "an empty shape", workflow: minimal({ inputSchema: {} }), errors: expected },
    {
      name: "an empty shape with types declared",
      workflow: minimal({ inputSchema: {}, types: { T: { a: "text" } } }),
      errors: expected,
    },
    {
      name: "a missing inputSchema (unvalidated input)",
      workflow: withRawInput(undefined),
      errors: expected,
    },
    { name: "null (unvalidated input)", workflow: withRawInput(null), errors: expected },
  ],
});
