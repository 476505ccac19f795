import { rule } from "../../../src/validate/rules/DELEGATE_REF_INVALID.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const delegating = (...refs: string[]) =>
  workflow([llm("a"), llm("b")], [edge("a", "b"), ...refs.map((to) => edge("a", to, "delegate"))], {
    autonomyLevel: 4,
  });

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no delegate edges", workflow: workflow([llm("a")], []) },
    { name: "exact version", workflow: delegating("agnt-verify@1.0.0") },
    { name: "pre-release and build metadata", workflow: delegating("agnt-verify@1.0.0-rc.1+b.7") },
    { name: "ids with ':' '.' '-'", workflow: delegating("org:agnt.verify-x@2.3.4") },
    { name: "abbreviated versions are another rule's warning", workflow: delegating("agnt@1.0") },
    {
      name: "a data edge's to is a node id, not a ref (another rule's concern)",
      workflow: workflow([llm("a")], [edge("a", "nowhere")]),
    },
  ],
  invalid: [
    ...(
      [
        ["agnt-verify", "missing-version"],
        ["agnt-verify@latest", "tag"],
        ["agnt-verify@^1.0.0", "range"],
        ["agnt-verify@1.x", "range"],
        ["@1.0.0", "empty-id"],
        ["agnt-verify@", "empty-version"],
        ["1agent@1.0.0", "invalid-id"],
        ["a@b@1.0.0", "invalid-id"],
        ["agnt-verify@v1.0.0", "invalid-version"],
      ] as const
    ).map(([ref, kind]) => ({
      name: `${ref} (${kind})`,
      workflow: delegating(ref),
      errors: [
        {
          code: "DELEGATE_REF_INVALID",
          target: { kind: "edge", index: 1, from: "a", to: ref } as const,
          path: "/edges/1/to",
          data: { index: 1, from: "a", ref, kind },
        },
      ],
    })),
    {
      name: "several delegate edges: only the invalid ones, in document order",
      workflow: delegating("x", "agnt-ok@1.0.0", "y@latest"),
      errors: [
        {
          code: "DELEGATE_REF_INVALID",
          target: { kind: "edge", index: 1, from: "a", to: "x" },
          path: "/edges/1/to",
          data: { kind: "missing-version" },
        },
        {
          code: "DELEGATE_REF_INVALID",
          target: { kind: "edge", index: 3, from: "a", to: "y@latest" },
          path: "/edges/3/to",
          data: { kind: "tag" },
        },
      ],
    },
    {
      name: "a delegate edge from an unknown node still names its ref",
      workflow: workflow([llm("a")], [edge("ghost", "verify", "delegate")]),
      errors: [
        {
          code: "DELEGATE_REF_INVALID",
          target: { kind: "edge", index: 0, from: "ghost", to: "verify" },
          path: "/edges/0/to",
          data: { index: 0, from: "ghost", ref: "verify", kind: "missing-version" },
        },
      ],
    },
  ],
});
