import { rule } from "../../../src/validate/rules/CONDITION_JS_OPERATOR.js";
import { edge, llm, minimal, withCondition, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const on = withCondition;

const at = (path = "/nodes/1/config/condition") => ({
  code: "CONDITION_JS_OPERATOR",
  target: { kind: "node", nodeId: "d" } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "FEEL operators", workflow: minimal() },
    { name: "!=, <= and >= are FEEL", workflow: on("output.a != 1") },
    { name: "inside a string", workflow: on('output.s = "a === b"') },
    { name: "inside a comment", workflow: on("output.a = 1 // not a === b") },
    {
      name: "natural language is not rewritten",
      workflow: on("the answer === good", { conditionLanguage: "text" }),
    },
  ],
  invalid: [
    {
      name: "=== (the seed's form)",
      workflow: on("output.is_complete === true"),
      errors: [
        {
          ...at(),
          data: {
            nodeId: "d",
            route: "onTrue",
            rewrites: [{ from: "===", to: "=", offset: 19 }],
            operators: ["=== → ="],
            rewritten: "output.is_complete = true",
          },
        },
      ],
    },
    {
      name: "== and !== in one condition: one report naming both",
      workflow: on("output.a == 1 and output.b !== 2"),
      errors: [
        {
          ...at(),
          data: {
            rewrites: [
              { from: "==", to: "=", offset: 9 },
              { from: "!==", to: "!=", offset: 27 },
            ],
            rewritten: "output.a = 1 and output.b != 2",
          },
        },
      ],
    },
    {
      name: "reported even when the rewritten text does not parse",
      workflow: on("output.a === "),
      errors: [{ ...at(), data: { rewritten: "output.a = " } }],
    },
    {
      name: "a case of a multi-way decision",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "output.a = 1", next: "end" },
                { condition: 'output.kind === "x"', next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [{ ...at("/nodes/1/config/cases/1/condition"), data: { route: "cases/1" } }],
    },
  ],
});
