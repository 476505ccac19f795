import { rule } from "../../../src/validate/rules/AUTONOMY_SELF_MODIFYING.js";
import { llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const planner = (autonomyLevel: 1 | 5) =>
  workflow([llm("a", {}, { decorators: [{ type: "planner", strategy: "dynamic" }] })], [], {
    autonomyLevel,
    budget: { maxSteps: 5 },
  });

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "level 4 and below", workflow: minimal({ autonomyLevel: 4 }) },
    {
      name: "a static planner",
      workflow: workflow(
        [llm("a", {}, { decorators: [{ type: "planner", strategy: "static" }] })],
        [],
      ),
    },
  ],
  invalid: [
    {
      name: "declared level 5 with a dynamic planner",
      workflow: planner(5),
      errors: [
        {
          code: "AUTONOMY_SELF_MODIFYING",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: { declared: 5, justified: 5, levelName: "Self-Modifying" },
        },
      ],
    },
    {
      name: "declared level 5 without a planner: still no structural gate",
      workflow: minimal({ autonomyLevel: 5 }),
      errors: [
        {
          code: "AUTONOMY_SELF_MODIFYING",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: { justified: 1 },
        },
      ],
    },
    {
      name: "an under-declared dynamic planner is reported too",
      workflow: planner(1),
      errors: [
        {
          code: "AUTONOMY_SELF_MODIFYING",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: { declared: 1, justified: 5 },
        },
      ],
    },
  ],
});
