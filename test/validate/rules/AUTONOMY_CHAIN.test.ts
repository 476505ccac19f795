import type { AgentWorkflow, AutonomyLevel } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/AUTONOMY_CHAIN.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** Agent `id@1.0.0` declaring `level`, delegating to each of `to`. */
const agent = (id: string, level: AutonomyLevel, ...to: string[]): AgentWorkflow =>
  workflow(
    [llm("x")],
    to.map((t) => edge("x", t, "delegate")),
    { id, autonomyLevel: level },
  );

const root = (level: AutonomyLevel, ...to: string[]) =>
  workflow([llm("a"), llm("b")], [edge("a", "b"), ...to.map((t) => edge("a", t, "delegate"))], {
    id: "agnt-a",
    autonomyLevel: level,
  });

const sync = (...docs: AgentWorkflow[]): Resolvers => {
  const byRef = new Map<string, unknown>(docs.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveDelegate: (ref) => byRef.get(ref) };
};

const at = (index: number, nodeId = "a") => ({
  code: "AUTONOMY_CHAIN",
  target: { kind: "node", nodeId } as const,
  path: `/edges/${index}/to`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no delegates", workflow: workflow([llm("a")], []) },
    {
      name: "equal levels",
      workflow: root(4, "agnt-b@1.0.0"),
      resolvers: sync(agent("agnt-b", 4)),
    },
    {
      name: "a less autonomous delegate",
      workflow: root(4, "agnt-b@1.0.0"),
      resolvers: sync(agent("agnt-b", 1)),
    },
    { name: "unresolved delegates are not compared", workflow: root(4, "agnt-b@1.0.0") },
    {
      name: "a resolver that throws",
      workflow: root(4, "agnt-b@1.0.0"),
      resolvers: {
        resolveDelegate: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "only direct delegates: b's own delegate c is b's concern",
      workflow: root(4, "agnt-b@1.0.0"),
      resolvers: sync(agent("agnt-b", 4, "agnt-c@1.0.0"), agent("agnt-c", 5)),
    },
    {
      name: "an invalid ref is not compared",
      workflow: root(4, "agnt-b"),
      resolvers: sync(agent("agnt-b", 5)),
    },
  ],
  invalid: [
    {
      name: "a delegate declaring more autonomy",
      workflow: root(4, "agnt-b@1.0.0"),
      resolvers: sync(agent("agnt-b", 5)),
      errors: [
        {
          ...at(1),
          data: { nodeId: "a", index: 1, delegate: "agnt-b@1.0.0", delegateLevel: 5, level: 4 },
        },
      ],
    },
    {
      name: "an abbreviated ref, an async resolver, several edges in document order",
      workflow: workflow(
        [llm("a"), llm("b")],
        [
          edge("a", "b"),
          edge("b", "agnt-b@1", "delegate"),
          edge("a", "agnt-c@1.0.0", "delegate"),
          edge("a", "agnt-d@1.0.0", "delegate"),
        ],
        { id: "agnt-a", autonomyLevel: 2 },
      ),
      resolvers: {
        resolveDelegate: (ref) =>
          Promise.resolve(
            (
              { "agnt-b@1.0.0": agent("agnt-b", 3), "agnt-c@1.0.0": agent("agnt-c", 2) } as Record<
                string,
                unknown
              >
            )[ref],
          ),
      },
      errors: [
        {
          ...at(1, "b"),
          data: { nodeId: "b", delegate: "agnt-b@1.0.0", delegateLevel: 3, level: 2 },
        },
      ],
    },
    {
      name: "self-delegation compares with the registry's copy",
      workflow: root(4, "agnt-a@1.0.0"),
      resolvers: sync(agent("agnt-a", 5)),
      errors: [{ ...at(1), data: { delegate: "agnt-a@1.0.0", delegateLevel: 5, level: 4 } }],
    },
  ],
});
