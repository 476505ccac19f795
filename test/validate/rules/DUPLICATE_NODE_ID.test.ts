import { rule } from "../../../src/validate/rules/DUPLICATE_NODE_ID.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "unique ids", workflow: minimal() },
    {
      name: "an edge target named like a node id of a delegate is not a node",
      workflow: workflow([llm("a"), llm("b")], [edge("a", "b"), edge("a", "a@1.0.0", "delegate")]),
    },
  ],
  invalid: [
    {
      name: "the second of two nodes named a",
      workflow: workflow(
        [llm("a"), llm("a"), decision("d", "output.done = true", "end", "end")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: "DUPLICATE_NODE_ID",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/1/id",
          data: { nodeId: "a", index: 1, firstIndex: 0 },
        },
      ],
    },
    {
      name: "three copies give two findings, in document order",
      workflow: workflow([llm("x"), llm("y"), llm("x"), llm("x")], [edge("x", "y")]),
      errors: [
        {
          code: "DUPLICATE_NODE_ID",
          target: { kind: "node", nodeId: "x" },
          path: "/nodes/2/id",
          data: { index: 2, firstIndex: 0 },
        },
        {
          code: "DUPLICATE_NODE_ID",
          target: { kind: "node", nodeId: "x" },
          path: "/nodes/3/id",
          data: { index: 3, firstIndex: 0 },
        },
      ],
    },
  ],
});
