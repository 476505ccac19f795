import { rule } from "../../../src/validate/rules/PROMPT_REF_ABBREVIATED.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const withPrompt = (promptRef: string) =>
  workflow([llm("a", { promptRef }), llm("b")], [edge("a", "b")]);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "exact version", workflow: withPrompt("prm:x@2.1.0") },
    { name: "an invalid ref is another rule's error", workflow: withPrompt("research") },
    {
      name: "abbreviated tool refs are not this rule's",
      workflow: workflow([llm("a"), tool("t", "tool:x@1")], [edge("a", "t")]),
    },
  ],
  invalid: [
    {
      name: "major only",
      workflow: withPrompt("prm:research@2"),
      errors: [
        {
          code: "PROMPT_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/promptRef",
          data: { nodeId: "a", ref: "prm:research@2", normalized: "prm:research@2.0.0" },
        },
      ],
    },
    {
      name: "major.minor, without a prm: prefix",
      workflow: withPrompt("summarise@2.5"),
      errors: [
        {
          code: "PROMPT_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/promptRef",
          data: { normalized: "summarise@2.5.0" },
        },
      ],
    },
    {
      name: "two nodes with the same abbreviated ref are both reported",
      workflow: workflow(
        [llm("a", { promptRef: "p@1" }), llm("b", { promptRef: "p@1" })],
        [edge("a", "b")],
      ),
      errors: [
        {
          code: "PROMPT_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/promptRef",
        },
        {
          code: "PROMPT_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "b" },
          path: "/nodes/1/config/promptRef",
        },
      ],
    },
  ],
});
