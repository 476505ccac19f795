import type { DecisionNode } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/DECISION_ROUTE_MISSING.js";
import { decision, edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "DECISION_ROUTE_MISSING";

const multiway = (id: string, nexts: readonly string[], otherwise: string): DecisionNode => ({
  id,
  type: "decision",
  config: {
    cases: nexts.map((next, i) => ({ condition: `output.k = ${i}`, next })),
    otherwise: { next: otherwise },
  },
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "both routes end", workflow: minimal() },
    {
      name: "routes to nodes, to itself and to end",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.done = true", "b", { next: "d", maxRetries: 2 }),
          llm("b"),
        ],
        [edge("a", "d")],
      ),
    },
    {
      name: "a multi-way decision",
      workflow: workflow(
        [llm("a"), multiway("d", ["a", "end", "b"], "end"), llm("b")],
        [edge("a", "d")],
      ),
    },
    {
      name: "a duplicated id is still a node id",
      workflow: workflow(
        [llm("a"), llm("a"), decision("d", "output.done = true", "a", "end")],
        [edge("a", "d")],
      ),
    },
    { name: "llm and tool nodes have no routes", workflow: workflow([llm("a")], []) },
  ],
  invalid: [
    {
      name: "onFalse to an unknown node",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", "ghost")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/onFalse/next",
          data: { nodeId: "d", route: "onFalse", next: "ghost" },
        },
      ],
    },
    {
      name: "both binary routes, in route order",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "End", "x")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/onTrue/next",
          data: { route: "onTrue", next: "End" },
        },
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/onFalse/next",
          data: { route: "onFalse", next: "x" },
        },
      ],
    },
    {
      name: "multi-way cases and otherwise, across two decisions in document order",
      workflow: workflow(
        [
          llm("a"),
          multiway("m", ["a", "nope", "end"], "constructor"),
          decision("d", "output.done = true", "__proto__", "end"),
        ],
        [edge("a", "m")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "m" },
          path: "/nodes/1/config/cases/1/next",
          data: { nodeId: "m", route: "cases/1", next: "nope" },
        },
        {
          code: CODE,
          target: { kind: "node", nodeId: "m" },
          path: "/nodes/1/config/otherwise/next",
          data: { route: "otherwise", next: "constructor" },
        },
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/2/config/onTrue/next",
          data: { route: "onTrue", next: "__proto__" },
        },
      ],
    },
    {
      name: "a route to an agent ref is not a node",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", "agnt-verify@1.0.0")],
        [edge("a", "d")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/1/config/onFalse/next",
          data: { next: "agnt-verify@1.0.0" },
        },
      ],
    },
    {
      name: "the empty string is not a node id",
      workflow: workflow([decision("d", "output.done = true", "", "end")], []),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "d" },
          path: "/nodes/0/config/onTrue/next",
          data: { next: "" },
        },
      ],
    },
  ],
});
