import { rule } from "../../../src/validate/rules/CONDITION_NOT_SIMULABLE.js";
import { edge, llm, minimal, withCondition, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const on = withCondition;

const at = (path = "/nodes/1/config/condition") => ({
  code: "CONDITION_NOT_SIMULABLE",
  target: { kind: "node", nodeId: "d" } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "a simulable condition", workflow: minimal() },
    { name: "exact arithmetic", workflow: on("output.a + output.b = 0.3") },
    { name: "a constant comparison is simulable", workflow: on("1 < 2") },
    { name: "a syntax error is CONDITION_SYNTAX's alone", workflow: on("output.a = 1 and") },
    {
      name: "natural language is DECISION_UNSTRUCTURED's",
      workflow: on("the answer is complete", { conditionLanguage: "text" }),
    },
    { name: "no nodes", workflow: workflow([], []) },
  ],
  invalid: [
    {
      name: "a conjunction",
      workflow: on("output.a = 1 and output.b = 2"),
      errors: [
        {
          ...at(),
          data: {
            nodeId: "d",
            route: "onTrue",
            construct: "Conjunction",
            offset: 0,
            constructs: ["Conjunction"],
          },
        },
      ],
    },
    {
      name: "a name not rooted at output",
      workflow: on("confidence > 0.5"),
      errors: [{ ...at(), data: { construct: "unknown-name", offset: 0 } }],
    },
    {
      name: "a function call, after a comparison",
      workflow: on("output.n = count(output.items)"),
      errors: [{ ...at(), data: { construct: "FunctionInvocation", offset: 11 } }],
    },
    {
      name: "the whole output object",
      workflow: on("output = 1"),
      errors: [{ ...at(), data: { construct: "VariableName" } }],
    },
    {
      name: "the outermost construct is named; unknown names are listed too",
      workflow: on("output.a = null or input.x = 1"),
      errors: [
        {
          ...at(),
          data: {
            construct: "Disjunction",
            constructs: ["Disjunction", "unknown-name"],
          },
        },
      ],
    },
    {
      name: "each case of a multi-way decision",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "output.a in [1..5]", next: "end" },
                { condition: "output.b = 1", next: "end" },
                { condition: "output.done", next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [
        { ...at("/nodes/1/config/cases/0/condition"), data: { route: "cases/0" } },
        { ...at("/nodes/1/config/cases/2/condition"), data: { route: "cases/2" } },
      ],
    },
  ],
});
