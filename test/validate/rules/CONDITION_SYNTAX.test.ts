import { rule } from "../../../src/validate/rules/CONDITION_SYNTAX.js";
import { edge, llm, minimal, withCondition, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const on = withCondition;

const at = (path = "/nodes/1/config/condition") => ({
  code: "CONDITION_SYNTAX",
  target: { kind: "node", nodeId: "d" } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "a simulable condition", workflow: minimal() },
    { name: "valid FEEL outside S-FEEL", workflow: on("output.a = 1 and output.b = 2") },
    { name: "a JS operator is rewritten first", workflow: on("output.done === true") },
    {
      name: "natural language is never parsed",
      workflow: on("output.a >", { conditionLanguage: "text" }),
    },
    { name: "no nodes", workflow: workflow([], []) },
  ],
  invalid: [
    {
      name: "an operand is missing",
      workflow: on("output.a >"),
      errors: [
        {
          ...at(),
          data: { nodeId: "d", route: "onTrue", condition: "output.a >", offset: 10 },
        },
      ],
    },
    { name: "an empty condition", workflow: on(""), errors: [{ ...at(), data: { offset: 0 } }] },
    {
      name: "&& with nothing after it is not FEEL, read either way",
      workflow: on("output.a = 1 && "),
      errors: [{ ...at(), data: { condition: "output.a = 1 && " } }],
    },
    {
      name: "the offset is into the text as written, before the rewrite",
      workflow: on("output.a === "),
      errors: [{ ...at(), data: { offset: 13 } }],
    },
    {
      name: "a condition too long to parse",
      workflow: on(`output.a = ${"1".repeat(10_001)}`),
      errors: [{ ...at(), data: { offset: 10_000 } }],
    },
    {
      name: "one report per broken case of a multi-way decision",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "output.a >", next: "end" },
                { condition: "output.b = 1", next: "end" },
                { condition: "output.c & 1", next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [
        { ...at("/nodes/1/config/cases/0/condition"), data: { route: "cases/0", offset: 10 } },
        { ...at("/nodes/1/config/cases/2/condition"), data: { route: "cases/2", offset: 9 } },
      ],
    },
  ],
});
