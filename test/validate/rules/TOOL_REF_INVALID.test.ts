import { rule } from "../../../src/validate/rules/TOOL_REF_INVALID.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const withTool = (usesTool: string) => workflow([llm("a"), tool("t", usesTool)], [edge("a", "t")]);

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "exact version", workflow: withTool("tool:browser-search@1.2.0") },
    { name: "pre-release", workflow: withTool("tool:x@1.0.0-rc.1") },
    { name: "abbreviated versions are another rule's warning", workflow: withTool("tool:x@1.2") },
  ],
  invalid: [
    {
      name: "the Handoff 12 form: no prefix, no version",
      workflow: withTool("browser_search"),
      errors: [
        {
          code: "TOOL_REF_INVALID",
          target: { kind: "node", nodeId: "t" },
          path: "/nodes/1/config/usesTool",
          data: { nodeId: "t", ref: "browser_search", kind: "missing-version" },
        },
      ],
    },
    ...(
      [
        ["tool:x@latest", "tag"],
        ["tool:x@^1.0.0", "range"],
        ["@1.0.0", "empty-id"],
        ["tool:x@", "empty-version"],
        ["search@1.0.0", "prefix"],
        ["prm:search@1.0.0", "prefix"],
      ] as const
    ).map(([ref, kind]) => ({
      name: `${ref} (${kind})`,
      workflow: withTool(ref),
      errors: [
        {
          code: "TOOL_REF_INVALID",
          target: { kind: "node", nodeId: "t" } as const,
          path: "/nodes/1/config/usesTool",
          data: { ref, kind },
        },
      ],
    })),
  ],
});
