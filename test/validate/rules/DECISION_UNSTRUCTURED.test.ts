import { rule } from "../../../src/validate/rules/DECISION_UNSTRUCTURED.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const at = (nodeId: string, index: number) => ({
  code: "DECISION_UNSTRUCTURED",
  target: { kind: "node", nodeId } as const,
  path: `/nodes/${index}/config/conditionLanguage`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "FEEL by default", workflow: minimal() },
    { name: "no nodes", workflow: workflow([], []) },
    {
      name: "FEEL stated explicitly",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.done = true", "end", "end", { conditionLanguage: "feel" }),
        ],
        [edge("a", "d")],
      ),
    },
    {
      name: "a FEEL condition that does not parse is CONDITION_SYNTAX's",
      workflow: workflow([llm("a"), decision("d", "is it done?", "end", "end")], [edge("a", "d")]),
    },
  ],
  invalid: [
    {
      name: "a binary decision in natural language",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "the answer covers the question", "end", "end", {
            conditionLanguage: "text",
          }),
        ],
        [edge("a", "d")],
      ),
      errors: [{ ...at("d", 1), data: { nodeId: "d" } }],
    },
    {
      name: "multi-way decisions in natural language, in document order",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "route",
            type: "decision",
            config: {
              conditionLanguage: "text",
              cases: [{ condition: "the user wants a refund", next: "d" }],
              otherwise: { next: "end" },
            },
          },
          decision("d", "it worked", "end", "end", { conditionLanguage: "text" }),
        ],
        [edge("a", "route")],
      ),
      errors: [at("route", 1), at("d", 2)],
    },
  ],
});
