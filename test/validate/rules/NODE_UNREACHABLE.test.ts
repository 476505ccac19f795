import { rule } from "../../../src/validate/rules/NODE_UNREACHABLE.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "NODE_UNREACHABLE";
const node = (nodeId: string) => ({ kind: "node", nodeId }) as const;
const done = (id: string) => decision(id, "output.done = true", "end", "end");

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "every node on the path", workflow: minimal() },
    { name: "an empty graph is NO_ENTRY_NODE's business", workflow: workflow([], []) },
    {
      name: "the entry need not be the first node in the document",
      workflow: workflow([done("d"), llm("a")], [edge("a", "d")]),
    },
    {
      name: "nodes reached only through a bounded loop",
      workflow: workflow(
        [
          llm("a"),
          tool("t"),
          decision("d", "output.done = true", "end", { next: "a", maxRetries: 2 }),
        ],
        [edge("a", "t"), edge("t", "d")],
      ),
    },
    {
      name: "a repeated id is DUPLICATE_NODE_ID's business",
      workflow: workflow([llm("a"), done("d"), llm("a")], [edge("a", "d")]),
    },
  ],
  invalid: [
    {
      name: "an isolated node",
      workflow: workflow([llm("a"), done("d"), llm("orphan")], [edge("a", "d")]),
      errors: [
        {
          code: CODE,
          target: node("orphan"),
          path: "/nodes/2",
          data: { nodeId: "orphan", index: 2, entry: "a" },
        },
      ],
    },
    {
      name: "an island: every node of it, in document order",
      workflow: workflow(
        [llm("a"), done("d"), llm("x"), llm("y")],
        [edge("a", "d"), edge("x", "y")],
      ),
      errors: [
        { code: CODE, target: node("x"), path: "/nodes/2", data: { nodeId: "x" } },
        { code: CODE, target: node("y"), path: "/nodes/3", data: { nodeId: "y" } },
      ],
    },
    {
      name: "a loop nothing enters",
      workflow: workflow(
        [llm("a"), done("d"), llm("x"), llm("y")],
        [edge("a", "d"), edge("x", "y"), edge("y", "x")],
      ),
      errors: [
        { code: CODE, target: node("x"), path: "/nodes/2", data: { nodeId: "x" } },
        { code: CODE, target: node("y"), path: "/nodes/3", data: { nodeId: "y" } },
      ],
    },
    {
      name: "an edge leaving a decision is documentation and carries no flow",
      workflow: workflow([llm("a"), done("d"), llm("b")], [edge("a", "d"), edge("d", "b")]),
      errors: [
        { code: CODE, target: node("b"), path: "/nodes/2", data: { nodeId: "b", entry: "a" } },
      ],
    },
    {
      name: "a delegate edge does not make its source's successors reachable",
      workflow: workflow(
        [llm("a"), done("d"), llm("b")],
        [edge("a", "d"), edge("a", "b", "delegate")],
      ),
      errors: [{ code: CODE, target: node("b"), path: "/nodes/2" }],
    },
    {
      name: "what only a repeated decision routes to is unreachable (the repeat itself is not reported)",
      workflow: workflow(
        [llm("a"), done("d"), decision("d", "output.done = true", "z", "end"), llm("z")],
        [edge("a", "d")],
      ),
      errors: [
        { code: CODE, target: node("z"), path: "/nodes/3", data: { nodeId: "z", index: 3 } },
      ],
    },
    {
      name: "ids that name prototype members",
      workflow: workflow(
        [llm("a"), done("d"), llm("constructor"), llm("__proto__")],
        [edge("a", "d")],
      ),
      errors: [
        { code: CODE, target: node("constructor"), path: "/nodes/2" },
        { code: CODE, target: node("__proto__"), path: "/nodes/3" },
      ],
    },
  ],
});
