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
    {
      name: "nested loops, each through a route with maxRetries",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision(
            "inner",
            "output.found = true",
            // Forward here, but back round the outer loop: a route that can come back.
            { next: "summarize", maxRetries: 3 },
            { next: "search", maxRetries: 2 },
          ),
          llm("summarize"),
          decision("outer", "output.done = true", "end", { next: "plan", maxRetries: 3 }),
        ],
        [edge("plan", "search"), edge("search", "inner"), edge("summarize", "outer")],
      ),
    },
    {
      name: "an llm with two edges, each on to the bounded retry",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          tool("fetch"),
          decision("check", "output.done = true", "end", { next: "plan", maxRetries: 3 }),
        ],
        [
          edge("plan", "search"),
          edge("plan", "fetch"),
          edge("search", "check"),
          edge("fetch", "check"),
        ],
      ),
    },
  ],
  invalid: [
    {
      name: "an llm and a tool calling each other beside a bounded retry: that cycle takes no route",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("check", "output.is_complete = true", "end", { next: "plan", maxRetries: 3 }),
        ],
        [edge("plan", "search"), edge("search", "plan"), edge("search", "check")],
      ),
      errors: [
        {
          code: "RETRY_WITHOUT_MAX",
          messageId: "edgeLoop",
          target: { kind: "node", nodeId: "plan" },
          path: "/nodes/0",
          data: { nodeId: "plan", members: ["plan", "search"], size: 2 },
        },
      ],
    },
    {
      name: "a tool looping on itself inside a bounded retry loop",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("check", "output.done = true", "end", { next: "plan", maxRetries: 3 }),
        ],
        [edge("plan", "search"), edge("search", "search"), edge("search", "check")],
      ),
      errors: [
        {
          messageId: "edgeLoop",
          target: { kind: "node", nodeId: "search" },
          path: "/nodes/1",
          data: { nodeId: "search", members: ["search"], size: 1 },
        },
      ],
    },
    {
      name: "a loop through two decisions where only one route is bounded: that route alone",
      workflow: workflow(
        [
          llm("plan"),
          decision("vibe", "output.fine = true", { next: "check", maxRetries: 3 }, "plan"),
          decision("check", "output.done = true", "end", { next: "plan", maxRetries: 3 }),
        ],
        [edge("plan", "vibe")],
      ),
      errors: [
        {
          messageId: "default",
          target: { kind: "node", nodeId: "vibe" },
          path: "/nodes/1/config/onFalse",
          data: { nodeId: "vibe", route: "onFalse", next: "plan" },
        },
      ],
    },
    {
      name: "a loop of llm and tool nodes with no decision at all",
      workflow: workflow(
        [llm("entry"), llm("a"), tool("b")],
        [edge("entry", "a"), edge("a", "b"), edge("b", "a")],
      ),
      errors: [
        {
          messageId: "edgeLoop",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/1",
          data: { nodeId: "a", members: ["a", "b"], size: 2 },
        },
      ],
    },
    {
      name: "an unbounded retry and a loop of edges in one component: one finding each",
      workflow: workflow(
        [llm("plan"), tool("search"), decision("check", "output.done = true", "end", "plan")],
        [edge("plan", "search"), edge("search", "plan"), edge("search", "check")],
      ),
      errors: [
        { messageId: "default", path: "/nodes/2/config/onFalse" },
        { messageId: "edgeLoop", path: "/nodes/0", data: { members: ["plan", "search"] } },
      ],
    },
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
