import { rule } from "../../../src/validate/rules/NODE_ID_RESERVED.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "NODE_ID_RESERVED";

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "routes to end, no node called end", workflow: minimal() },
    {
      name: "ids that only contain or resemble the keyword",
      workflow: workflow(
        [llm("end-2"), llm("End"), llm("end_step"), tool("send"), llm("end.x")],
        [edge("end-2", "End"), edge("End", "end_step"), edge("end_step", "send")],
      ),
    },
  ],
  invalid: [
    {
      name: "an llm called end that a route means to reach",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", "a"), llm("end")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "end" },
          path: "/nodes/2/id",
          data: { nodeId: "end", index: 2 },
        },
      ],
    },
    {
      name: "every node called end is named, in document order",
      workflow: workflow([tool("end"), llm("b"), llm("end")], [edge("end", "b")]),
      errors: [
        { code: CODE, path: "/nodes/0/id", data: { index: 0 } },
        { code: CODE, path: "/nodes/2/id", data: { index: 2 } },
      ],
    },
  ],
});
