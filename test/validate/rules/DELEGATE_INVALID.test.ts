import type { AgentWorkflow } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/DELEGATE_INVALID.js";
import { edge, llm, workflow } from "../builders.js";
import { agent, contract, delegating, helper, loopy, sneaky } from "../delegate-fixtures.js";
import { RuleTester } from "../../../src/testing/index.js";

const root = (...to: string[]) =>
  workflow([llm("a"), llm("b")], [edge("a", "b"), ...to.map((t) => edge("a", t, "delegate"))], {
    id: "agnt-a",
    autonomyLevel: 4,
    budget: { maxSteps: 5 },
  });

const clean = agent("agnt-clean", 1);

const TOOLS: Record<string, unknown> = {
  "tool:lookup@1.0.0": contract("tool:lookup", "automatic"),
  "tool:export@1.0.0": contract("tool:export", "forbidden"),
};

const registry = (...docs: AgentWorkflow[]): Resolvers => {
  const byRef = new Map<string, unknown>(docs.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveDelegate: (ref) => byRef.get(ref), resolveTool: (ref) => TOOLS[ref] };
};

const at = (index: number, nodeId = "a") => ({
  code: "DELEGATE_INVALID",
  target: { kind: "node", nodeId } as const,
  path: `/edges/${index}/to`,
});

