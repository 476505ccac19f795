import type { AgentWorkflow } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/DELEGATE_CYCLE.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** Agent `id@1.0.0` whose node "x" delegates to each of `to`. */
const agent = (id: string, ...to: string[]): AgentWorkflow =>
  workflow(
    [llm("x")],
    to.map((t) => edge("x", t, "delegate")),
    { id, autonomyLevel: 4 },
  );

/** The workflow under validation: `agnt-a@1.0.0`, node "a" delegating to each of `to`. */
const root = (...to: string[]): AgentWorkflow =>
  workflow([llm("a"), llm("b")], [edge("a", "b"), ...to.map((t) => edge("a", t, "delegate"))], {
    id: "agnt-a",
    autonomyLevel: 4,
  });

const sync = (...docs: AgentWorkflow[]): Resolvers => {
  const byRef = new Map<string, unknown>(docs.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveDelegate: (ref) => byRef.get(ref) };
};
const async = (...docs: AgentWorkflow[]): Resolvers => {
  const { resolveDelegate } = sync(...docs);
  return { resolveDelegate: (ref) => Promise.resolve(resolveDelegate?.(ref)) };
};

const A = "agnt-a@1.0.0";
const B = "agnt-b@1.0.0";
const C = "agnt-c@1.0.0";
const D = "agnt-d@1.0.0";

const at = (index: number, nodeId = "a") => ({
  code: "DELEGATE_CYCLE",
  target: { kind: "node", nodeId } as const,
  path: `/edges/${index}/to`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no delegates", workflow: workflow([llm("a")], []) },
    {
      name: "a delegate that delegates no further",
      workflow: root(B),
      resolvers: sync(agent("agnt-b")),
    },
    {
      name: "a chain a → b → c",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", C), agent("agnt-c")),
    },
    {
      name: "a diamond a → b, a → c, b → d, c → d is not a cycle",
      workflow: root(B, C),
      resolvers: sync(agent("agnt-b", D), agent("agnt-c", D), agent("agnt-d")),
    },
    {
      name: "a diamond inside a delegate: b → c, b → d, c → d",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", C, D), agent("agnt-c", D), agent("agnt-d")),
    },
    {
      name: "the same delegate twice is not a cycle",
      workflow: root(B, B),
      resolvers: sync(agent("agnt-b")),
    },
    { name: "no resolver: unresolved refs end the path", workflow: root(B) },
    {
      name: "an unknown delegate of a delegate ends the path",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", "agnt-gone@1.0.0")),
    },
    {
      name: "another version of this workflow is another node",
      workflow: root(B),
      resolvers: sync(
        agent("agnt-b", "agnt-a@2.0.0"),
        workflow([llm("x")], [], { id: "agnt-a", version: "2.0.0" }),
      ),
    },
    {
      name: "a throwing resolver resolves nothing",
      workflow: root(B),
      resolvers: {
        resolveDelegate: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "a resolver returning an invalid document resolves nothing",
      workflow: root(B),
      resolvers: { resolveDelegate: () => ({ kind: "AgentWorkflow" }) },
    },
    {
      name: "invalid refs are not followed",
      workflow: root("agnt-a"),
      resolvers: sync(agent("agnt-b", "agnt-a")),
    },
  ],
  invalid: [
    {
      name: "self-delegation a → a, even without a resolver",
      workflow: root(A),
      errors: [
        {
          ...at(1),
          data: { nodeId: "a", index: 1, ref: A, delegate: A, chain: [A, A], cycle: `${A} → ${A}` },
        },
      ],
    },
    {
      name: "self-delegation through an abbreviated ref",
      workflow: root("agnt-a@1"),
      errors: [{ ...at(1), data: { ref: "agnt-a@1", delegate: A, chain: [A, A] } }],
    },
    {
      name: "a → b → a",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", A)),
      errors: [{ ...at(1), data: { delegate: B, chain: [A, B, A], cycle: `${A} → ${B} → ${A}` } }],
    },
    {
      name: "a → b → c → a (3-cycle), async resolver",
      workflow: root(B),
      resolvers: async(agent("agnt-b", C), agent("agnt-c", A)),
      errors: [{ ...at(1), data: { chain: [A, B, C, A] } }],
    },
    {
      name: "the registry's copy of this workflow is not used: this document's edges are",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", A), agent("agnt-a")),
      errors: [{ ...at(1), data: { chain: [A, B, A] } }],
    },
    {
      name: "a cycle among delegates that does not come back here: b → c → b",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", C), agent("agnt-c", B)),
      errors: [{ ...at(1), data: { delegate: B, chain: [B, C, B], cycle: `${B} → ${C} → ${B}` } }],
    },
    {
      name: "a delegate that delegates to itself: b → b",
      workflow: root(C),
      resolvers: sync(agent("agnt-c", B), agent("agnt-b", B)),
      errors: [{ ...at(1), data: { delegate: C, chain: [B, B] } }],
    },
    {
      name: "one cycle reached by two edges is reported once, on the first",
      workflow: root(B, C),
      resolvers: sync(agent("agnt-b", C), agent("agnt-c", B)),
      errors: [{ ...at(1), data: { delegate: B, chain: [B, C, B] } }],
    },
    {
      name: "the cycle through this workflow is charged to the edge that enters it",
      workflow: root(D, B),
      resolvers: sync(agent("agnt-d"), agent("agnt-b", A)),
      errors: [{ ...at(2), data: { index: 2, delegate: B, chain: [A, B, A] } }],
    },
    {
      name: "two distinct cycles, each on the first edge that reaches it, in document order",
      workflow: root(B, D),
      resolvers: sync(agent("agnt-b", C), agent("agnt-c", B), agent("agnt-d", D)),
      errors: [
        { ...at(1), data: { delegate: B, chain: [B, C, B] } },
        { ...at(2), data: { delegate: D, chain: [D, D] } },
      ],
    },
    {
      name: "a cycle through this workflow and another behind it",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", A, C), agent("agnt-c", D), agent("agnt-d", C)),
      errors: [
        { ...at(1), data: { chain: [A, B, A] } },
        { ...at(1), data: { chain: [C, D, C] } },
      ],
    },
    {
      name: "the shortest way back is named when the component has several",
      workflow: root(B),
      resolvers: sync(agent("agnt-b", C, A), agent("agnt-c", A)),
      errors: [{ ...at(1), data: { chain: [A, B, A] } }],
    },
    {
      name: "the edge's own node is the target",
      workflow: workflow([llm("a"), llm("b")], [edge("a", "b"), edge("b", B, "delegate")], {
        id: "agnt-a",
        autonomyLevel: 4,
      }),
      resolvers: sync(agent("agnt-b", "agnt-a@1.0")),
      errors: [{ ...at(1, "b"), data: { nodeId: "b", chain: [A, B, A] } }],
    },
  ],
});
