import type { ToolAuthorization, ToolContract, ToolEffect } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/TOOL_FORBIDDEN.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const contract = (
  name: string,
  effect: ToolEffect,
  authorization: ToolAuthorization,
): ToolContract => ({
  kind: "ToolContract",
  id: `tool:${name}`,
  version: "1.0.0",
  name,
  inputSchema: { q: "text" },
  outputSchema: { ok: "bool" },
  effect,
  authorization,
});
const sync = (...docs: ToolContract[]): Resolvers => {
  const m = new Map(docs.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveTool: (ref) => m.get(ref) };
};
const async = (...docs: ToolContract[]): Resolvers => {
  const m = new Map(docs.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveTool: (ref) => Promise.resolve(m.get(ref)) };
};

const calling = (...refs: string[]) =>
  workflow(
    [llm("a"), ...refs.map((r, k) => tool(`t${k}`, r, { params: { q: "x" } }))],
    refs.map((_, k) => edge(k === 0 ? "a" : `t${k - 1}`, `t${k}`)),
  );
const at = (k: number) => ({
  code: "TOOL_FORBIDDEN",
  target: { kind: "node", nodeId: `t${k}` } as const,
  path: `/nodes/${k + 1}/config/usesTool`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    {
      name: "automatic",
      workflow: calling("tool:x@1.0.0"),
      resolvers: sync(contract("x", "read", "automatic")),
    },
    {
      name: "gate",
      workflow: calling("tool:x@1.0.0"),
      resolvers: async(contract("x", "write-irreversible", "gate")),
    },
    { name: "no resolver", workflow: calling("tool:x@1.0.0") },
    { name: "unknown contract", workflow: calling("tool:x@1.0.0"), resolvers: sync() },
    {
      name: "a throwing resolver",
      workflow: calling("tool:x@1.0.0"),
      resolvers: {
        resolveTool: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "an invalid contract is not trusted",
      workflow: calling("tool:x@1.0.0"),
      resolvers: { resolveTool: () => ({ kind: "ToolContract", authorization: "forbidden" }) },
    },
  ],
  invalid: [
    {
      name: "a forbidden read tool",
      workflow: calling("tool:ok@1.0.0", "tool:x@1.0.0"),
      resolvers: sync(contract("ok", "read", "automatic"), contract("x", "read", "forbidden")),
      errors: [
        {
          ...at(1),
          data: { nodeId: "t1", tool: "tool:x@1.0.0", effect: "read", authorization: "forbidden" },
        },
      ],
    },
    {
      name: "async registry, abbreviated ref, two nodes",
      workflow: calling("tool:x@1", "tool:x@1.0.0"),
      resolvers: async(contract("x", "notify", "forbidden")),
      errors: [
        { ...at(0), data: { tool: "tool:x@1.0.0", effect: "notify" } },
        { ...at(1), data: { tool: "tool:x@1.0.0" } },
      ],
    },
  ],
});
