import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { parseWorkflow } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { createValidator, MAX_DELEGATES } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/DELEGATE_UNRESOLVED.js";
import { edge, llm, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const delegating = (...refs: string[]) =>
  workflow([llm("a"), llm("b")], [edge("a", "b"), ...refs.map((to) => edge("a", to, "delegate"))], {
    autonomyLevel: 4,
  });

const agent = (id: string, version = "1.0.0") => workflow([llm("x")], [], { id, version });

/** A registry keyed by canonical ref, as hosts would inject it. */
const registry = (...docs: AgentWorkflow[]): Map<string, unknown> =>
  new Map(docs.map((d) => [`${d.id}@${d.version}`, d]));
const sync = (m: Map<string, unknown>): Resolvers => ({ resolveDelegate: (ref) => m.get(ref) });
const async = (m: Map<string, unknown>): Resolvers => ({
  resolveDelegate: (ref) => Promise.resolve(m.get(ref)),
});

function fixture(name: string): AgentWorkflow {
  const text = readFileSync(new URL(`../../fixtures/agentflow/${name}`, import.meta.url), "utf8");
  const parsed = parseWorkflow(JSON.parse(text));
  if (parsed.workflow === undefined) throw new Error(`${name} does not parse`);
  return parsed.workflow;
}

const at = (nodeId: string, index: number) => ({
  code: "DELEGATE_UNRESOLVED",
  target: { kind: "node", nodeId } as const,
  path: `/edges/${index}/to`,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no delegate edges, no resolver", workflow: workflow([llm("a")], []) },
    {
      name: "a sync resolver knows the delegate",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: sync(registry(agent("agnt-v"))),
    },
    {
      name: "an async resolver knows the delegate",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: async(registry(agent("agnt-v"))),
    },
    {
      name: "an abbreviated ref is looked up by its canonical form",
      workflow: delegating("agnt-v@1"),
      resolvers: sync(registry(agent("agnt-v"))),
    },
    {
      name: "an invalid ref is DELEGATE_REF_INVALID's, not also unresolved",
      workflow: delegating("agnt-v", "agnt-v@latest"),
    },
    {
      name: "a delegate of a delegate that resolves is no finding",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: sync(
        registry(
          workflow([llm("x")], [edge("x", "agnt-w@1.0.0", "delegate")], {
            id: "agnt-v",
            autonomyLevel: 4,
          }),
          agent("agnt-w"),
        ),
      ),
    },
  ],
  invalid: [
    {
      // Red team: the delegate's own finding reached no output, and `check` passed in silence.
      name: "a delegate of a delegate nobody knows, on the edge that leads there",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: sync(
        registry(
          workflow([llm("x")], [edge("x", "agnt-m@1.0.0", "delegate")], {
            id: "agnt-v",
            autonomyLevel: 4,
          }),
          workflow([llm("x")], [edge("x", "agnt-gone@1.0.0", "delegate")], {
            id: "agnt-m",
            autonomyLevel: 4,
          }),
        ),
      ),
      errors: [
        {
          ...at("a", 1),
          messageId: "transitive",
          data: {
            delegate: "agnt-v@1.0.0",
            unread: "agnt-gone@1.0.0",
            reason: "unknown",
            depth: 2,
          },
        },
      ],
    },
    {
      name: "acceptance: the Handoff 12 document, no resolver, reports on node llm-1",
      workflow: fixture("handoff12-spec-research-agent.json"),
      errors: [
        {
          ...at("llm-1", 3),
          data: {
            nodeId: "llm-1",
            index: 3,
            ref: "agnt-verify@1.0",
            delegate: "agnt-verify@1.0.0",
            reason: "no-resolver",
          },
        },
      ],
    },
    {
      name: "acceptance: the sandwich document, no resolver, reports on node plan",
      workflow: fixture("acid-test-sandwich-agent.json"),
      errors: [
        {
          ...at("plan", 3),
          data: { nodeId: "plan", delegate: "agnt-garnish@2.0.0", reason: "no-resolver" },
        },
      ],
    },
    {
      name: "no resolver: every delegate edge, in document order",
      workflow: delegating("agnt-v@1.0.0", "bad ref", "agnt-w@2.0.0"),
      errors: [
        { ...at("a", 1), data: { delegate: "agnt-v@1.0.0", reason: "no-resolver" } },
        { ...at("a", 3), data: { delegate: "agnt-w@2.0.0", reason: "no-resolver" } },
      ],
    },
    {
      name: "other resolvers given, but no resolveDelegate",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: { resolveTool: () => undefined },
      errors: [{ ...at("a", 1), data: { reason: "no-resolver" } }],
    },
    {
      name: "a sync resolver that does not know the ref (undefined)",
      workflow: delegating("agnt-v@1.0.0", "agnt-w@1.0.0"),
      resolvers: sync(registry(agent("agnt-v"))),
      errors: [{ ...at("a", 2), data: { delegate: "agnt-w@1.0.0", reason: "unknown" } }],
    },
    {
      name: "a resolver that returns null",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: { resolveDelegate: () => null },
      errors: [{ ...at("a", 1), data: { reason: "unknown" } }],
    },
    {
      name: "an async resolver that does not know the ref",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: async(registry(agent("agnt-v", "2.0.0"))),
      errors: [{ ...at("a", 1), data: { delegate: "agnt-v@1.0.0", reason: "unknown" } }],
    },
    {
      name: "a resolver that throws",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: {
        resolveDelegate: () => {
          throw new Error("registry down");
        },
      },
      errors: [{ ...at("a", 1), data: { reason: "failed", error: "registry down" } }],
    },
    {
      name: "an async resolver that rejects",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: { resolveDelegate: () => Promise.reject(new Error("timeout")) },
      errors: [{ ...at("a", 1), data: { reason: "failed", error: "timeout" } }],
    },
    {
      name: "a resolver that returns an invalid document",
      workflow: delegating("agnt-v@1.0.0"),
      resolvers: { resolveDelegate: () => ({ kind: "AgentWorkflow", id: "agnt-v" }) },
      errors: [{ ...at("a", 1), data: { reason: "failed" } }],
    },
    {
      name: "one node per edge: the delegating node is the target",
      workflow: workflow(
        [llm("a"), llm("b")],
        [
          edge("a", "b"),
          edge("b", "agnt-v@1.0.0", "delegate"),
          edge("a", "agnt-v@1.0.0", "delegate"),
        ],
        { autonomyLevel: 4 },
      ),
      errors: [
        { ...at("b", 1), data: { nodeId: "b", index: 1 } },
        { ...at("a", 2), data: { nodeId: "a", index: 2 } },
      ],
    },
    {
      name: "names that are prototype keys are plain refs",
      workflow: delegating("constructor@1.0.0", "hasOwnProperty@1.0.0"),
      resolvers: sync(registry()),
      errors: [
        { ...at("a", 1), data: { delegate: "constructor@1.0.0", reason: "unknown" } },
        { ...at("a", 2), data: { delegate: "hasOwnProperty@1.0.0", reason: "unknown" } },
      ],
    },
    {
      name: "past the resolution bound a delegate is never looked up, and says so",
      workflow: delegating(
        ...Array.from({ length: MAX_DELEGATES + 1 }, (_, i) => `agnt-d${i}@1.0.0`),
      ),
      resolvers: { resolveDelegate: (ref) => agent(ref.slice(0, ref.indexOf("@"))) },
      errors: [
        {
          ...at("a", MAX_DELEGATES + 1),
          data: { delegate: `agnt-d${MAX_DELEGATES}@1.0.0`, reason: "limit", limit: MAX_DELEGATES },
        },
      ],
    },
  ],
});

describe("DELEGATE_UNRESOLVED with validateSync", () => {
  const validator = (resolvers: Resolvers) => createValidator({ ruleSet: [rule], resolvers });
  it("reports a throwing resolver the same way as validate()", async () => {
    const resolvers: Resolvers = {
      resolveDelegate: () => {
        throw new Error("registry down");
      },
    };
    const wf = delegating("agnt-v@1.0.0");
    const syncResult = validator(resolvers).validateSync(wf);
    expect(syncResult).toEqual(await validator(resolvers).validate(wf));
    expect(syncResult[0]?.data).toMatchObject({ reason: "failed", error: "registry down" });
    expect(syncResult[0]?.message).toContain("registry down");
  });
  it("says which reason applies in the message", () => {
    const [noResolver] = validator({}).validateSync(delegating("agnt-v@1.0.0"));
    const [unknown] = validator({ resolveDelegate: () => undefined }).validateSync(
      delegating("agnt-v@1.0.0"),
    );
    expect(noResolver?.message).toMatch(/no delegate resolver/);
    expect(unknown?.message).toMatch(/does not know/);
  });
});
