import type { ToolContract } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/TOOL_UNRESOLVED.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const contract = (name: string, version = "1.0.0"): ToolContract => ({
  kind: "ToolContract",
  id: `tool:${name}`,
  version,
  name,
  inputSchema: { q: "text" },
  outputSchema: { results: "text[]" },
  effect: "read",
  authorization: "automatic",
});
const registry = (...docs: unknown[]): Map<string, unknown> =>
  new Map(
    docs.map((d) => {
      const { id, version } = d as { id: string; version: string };
      return [`${id}@${version}`, d];
    }),
  );
const sync = (m: Map<string, unknown>): Resolvers => ({ resolveTool: (ref) => m.get(ref) });
const async = (m: Map<string, unknown>): Resolvers => ({
  resolveTool: (ref) => Promise.resolve(m.get(ref)),
});

const tools = (...refs: string[]) =>
  workflow(
    [llm("a"), ...refs.map((r, k) => tool(`t${k}`, r, { params: { q: "x" } }))],
    refs.map((_, k) => edge(k === 0 ? "a" : `t${k - 1}`, `t${k}`)),
  );
const at = (k: number) => ({
  code: "TOOL_UNRESOLVED",
  target: { kind: "node", nodeId: `t${k}` } as const,
  path: `/nodes/${k + 1}/config/usesTool`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no resolver: nothing is reported", workflow: tools("tool:search@1.0.0") },
    {
      name: "a sync registry knows the contract",
      workflow: tools("tool:search@1.0.0"),
      resolvers: sync(registry(contract("search"))),
    },
    {
      name: "an async registry knows the contract",
      workflow: tools("tool:search@1.0.0", "tool:fetch@2.0.0"),
      resolvers: async(registry(contract("search"), contract("fetch", "2.0.0"))),
    },
    {
      name: "an abbreviated ref is looked up canonically",
      workflow: tools("tool:search@1"),
      resolvers: sync(registry(contract("search"))),
    },
    {
      name: "invalid refs and refs without tool: are TOOL_REF_INVALID's",
      workflow: tools("browser_search", "search@1.0.0", "tool:x@latest"),
      resolvers: sync(registry()),
    },
    { name: "no tool nodes", workflow: workflow([llm("a")], []), resolvers: sync(registry()) },
  ],
  invalid: [
    {
      name: "a sync registry does not know the version",
      workflow: tools("tool:search@1.0.0", "tool:search@2.0.0"),
      resolvers: sync(registry(contract("search"))),
      errors: [
        {
          ...at(1),
          data: {
            nodeId: "t1",
            ref: "tool:search@2.0.0",
            tool: "tool:search@2.0.0",
            status: "unknown",
          },
        },
      ],
    },
    {
      name: "an async registry knows nothing; each node is reported",
      workflow: tools("tool:search@1", "tool:search@1.0.0"),
      resolvers: async(registry()),
      errors: [
        { ...at(0), data: { ref: "tool:search@1", tool: "tool:search@1.0.0", status: "unknown" } },
        { ...at(1), data: { tool: "tool:search@1.0.0", status: "unknown" } },
      ],
    },
    {
      name: "a resolver that throws: failed, with the reason",
      workflow: tools("tool:search@1.0.0"),
      resolvers: {
        resolveTool: () => {
          throw new Error("registry offline");
        },
      },
      errors: [{ ...at(0), data: { status: "failed", error: "registry offline" } }],
    },
    {
      name: "an async resolver that rejects",
      workflow: tools("tool:search@1.0.0"),
      resolvers: { resolveTool: () => Promise.reject(new Error("HTTP 503")) },
      errors: [{ ...at(0), data: { status: "failed", error: "HTTP 503" } }],
    },
    {
      name: "a registry returning an invalid contract: failed, saying why",
      workflow: tools("tool:search@1.0.0"),
      resolvers: sync(
        new Map([["tool:search@1.0.0", { ...contract("search"), effect: "destroy-world" }]]),
      ),
      errors: [
        {
          ...at(0),
          data: {
            status: "failed",
            error: /invalid tool contract/,
          },
        },
      ],
    },
    {
      name: "a registry answering with another version than asked for",
      workflow: tools("tool:search@1.0.0"),
      resolvers: { resolveTool: () => contract("search", "2.0.0") },
      errors: [{ ...at(0), data: { status: "failed" } }],
    },
    {
      name: "a registry returning a string instead of a contract",
      workflow: tools("tool:search@1.0.0"),
      resolvers: { resolveTool: () => "tool:search" },
      errors: [{ ...at(0), data: { status: "failed" } }],
    },
  ],
});
