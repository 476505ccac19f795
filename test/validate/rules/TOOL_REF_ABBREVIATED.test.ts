import { rule } from "../../../src/validate/rules/TOOL_REF_ABBREVIATED.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const withTool = (usesTool: string) => workflow([llm("a"), tool("t", usesTool)], [edge("a", "t")]);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "exact version", workflow: withTool("tool:x@1.2.0") },
    { name: "an invalid ref is another rule's error", workflow: withTool("browser_search") },
  ],
  invalid: [
    {
      name: "major only",
      workflow: withTool("tool:x@1"),
      errors: [
        {
          code: "TOOL_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "t" },
          path: "/nodes/1/config/usesTool",
          data: { nodeId: "t", ref: "tool:x@1", normalized: "tool:x@1.0.0" },
        },
      ],
    },
    {
      name: "major.minor",
      workflow: withTool("tool:x@2.5"),
      errors: [
        {
          code: "TOOL_REF_ABBREVIATED",
          target: { kind: "node", nodeId: "t" },
          path: "/nodes/1/config/usesTool",
          data: { normalized: "tool:x@2.5.0" },
        },
      ],
    },
  ],
});
