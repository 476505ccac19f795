import { rule } from "../../../src/validate/rules/AUTONOMY_INCOHERENT.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const branching = (autonomyLevel: 0 | 1 | 2 | 3 | 4 | 5) =>
  workflow([llm("a"), decision("d", "output.ok = true", "b", "end"), llm("b")], [edge("a", "d")], {
    autonomyLevel,
  });

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "declared equals justified", workflow: branching(3) },
    { name: "declaring more than justified is allowed", workflow: branching(4) },
    { name: "level 1 chain", workflow: minimal() },
  ],
  invalid: [
    {
      name: "a branching decision declared as loop-free",
      workflow: branching(1),
      errors: [
        {
          code: "AUTONOMY_INCOHERENT",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: { declared: 1, justified: 3, feature: "branching-decision", nodeIds: ["d"] },
        },
      ],
    },
    {
      name: "level 0 is a floor only an author can declare: any graph justifies at least 1",
      workflow: minimal({ autonomyLevel: 0 }),
      errors: [
        {
          code: "AUTONOMY_INCOHERENT",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: { declared: 0, justified: 1, feature: "graph", nodeIds: [] },
        },
      ],
    },
    {
      name: "a delegate edge declared as a bounded loop",
      workflow: workflow([llm("a")], [edge("a", "agnt-v@1.0.0", "delegate")], { autonomyLevel: 2 }),
      errors: [
        {
          code: "AUTONOMY_INCOHERENT",
          target: { kind: "workflow" },
          path: "/autonomyLevel",
          data: {
            declared: 2,
            justified: 4,
            feature: "delegation",
            nodeIds: ["a"],
            edgeIndexes: [0],
          },
        },
      ],
    },
  ],
});
