import type { DecisionNode } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/NO_PATH_TO_END.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "NO_PATH_TO_END";
const node = (nodeId: string) => ({ kind: "node", nodeId }) as const;

/** A multi-way decision: one case per target, otherwise the last. */
const router = (id: string, nexts: readonly string[], otherwise: string): DecisionNode => ({
  id,
  type: "decision",
  config: {
    cases: nexts.map((next, i) => ({ condition: `output.k = ${i}`, next, maxRetries: 1 })),
    otherwise: { next: otherwise },
  },
});

/** A 25-node ring entered from a decision that can also end. */
const ring = Array.from({ length: 25 }, (_, i) => `r${i}`);

/** A 100,000-node chain whose last node loops on itself: linear time, no deep recursion. */
const chain = Array.from({ length: 100_000 }, (_, i) => `n${i}`);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    {
      name: "a trap that a route to an unknown id would leave is DECISION_ROUTE_MISSING's alone",
      workflow: workflow(
        [
          llm("s"),
          decision("d0", "output.go = true", "a", "end"),
          llm("a"),
          decision("d", "output.done = true", "ghost", { next: "a", maxRetries: 2 }),
        ],
        [edge("s", "d0"), edge("a", "d")],
      ),
    },
    { name: "a path to end", workflow: minimal() },
    { name: "an empty graph is NO_ENTRY_NODE's business", workflow: workflow([], []) },
    {
      name: "a node with no successors ends the run",
      workflow: workflow([llm("a"), tool("t")], [edge("a", "t")]),
    },
    {
      name: "a bounded loop with a way out",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", { next: "a", maxRetries: 3 })],
        [edge("a", "d")],
      ),
    },
    {
      name: "a loop whose way out is an llm that ends the run",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.done = true", "fin", { next: "a", maxRetries: 3 }),
          llm("fin"),
        ],
        [edge("a", "d")],
      ),
    },
    {
      name: "an unreachable loop is NODE_UNREACHABLE's business",
      workflow: workflow([llm("a"), llm("x"), llm("y")], [edge("x", "y"), edge("y", "x")]),
    },
    {
      name: "a decision whose only routes go to unknown ids has no successors, so it ends the run",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "ghost", "ghost")],
        [edge("a", "d")],
      ),
    },
  ],
  invalid: [
    {
      name: "the whole graph is one cycle: on the entry",
      workflow: workflow([llm("a"), llm("b")], [edge("a", "b"), edge("b", "a")]),
      errors: [
        {
          code: CODE,
          target: node("a"),
          path: "/nodes/0",
          data: { nodeId: "a", trapSize: 2, members: ["a", "b"], entries: ["a"], entryCount: 1 },
        },
      ],
    },
    {
      name: "a self-loop on the only node",
      workflow: workflow([llm("a")], [edge("a", "a")]),
      errors: [
        { code: CODE, target: node("a"), path: "/nodes/0", data: { trapSize: 1, members: ["a"] } },
      ],
    },
    {
      name: "on the node that enters the trap, not on its first member in the document",
      workflow: workflow(
        [llm("s"), decision("d", "output.done = true", "end", "p"), llm("q"), llm("p")],
        [edge("s", "d"), edge("p", "q"), edge("q", "p")],
      ),
      errors: [
        {
          code: CODE,
          target: node("p"),
          path: "/nodes/3",
          data: { nodeId: "p", trapSize: 2, members: ["q", "p"], entries: ["p"], entryCount: 1 },
        },
      ],
    },
    {
      name: "a doomed chain before the loop belongs to the trap, which is entered at the chain's start",
      workflow: workflow(
        [llm("s"), decision("d", "output.done = true", "end", "p"), tool("p"), llm("q"), llm("r")],
        [edge("s", "d"), edge("p", "q"), edge("q", "r"), edge("r", "q")],
      ),
      errors: [
        {
          code: CODE,
          target: node("p"),
          path: "/nodes/2",
          data: { trapSize: 3, members: ["p", "q", "r"], entries: ["p"] },
        },
      ],
    },
    {
      name: "one trap entered at two nodes: one report, on the first, naming both entries",
      workflow: workflow(
        [
          llm("s"),
          decision("d1", "output.a = true", "x", "d2"),
          decision("d2", "output.b = true", "y", "end"),
          llm("x"),
          llm("y"),
        ],
        [edge("s", "d1"), edge("x", "y"), edge("y", "x")],
      ),
      errors: [
        {
          code: CODE,
          target: node("x"),
          path: "/nodes/3",
          data: {
            nodeId: "x",
            trapSize: 2,
            members: ["x", "y"],
            entries: ["x", "y"],
            entryCount: 2,
          },
        },
      ],
    },
    {
      name: "two traps entered from one decision: one report each, in document order",
      workflow: workflow(
        [llm("s"), router("d", ["x", "y"], "end"), llm("x"), llm("y"), llm("z")],
        [edge("s", "d"), edge("x", "x"), edge("y", "z"), edge("z", "y")],
      ),
      errors: [
        {
          code: CODE,
          target: node("x"),
          path: "/nodes/2",
          data: { nodeId: "x", trapSize: 1, members: ["x"] },
        },
        {
          code: CODE,
          target: node("y"),
          path: "/nodes/3",
          data: { nodeId: "y", trapSize: 2, members: ["y", "z"] },
        },
      ],
    },
    {
      name: "two loops behind one doomed node are one trap, entered there",
      workflow: workflow(
        [
          llm("s"),
          decision("d", "output.done = true", "end", "p"),
          router("p", ["x"], "y"),
          llm("x"),
          llm("y"),
        ],
        [edge("s", "d"), edge("x", "x"), edge("y", "y")],
      ),
      errors: [
        {
          code: CODE,
          target: node("p"),
          path: "/nodes/2",
          data: { trapSize: 3, members: ["p", "x", "y"], entries: ["p"] },
        },
      ],
    },
    {
      name: "reports follow the entering nodes' order, not the traps' first members",
      workflow: workflow(
        [llm("s"), router("d", ["a2", "b"], "end"), llm("a1"), llm("b"), llm("a2")],
        [edge("s", "d"), edge("a1", "a2"), edge("a2", "a1"), edge("b", "b")],
      ),
      errors: [
        { code: CODE, target: node("b"), path: "/nodes/3", data: { nodeId: "b", members: ["b"] } },
        {
          code: CODE,
          target: node("a2"),
          path: "/nodes/4",
          data: { nodeId: "a2", members: ["a1", "a2"] },
        },
      ],
    },
    {
      name: "an edge leaving a decision is documentation, not a way out; the entry is doomed too",
      workflow: workflow(
        [
          llm("s"),
          decision("d", "output.done = true", { next: "x", maxRetries: 1 }, "x"),
          llm("x"),
          llm("fin"),
        ],
        [edge("s", "d"), edge("x", "d"), edge("d", "fin")],
      ),
      errors: [
        {
          code: CODE,
          target: node("s"),
          path: "/nodes/0",
          data: { trapSize: 3, members: ["s", "d", "x"], entries: ["s"] },
        },
      ],
    },
    {
      name: "with reportCascades, a route to an unknown id is not a way out",
      severity: "error",
      options: { reportCascades: true },
      workflow: workflow(
        [
          llm("s"),
          decision("d0", "output.go = true", "a", "end"),
          llm("a"),
          decision("d", "output.done = true", "ghost", { next: "a", maxRetries: 2 }),
        ],
        [edge("s", "d0"), edge("a", "d")],
      ),
      errors: [
        {
          code: CODE,
          target: node("a"),
          path: "/nodes/2",
          data: { trapSize: 2, members: ["a", "d"] },
        },
      ],
    },
    {
      name: "an edge from an unreachable node does not count as an entry",
      workflow: workflow(
        [llm("s"), decision("d", "output.done = true", "end", "x"), llm("x"), llm("y"), llm("u")],
        [edge("s", "d"), edge("x", "y"), edge("y", "x"), edge("u", "y")],
      ),
      errors: [
        {
          code: CODE,
          target: node("x"),
          path: "/nodes/2",
          data: { entries: ["x"], entryCount: 1, trapSize: 2 },
        },
      ],
    },
    {
      name: "members are listed up to 20, the size stays exact",
      workflow: workflow(
        [llm("s"), decision("d", "output.done = true", "end", "r0"), ...ring.map((id) => llm(id))],
        [edge("s", "d"), ...ring.map((id, i) => edge(id, ring[(i + 1) % ring.length] ?? "r0"))],
      ),
      errors: [
        {
          code: CODE,
          target: node("r0"),
          path: "/nodes/2",
          data: { nodeId: "r0", trapSize: 25, members: ring.slice(0, 20), entryCount: 1 },
        },
      ],
    },
    {
      name: "a 100,000-node chain into a self-loop: one report, on the entry",
      workflow: workflow(
        chain.map((id) => llm(id)),
        [...chain.slice(1).map((id, i) => edge(chain[i] ?? "", id)), edge("n99999", "n99999")],
      ),
      errors: [
        {
          code: CODE,
          target: node("n0"),
          path: "/nodes/0",
          data: { trapSize: 100_000, entryCount: 1 },
        },
      ],
    },
  ],
});
