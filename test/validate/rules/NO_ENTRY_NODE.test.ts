import { rule } from "../../../src/validate/rules/NO_ENTRY_NODE.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const expected = [
  { code: "NO_ENTRY_NODE", target: { kind: "workflow" }, path: "/nodes", data: { nodeCount: 0 } },
] as const;

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "a normal workflow", workflow: minimal() },
    { name: "a single node", workflow: workflow([llm("a")], []) },
    {
      name: "a graph that is one cycle still has an entry (its first node)",
      workflow: workflow([llm("a"), llm("b")], [edge("a", "b"), edge("b", "a")]),
    },
    {
      name: "a lone decision",
      workflow: workflow([decision("d", "output.done = true", "end", "end")], []),
    },
  ],
  invalid: [
    { name: "no nodes, no edges", workflow: workflow([], []), errors: expected },
    {
      name: "no nodes, only dangling edges",
      workflow: workflow([], [edge("a", "b")]),
      errors: expected,
    },
  ],
});