const LOOP_CODES = [
  "AUTONOMY_INCOHERENT",
  "CYCLE_WITHOUT_STOP",
  "NO_PATH_TO_END",
  "RETRY_WITHOUT_MAX",
];

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no delegates", workflow: workflow([llm("a")], []) },
    {
      name: "a delegate that passes its rules",
      workflow: root("agnt-clean@1.0.0"),
      resolvers: registry(clean),
    },
    {
      name: "a delegate with warnings only (BUDGET_MISSING)",
      workflow: root("agnt-warn@1.0.0"),
      resolvers: registry(workflow([llm("x")], [], { id: "agnt-warn", autonomyLevel: 2 })),
    },
    {
      name: "an unknown delegate is DELEGATE_UNRESOLVED's",
      workflow: root("agnt-gone@1.0.0"),
      resolvers: registry(loopy),
    },
    { name: "no delegate resolver", workflow: root("agnt-loopy@1.0.0") },
    {
      name: "a resolver that throws",
      workflow: root("agnt-loopy@1.0.0"),
      resolvers: {
        resolveDelegate: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "an invalid ref is DELEGATE_REF_INVALID's",
      workflow: root("agnt-loopy"),
      resolvers: registry(loopy),
    },
    {
      name: "a delegation cycle alone is DELEGATE_CYCLE's",
      workflow: root("agnt-p@1.0.0"),
      resolvers: registry(
        delegating("agnt-p", 4, "agnt-q@1.0.0"),
        delegating("agnt-q", 4, "agnt-p@1.0.0"),
      ),
    },
    {
      name: "the workflow is not judged as its own delegate, by the registry's copy",
      workflow: root("agnt-a@1.0.0"),
      resolvers: registry({ ...loopy, id: "agnt-a" }),
    },
    {
      name: "at warning, a delegate whose only error would be this rule's passes",
      workflow: root("agnt-mid@1.0.0"),
      resolvers: registry(delegating("agnt-mid", 4, "agnt-loopy@1.0.0"), loopy),
      severity: "warning",
    },
  ],
  invalid: [
    {
      name: "a delegate that loops forever while declaring level 1",
      workflow: root("agnt-loopy@1.0.0"),
      resolvers: registry(loopy),
      errors: [
        {
          ...at(1),
          messageId: "default",
          message:
            'node "a" delegates to "agnt-loopy@1.0.0", which fails its own rules: 4 error(s) (AUTONOMY_INCOHERENT, CYCLE_WITHOUT_STOP, NO_PATH_TO_END, RETRY_WITHOUT_MAX)',
          data: {
            nodeId: "a",
            index: 1,
            ref: "agnt-loopy@1.0.0",
            delegate: "agnt-loopy@1.0.0",
            codes: LOOP_CODES,
            errors: 4,
            failing: "agnt-loopy@1.0.0",
            failingCodes: LOOP_CODES,
            depth: 0,
          },
        },
      ],
    },
    {
      name: "a dynamic planner that declares level 1",
      workflow: root("agnt-sneaky@1.0.0"),
      resolvers: registry(sneaky),
      errors: [{ ...at(1), data: { codes: ["AUTONOMY_INCOHERENT"], errors: 1, depth: 0 } }],
    },
    {
      name: "a delegate that calls a forbidden tool",
      workflow: root("agnt-helper@1.0.0"),
      resolvers: registry(helper),
      errors: [{ ...at(1), data: { codes: ["TOOL_FORBIDDEN"], errors: 1 } }],
    },
    {
      name: "a grand-delegate that fails: the delegate fails by this rule",
      workflow: root("agnt-mid@1.0.0"),
      resolvers: registry(delegating("agnt-mid", 4, "agnt-loopy@1.0.0"), loopy),
      errors: [
        {
          ...at(1),
          messageId: "chain",
          message:
            'node "a" delegates to "agnt-mid@1.0.0", which fails its own rules through its delegates: "agnt-loopy@1.0.0", 1 delegation(s) down, fails AUTONOMY_INCOHERENT, CYCLE_WITHOUT_STOP, NO_PATH_TO_END, RETRY_WITHOUT_MAX',
          data: {
            delegate: "agnt-mid@1.0.0",
            codes: ["DELEGATE_INVALID"],
            errors: 1,
            failing: "agnt-loopy@1.0.0",
            failingCodes: LOOP_CODES,
            depth: 1,
          },
        },
      ],
    },
    {
      name: "three levels down, the nearest failing workflow is named",
      workflow: root("agnt-top@1.0.0"),
      resolvers: registry(
        delegating("agnt-top", 4, "agnt-mid@1.0.0"),
        delegating("agnt-mid", 4, "agnt-helper@1.0.0"),
        helper,
      ),
      errors: [
        {
          ...at(1),
          messageId: "chain",
          data: { codes: ["DELEGATE_INVALID"], failing: "agnt-helper@1.0.0", depth: 2 },
        },
      ],
    },
    {
      name: "a delegate failing by its own rules and through its delegate",
      workflow: root("agnt-both@1.0.0"),
      resolvers: registry(delegating("agnt-both", 1, "agnt-loopy@1.0.0"), loopy),
      errors: [
        {
          ...at(1),
          messageId: "default",
          data: {
            codes: ["AUTONOMY_INCOHERENT", "DELEGATE_INVALID"],
            errors: 2,
            failing: "agnt-both@1.0.0",
            failingCodes: ["AUTONOMY_INCOHERENT"],
            depth: 0,
          },
        },
      ],
    },
    {
      name: "a cycle whose member fails: each workflow upstream of it fails",
      workflow: root("agnt-p@1.0.0"),
      resolvers: registry(
        delegating("agnt-p", 4, "agnt-q@1.0.0"),
        delegating("agnt-q", 1, "agnt-p@1.0.0"),
      ),
      errors: [
        {
          ...at(1),
          data: {
            codes: ["DELEGATE_INVALID"],
            failing: "agnt-q@1.0.0",
            failingCodes: ["AUTONOMY_CHAIN", "AUTONOMY_INCOHERENT"],
            depth: 1,
          },
        },
      ],
    },
    {
      name: "async resolvers, each failing edge in document order",
      workflow: workflow(
        [llm("a"), llm("b")],
        [
          edge("a", "b"),
          edge("a", "agnt-sneaky@1.0.0", "delegate"),
          edge("b", "agnt-clean@1.0.0", "delegate"),
          edge("b", "agnt-helper@1.0.0", "delegate"),
          edge("b", "agnt-sneaky@1.0.0", "delegate"),
        ],
        { id: "agnt-a", autonomyLevel: 4, budget: { maxSteps: 5 } },
      ),
      resolvers: {
        resolveDelegate: (ref) =>
          Promise.resolve(
            (
              {
                "agnt-sneaky@1.0.0": sneaky,
                "agnt-clean@1.0.0": clean,
                "agnt-helper@1.0.0": helper,
              } as Record<string, unknown>
            )[ref],
          ),
        resolveTool: (ref) => Promise.resolve(TOOLS[ref]),
      },
      errors: [
        { ...at(1), data: { delegate: "agnt-sneaky@1.0.0", codes: ["AUTONOMY_INCOHERENT"] } },
        { ...at(3, "b"), data: { delegate: "agnt-helper@1.0.0", codes: ["TOOL_FORBIDDEN"] } },
        { ...at(4, "b"), data: { delegate: "agnt-sneaky@1.0.0", codes: ["AUTONOMY_INCOHERENT"] } },
      ],
    },
    {
      name: "at warning, a delegate failing its own rules is still named",
      workflow: root("agnt-helper@1.0.0"),
      resolvers: registry(helper),
      severity: "warning",
      errors: [{ ...at(1), severity: "warning", data: { codes: ["TOOL_FORBIDDEN"] } }],
    },
  ],
});
