import { rule } from "../../../src/validate/rules/RETRY_WITHOUT_MAX.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const loop = (onFalse: string | { next: string; maxRetries?: number }) =>
  workflow(
    [llm("plan"), tool("search"), decision("check", "output.done = true", "end", onFalse)],
    [edge("plan", "search"), edge("search", "check")],
  );

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no loop", workflow: minimal() },
    { name: "a bounded retry", workflow: loop({ next: "plan", maxRetries: 3 }) },
    { name: "maxRetries 0 is a bound", workflow: loop({ next: "plan", maxRetries: 0 }) },
    {
      name: "a forward route to a node that cannot come back",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "b", "end"), llm("b")],
        [edge("a", "d")],
      ),
    },
    { name: "a route to an unknown node is another rule's business", workflow: loop("ghost") },
  ],
  invalid: [
    {
      name: "a retry without maxRetries",
      workflow: loop("plan"),
      errors: [
        {
          code: "RETRY_WITHOUT_MAX",
          target: { kind: "node", nodeId: "check" },
          path: "/nodes/2/config/onFalse",
          data: { nodeId: "check", route: "onFalse", next: "plan" },
        },
      ],
    },
    {
      name: "a decision routing to itself",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", "d")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: "RETRY_WITHOUT_MAX",
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/onFalse",
        },
      ],
    },
    {
      name: "a multi-way case that loops back",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: 'output.kind = "x"', next: "end" },
                { condition: 'output.kind = "y"', next: "a" },
              ],
              otherwise: { next: "a", maxRetries: 1 },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: "RETRY_WITHOUT_MAX",
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/cases/1",
          data: { route: "cases/1", next: "a" },
        },
      ],
    },
  ],
});
