import { rule } from "../../../src/validate/rules/PROMPT_REF_INVALID.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const withPrompt = (promptRef: string) =>
  workflow([llm("a", { promptRef }), llm("b")], [edge("a", "b")]);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "exact version", workflow: withPrompt("prm:research@2.0.0") },
    { name: "no prm: prefix is required", workflow: withPrompt("research-v2@2.0.0") },
    { name: "an id with dots and colons", workflow: withPrompt("team.prompts:summarise@1.0.0") },
    { name: "pre-release and build metadata", workflow: withPrompt("prm:x@1.0.0-rc.1+b.7") },
    { name: "abbreviated versions are another rule's warning", workflow: withPrompt("prm:x@2") },
    {
      name: "tool refs are not this rule's",
      workflow: workflow([llm("a"), tool("t", "browser_search")], [edge("a", "t")]),
    },
    { name: "no nodes", workflow: workflow([], []) },
  ],
  invalid: [
    {
      name: "a bare prompt name",
      workflow: withPrompt("research"),
      errors: [
        {
          code: "PROMPT_REF_INVALID",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/promptRef",
          data: { nodeId: "a", ref: "research", kind: "missing-version" },
        },
      ],
    },
    ...(
      [
        ["prm:x@latest", "tag"],
        ["prm:x@^2.0.0", "range"],
        ["@1.0.0", "empty-id"],
        ["prm:x@", "empty-version"],
        ["1prm@1.0.0", "invalid-id"],
        ["prm:x@v2.0.0", "invalid-version"],
        ["", "missing-version"],
      ] as const
    ).map(([ref, kind]) => ({
      name: `"${ref}" (${kind})`,
      workflow: withPrompt(ref),
      errors: [
        {
          code: "PROMPT_REF_INVALID",
          target: { kind: "node", nodeId: "a" } as const,
          path: "/nodes/0/config/promptRef",
          data: { ref, kind },
        },
      ],
    })),
    {
      name: "every llm node, in document order",
      workflow: workflow(
        [llm("a", { promptRef: "p" }), llm("b"), llm("c", { promptRef: "q@next" })],
        [edge("a", "b"), edge("b", "c")],
      ),
      errors: [
        {
          code: "PROMPT_REF_INVALID",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/promptRef",
        },
        {
          code: "PROMPT_REF_INVALID",
          target: { kind: "node", nodeId: "c" },
          path: "/nodes/2/config/promptRef",
          data: { kind: "tag" },
        },
      ],
    },
  ],
});
