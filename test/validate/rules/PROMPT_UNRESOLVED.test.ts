import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/PROMPT_UNRESOLVED.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const prompts = (...refs: string[]): Map<string, unknown> =>
  new Map(refs.map((r) => [r, { text: `prompt ${r}` }]));
const sync = (m: Map<string, unknown>): Resolvers => ({ resolvePrompt: (ref) => m.get(ref) });
const async = (m: Map<string, unknown>): Resolvers => ({
  resolvePrompt: (ref) => Promise.resolve(m.get(ref)),
});

const twoPrompts = (a: string, b: string) =>
  workflow([llm("a", { promptRef: a }), llm("b", { promptRef: b })], [edge("a", "b")]);
const at = (nodeId: string, i: number) => ({
  code: "PROMPT_UNRESOLVED",
  target: { kind: "node", nodeId } as const,
  path: `/nodes/${i}/config/promptRef`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    {
      name: "no resolver: prompts are optional to resolve",
      workflow: twoPrompts("p@1.0.0", "q@1.0.0"),
    },
    {
      name: "a sync resolver knows both prompts",
      workflow: twoPrompts("prm:p@1.0.0", "prm:q@2.0.0"),
      resolvers: sync(prompts("prm:p@1.0.0", "prm:q@2.0.0")),
    },
    {
      name: "an async resolver knows the prompt",
      workflow: twoPrompts("prm:p@1.0.0", "prm:p@1.0.0"),
      resolvers: async(prompts("prm:p@1.0.0")),
    },
    {
      name: "an abbreviated ref is looked up by its canonical form",
      workflow: twoPrompts("prm:p@1", "prm:p@1.0"),
      resolvers: sync(prompts("prm:p@1.0.0")),
    },
    {
      name: "any value but undefined/null means the prompt exists",
      workflow: twoPrompts("prm:p@1.0.0", "prm:q@1.0.0"),
      resolvers: { resolvePrompt: (ref) => (ref === "prm:p@1.0.0" ? "" : 0) },
    },
    {
      name: "invalid refs are PROMPT_REF_INVALID's, never looked up",
      workflow: twoPrompts("p", "q@latest"),
      resolvers: sync(prompts()),
    },
    { name: "no llm nodes", workflow: workflow([], []), resolvers: sync(prompts()) },
  ],
  invalid: [
    {
      name: "a sync resolver does not know one prompt",
      workflow: twoPrompts("prm:p@1.0.0", "prm:q@2.0.0"),
      resolvers: sync(prompts("prm:p@1.0.0")),
      errors: [
        {
          ...at("b", 1),
          data: { nodeId: "b", ref: "prm:q@2.0.0", prompt: "prm:q@2.0.0", status: "unknown" },
        },
      ],
    },
    {
      name: "an async resolver knows neither; each node is reported",
      workflow: twoPrompts("prm:p@2", "prm:p@2.0.0"),
      resolvers: async(prompts()),
      errors: [
        { ...at("a", 0), data: { ref: "prm:p@2", prompt: "prm:p@2.0.0", status: "unknown" } },
        { ...at("b", 1), data: { ref: "prm:p@2.0.0", prompt: "prm:p@2.0.0", status: "unknown" } },
      ],
    },
    {
      name: "a resolver returning null does not know it",
      workflow: twoPrompts("prm:p@1.0.0", "prm:p@1.0.0"),
      resolvers: { resolvePrompt: () => null },
      errors: [
        { ...at("a", 0), data: { status: "unknown" } },
        { ...at("b", 1), data: { status: "unknown" } },
      ],
    },
    {
      name: "a resolver that throws: failed, with the reason",
      workflow: twoPrompts("prm:p@1.0.0", "prm:q@1.0.0"),
      resolvers: {
        resolvePrompt: (ref) => {
          if (ref === "prm:q@1.0.0") throw new Error("registry offline");
          return {};
        },
      },
      errors: [{ ...at("b", 1), data: { status: "failed", error: "registry offline" } }],
    },
    {
      name: "an async resolver that rejects: failed, with the reason",
      workflow: twoPrompts("prm:p@1.0.0", "prm:q@1.0.0"),
      resolvers: { resolvePrompt: () => Promise.reject(new Error("HTTP 503")) },
      errors: [
        { ...at("a", 0), data: { status: "failed", error: "HTTP 503" } },
        { ...at("b", 1), data: { status: "failed", error: "HTTP 503" } },
      ],
    },
  ],
});
