import type { ToolAuthorization, ToolContract, ToolEffect } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/TOOL_EFFECT_UNGATED.js";
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
const byRef = (...docs: unknown[]): Map<string, unknown> =>
  new Map(
    docs.map((d) => {
      const { id, version } = d as { id: string; version: string };
      return [`${id}@${version}`, d];
    }),
  );
const sync = (...docs: unknown[]): Resolvers => {
  const m = byRef(...docs);
  return { resolveTool: (ref) => m.get(ref) };
};
const async = (...docs: unknown[]): Resolvers => {
  const m = byRef(...docs);
  return { resolveTool: (ref) => Promise.resolve(m.get(ref)) };
};

const calling = (...refs: string[]) =>
  workflow(
    [llm("a"), ...refs.map((r, k) => tool(`t${k}`, r, { params: { q: "x" } }))],
    refs.map((_, k) => edge(k === 0 ? "a" : `t${k - 1}`, `t${k}`)),
  );
const at = (k: number) => ({
  code: "TOOL_EFFECT_UNGATED",
  target: { kind: "node", nodeId: `t${k}` } as const,
  path: `/nodes/${k + 1}/config/usesTool`,
});

const reversible = ["read", "propose", "notify", "write-reversible"] as const;

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    ...reversible.map((effect) => ({
      name: `${effect} may run automatically`,
      workflow: calling("tool:x@1.0.0"),
      resolvers: sync(contract("x", effect, "automatic")),
    })),
    {
      name: "an irreversible tool behind a gate",
      workflow: calling("tool:delete@1.0.0"),
      resolvers: sync(contract("delete", "write-irreversible", "gate")),
    },
    {
      name: "a commitment behind a gate (async registry)",
      workflow: calling("tool:pay@1.0.0"),
      resolvers: async(contract("pay", "external-commitment", "gate")),
    },
    { name: "no resolver: the contract is unknown", workflow: calling("tool:delete@1.0.0") },
    {
      name: "an unknown contract is TOOL_UNRESOLVED's",
      workflow: calling("tool:delete@1.0.0"),
      resolvers: sync(),
    },
    {
      name: "a throwing resolver is TOOL_UNRESOLVED's",
      workflow: calling("tool:delete@1.0.0"),
      resolvers: {
        resolveTool: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "an invalid contract is not trusted, even if it says irreversible",
      workflow: calling("tool:delete@1.0.0"),
      resolvers: sync({
        ...contract("delete", "write-irreversible", "automatic"),
        authorization: "sometimes",
      }),
    },
  ],
  invalid: [
    {
      name: "an irreversible write that runs automatically",
      workflow: calling("tool:delete@1.0.0"),
      resolvers: sync(contract("delete", "write-irreversible", "automatic")),
      errors: [
        {
          ...at(0),
          data: {
            nodeId: "t0",
            tool: "tool:delete@1.0.0",
            effect: "write-irreversible",
            authorization: "automatic",
          },
        },
      ],
    },
    {
      name: "an external commitment, async registry, abbreviated ref",
      workflow: calling("tool:read@1.0.0", "tool:pay@1"),
      resolvers: async(
        contract("read", "read", "automatic"),
        contract("pay", "external-commitment", "automatic"),
      ),
      errors: [
        {
          ...at(1),
          data: {
            tool: "tool:pay@1.0.0",
            effect: "external-commitment",
            authorization: "automatic",
          },
        },
      ],
    },
    {
      name: "a forbidden irreversible contract is not gated either (TOOL_FORBIDDEN also fires)",
      workflow: calling("tool:wipe@1.0.0"),
      resolvers: sync(contract("wipe", "write-irreversible", "forbidden")),
      errors: [{ ...at(0), data: { authorization: "forbidden" } }],
    },
    {
      name: "every node binding the contract is reported",
      workflow: calling("tool:pay@1.0.0", "tool:pay@1.0.0"),
      resolvers: sync(contract("pay", "external-commitment", "automatic")),
      errors: [
        { ...at(0), data: { nodeId: "t0", effect: "external-commitment" } },
        { ...at(1), data: { nodeId: "t1" } },
      ],
    },
  ],
});
