import { rule } from "../../../src/validate/rules/EDGE_ENDPOINT_MISSING.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "EDGE_ENDPOINT_MISSING";
const d = decision("d", "output.done = true", "end", "end");

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "both ends exist", workflow: minimal() },
    { name: "no edges", workflow: workflow([llm("a")], []) },
    { name: "a self-loop", workflow: workflow([llm("a"), d], [edge("a", "a"), edge("a", "d")]) },
    {
      name: "a delegate edge's to is an agent ref, not a node",
      workflow: workflow(
        [llm("a"), d],
        [edge("a", "d"), edge("a", "agnt-verify@1.0.0", "delegate")],
      ),
    },
    {
      name: "an edge leaving a decision is documentation, but its ends exist",
      workflow: workflow([llm("a"), d], [edge("a", "d"), edge("d", "a", "toolCall")]),
    },
    {
      name: "a duplicated id is still a node id",
      workflow: workflow([llm("a"), llm("a"), d], [edge("a", "d")]),
    },
  ],
  invalid: [
    {
      name: "a dangling to",
      workflow: workflow([llm("a"), d], [edge("a", "d"), edge("a", "ghost")]),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "a", to: "ghost" },
          path: "/edges/1/to",
          data: { index: 1, endpoint: "to", id: "ghost" },
        },
      ],
    },
    {
      name: "both ends missing: two findings, from first",
      workflow: workflow([tool("t"), d], [edge("t", "d"), edge("x", "y", "toolCall")]),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "x", to: "y" },
          path: "/edges/1/from",
          data: { endpoint: "from", id: "x" },
        },
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "x", to: "y" },
          path: "/edges/1/to",
          data: { endpoint: "to", id: "y" },
        },
      ],
    },
    {
      name: "a delegate edge from no node",
      workflow: workflow(
        [llm("a"), d],
        [edge("a", "d"), edge("ghost", "agnt-verify@1.0.0", "delegate")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "ghost", to: "agnt-verify@1.0.0" },
          path: "/edges/1/from",
          data: { index: 1, endpoint: "from", id: "ghost" },
        },
      ],
    },
    {
      name: "ids are matched exactly, not against prototypes or case",
      workflow: workflow(
        [llm("a"), d],
        [edge("a", "d"), edge("constructor", "A"), edge("a", "__proto__")],
      ),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "constructor", to: "A" },
          path: "/edges/1/from",
          data: { id: "constructor" },
        },
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "constructor", to: "A" },
          path: "/edges/1/to",
          data: { id: "A" },
        },
        {
          code: CODE,
          target: { kind: "edge", index: 2, from: "a", to: "__proto__" },
          path: "/edges/2/to",
          data: { id: "__proto__" },
        },
      ],
    },
    {
      name: "in an empty graph every edge dangles",
      workflow: workflow([], [edge("a", "b")]),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 0, from: "a", to: "b" },
          path: "/edges/0/from",
        },
        { code: CODE, target: { kind: "edge", index: 0, from: "a", to: "b" }, path: "/edges/0/to" },
      ],
    },
    {
      name: '"end" is not a node for edges (only routes know it)',
      workflow: workflow([llm("a"), d], [edge("a", "d"), edge("a", "end")]),
      errors: [
        {
          code: CODE,
          target: { kind: "edge", index: 1, from: "a", to: "end" },
          path: "/edges/1/to",
          data: { id: "end" },
        },
      ],
    },
  ],
});
