import { readFileSync } from "node:fs";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { parseWorkflow } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/DELEGATE_REF_ABBREVIATED.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const delegating = (...refs: string[]) =>
  workflow(
    [llm("a")],
    refs.map((to) => edge("a", to, "delegate")),
    { autonomyLevel: 4 },
  );

function fixture(name: string): AgentWorkflow {
  const text = readFileSync(new URL(`../../fixtures/agentflow/${name}`, import.meta.url), "utf8");
  const parsed = parseWorkflow(JSON.parse(text));
  if (parsed.workflow === undefined) throw new Error(`${name} does not parse`);
  return parsed.workflow;
}

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "exact version", workflow: delegating("agnt-verify@1.0.0") },
    { name: "an invalid ref is another rule's error", workflow: delegating("agnt-verify") },
    {
      name: "the sandwich fixture names an exact version",
      workflow: fixture("acid-test-sandwich-agent.json"),
    },
  ],
  invalid: [
    {
      name: "the Handoff 12 example: agnt-verify@1.0",
      workflow: fixture("handoff12-spec-research-agent.json"),
      errors: [
        {
          code: "DELEGATE_REF_ABBREVIATED",
          target: { kind: "edge", index: 3, from: "llm-1", to: "agnt-verify@1.0" },
          path: "/edges/3/to",
          data: {
            index: 3,
            from: "llm-1",
            ref: "agnt-verify@1.0",
            normalized: "agnt-verify@1.0.0",
          },
        },
      ],
    },
    {
      name: "major only, then major.minor, in document order",
      workflow: delegating("agnt-b@2", "agnt-c@1.0.0", "agnt-d@3.1"),
      errors: [
        {
          code: "DELEGATE_REF_ABBREVIATED",
          target: { kind: "edge", index: 0, from: "a", to: "agnt-b@2" },
          path: "/edges/0/to",
          data: { ref: "agnt-b@2", normalized: "agnt-b@2.0.0" },
        },
        {
          code: "DELEGATE_REF_ABBREVIATED",
          target: { kind: "edge", index: 2, from: "a", to: "agnt-d@3.1" },
          path: "/edges/2/to",
          data: { ref: "agnt-d@3.1", normalized: "agnt-d@3.1.0" },
        },
      ],
    },
  ],
});
