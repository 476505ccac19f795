import { rule } from "../../../src/validate/rules/BUDGET_MISSING.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const loop = workflow(
  [llm("a"), decision("d", "output.done = true", "end", { next: "a", maxRetries: 2 })],
  [edge("a", "d")],
  { autonomyLevel: 2 },
);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "level 1 needs no budget", workflow: minimal() },
    { name: "level 2 with a budget", workflow: { ...loop, budget: { maxSteps: 10 } } },
    { name: "a cost-only budget counts", workflow: { ...loop, budget: { maxCostEUR: 2 } } },
  ],
  invalid: [
    {
      name: "level 2 without a budget",
      workflow: loop,
      errors: [
        {
          code: "BUDGET_MISSING",
          target: { kind: "workflow" },
          path: "",
          data: { level: 2, declared: 2 },
        },
      ],
    },
    {
      name: "an empty budget object",
      workflow: { ...loop, budget: {} },
      errors: [{ code: "BUDGET_MISSING", target: { kind: "workflow" }, path: "/budget" }],
    },
    {
      name: "declared 1 but the graph loops: the justified level counts",
      workflow: { ...loop, autonomyLevel: 1 },
      errors: [
        {
          code: "BUDGET_MISSING",
          target: { kind: "workflow" },
          path: "",
          data: { level: 2, declared: 1 },
        },
      ],
    },
    {
      name: "declared 4 on a simple graph",
      workflow: minimal({ autonomyLevel: 4 }),
      errors: [
        { code: "BUDGET_MISSING", target: { kind: "workflow" }, path: "", data: { level: 4 } },
      ],
    },
  ],
});
