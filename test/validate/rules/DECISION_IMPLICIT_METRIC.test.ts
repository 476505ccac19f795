import { rule } from "../../../src/validate/rules/DECISION_IMPLICIT_METRIC.js";
import { decision, edge, llm, minimal, withCondition, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const on = withCondition;

const at = (path = "/nodes/1/config/condition") => ({
  code: "DECISION_IMPLICIT_METRIC",
  target: { kind: "node", nodeId: "d" } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "a checkable field", workflow: minimal() },
    { name: "a word that only starts like the metric", workflow: on("output.confidential = true") },
    { name: "a plural is another word", workflow: on("output.confidences = 1") },
    { name: "only the last segment is looked at", workflow: on("output.confidence.value > 1") },
    {
      name: "natural-language conditions are DECISION_UNSTRUCTURED's",
      workflow: on("the model's confidence is high", { conditionLanguage: "text" }),
    },
    { name: "a string literal is not a field", workflow: on('output.kind = "confidence"') },
    {
      name: "an empty names list reports nothing",
      workflow: on("output.confidence > 0.8"),
      severity: "error",
      options: { names: [] },
    },
    {
      name: "configured names replace the default",
      workflow: on("output.confidence > 0.8"),
      severity: "error",
      options: { names: ["certainty"] },
    },
    { name: "a condition that does not parse reads nothing", workflow: on("output.confidence >") },
  ],
  invalid: [
    {
      name: "output.confidence",
      workflow: on("output.confidence >= 0.8"),
      errors: [
        {
          ...at(),
          data: {
            nodeId: "d",
            route: "onTrue",
            field: "output.confidence",
            metric: "confidence",
            fields: ["output.confidence"],
          },
        },
      ],
    },
    {
      name: "snake_case and camelCase words, nested",
      workflow: on("output.confidence_score > 1 and output.review.modelConfidence > 2"),
      errors: [
        {
          ...at(),
          data: {
            field: "output.confidence_score",
            fields: ["output.confidence_score", "output.review.modelConfidence"],
          },
        },
      ],
    },
    {
      name: "the metric in the middle of the name, upper case",
      workflow: on("output.SELF_CONFIDENCE_LEVEL > 1"),
      errors: [{ ...at(), data: { field: "output.SELF_CONFIDENCE_LEVEL" } }],
    },
    {
      name: "an acronym before the metric",
      workflow: on("output.LLMConfidence > 1"),
      errors: [{ ...at(), data: { field: "output.LLMConfidence" } }],
    },
    {
      name: "a bare name that is not rooted at output",
      workflow: on("confidence > 0.5"),
      errors: [{ ...at(), data: { field: "confidence", metric: "confidence" } }],
    },
    {
      name: "read through a JS operator",
      workflow: on("output.confidence === 1"),
      errors: [{ ...at(), data: { field: "output.confidence" } }],
    },
    {
      name: "a multi-way case",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "output.done = true", next: "end" },
                { condition: "output.confidence < 0.2", next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [{ ...at("/nodes/1/config/cases/1/condition"), data: { route: "cases/1" } }],
    },
    {
      name: "configured names, multi-word, compared by words",
      workflow: on("output.qualityScore > 0.5"),
      severity: "error",
      options: { names: ["certainty", "quality_score"] },
      errors: [{ ...at(), data: { field: "output.qualityScore", metric: "quality_score" } }],
    },
    {
      name: "a names option that is not a list falls back to the default",
      workflow: on("output.confidence > 0.5"),
      severity: "error",
      options: { names: "certainty" },
      errors: [{ ...at(), data: { metric: "confidence" } }],
    },
    {
      name: "one report per condition, in document order",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.confidence > 0.5", "b", "end"),
          llm("b"),
          decision("e", "output.model_confidence > 0.9", "end", "end"),
        ],
        [edge("a", "d"), edge("b", "e")],
      ),
      errors: [
        { ...at(), data: { nodeId: "d" } },
        {
          code: "DECISION_IMPLICIT_METRIC",
          target: { kind: "node", nodeId: "e" },
          path: "/nodes/3/config/condition",
          data: { field: "output.model_confidence" },
        },
      ],
    },
  ],
});
