/**
 * A node's `model` and `fallbackModel` beside its workflow's `models`: where `models` is unknown
 * (an importer's stand-in name, an unread Camunda binding, a step that may call any model), a
 * node's null model cannot be told from a model no one named, so a rule that reads it is
 * undecided, as one that reads `models` is; beside a known `models`, a null is "none", data.
 */
import { describe, expect, it } from "vitest";
import type { NodeFacts, WorkflowFacts } from "../../src/policy/index.js";
import { onePack, runWorkflow, workflow, workflowView } from "./helpers.js";

const MODEL_REASON =
  "which is unknown for a node of a workflow whose 'models' is unknown (a model not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)";

const llm = (id: string, model: string | null, fallbackModel: string | null = null): NodeFacts => ({
  id,
  type: "llm",
  model,
  fallbackModel,
});
const step = (id: string, type: "tool" | "decision"): NodeFacts => ({
  id,
  type,
  model: null,
  fallbackModel: null,
});

/** What a one-rule `workflow` pack with `when` gives on `facts`: message id and reason. */
function verdicts(when: string, facts: Partial<WorkflowFacts>): [string, unknown][] {
  const findings = runWorkflow(
    onePack({ for: "workflow", when }),
    workflowView(workflow("w", facts)),
  );
  return findings.map((f) => [f.messageId, f.data.reason]);
}

const DENY_NODES = 'some n in nodes satisfies n.model in ["gpt-3.5-turbo"]';
const DENY_FALLBACK = 'some n in nodes satisfies n.fallbackModel in ["gpt-3.5-turbo"]';

describe("a node's model where the workflow's models is unknown", () => {
  const cases: {
    name: string;
    when: string;
    facts: Partial<WorkflowFacts>;
    expected: [string, unknown][];
  }[] = [
    {
      name: "an llm node on a stand-in name: a deny-list over nodes is undecided",
      when: DENY_NODES,
      facts: { nodes: [llm("agent", null)], models: null },
      expected: [["undecided", `it reads 'model', ${MODEL_REASON}`]],
    },
    {
      name: "a step that may call any model beside a named one: undecided",
      when: DENY_NODES,
      facts: { nodes: [llm("draft", "gpt-4o"), step("fn", "tool")], models: null },
      expected: [["undecided", `it reads 'model', ${MODEL_REASON}`]],
    },
    {
      name: "a fallback no one named: a deny-list over fallbacks is undecided",
      when: DENY_FALLBACK,
      facts: { nodes: [llm("draft", "gpt-4o", null)], models: null },
      expected: [["undecided", `it reads 'fallbackModel', ${MODEL_REASON}`]],
    },
    {
      name: "asking whether a node's model is null is undecided too",
      when: "some n in nodes satisfies n.model = null",
      facts: { nodes: [llm("agent", null)], models: null },
      expected: [["undecided", `it reads 'model', ${MODEL_REASON}`]],
    },
  ];
  it("is undecided for a rule that reads it", () => {
    expect(cases.map((c) => [c.name, verdicts(c.when, c.facts)])).toEqual(
      cases.map((c) => [c.name, c.expected]),
    );
  });

  it("keeps the node's model null in the finding's data", () => {
    const findings = runWorkflow(
      onePack({ for: "workflow", when: DENY_NODES }),
      workflowView(workflow("w", { nodes: [llm("agent", null)], models: null })),
    );
    expect(findings.map((f) => [f.messageId, f.data.nodes, f.data.models])).toEqual([
      ["undecided", [{ id: "agent", type: "llm", model: null, fallbackModel: null }], null],
    ]);
  });
});

describe("a node's model beside a known models list is data", () => {
  // Each table mixes what the fix changes with what it must not: the fix is not a blanket one.
  const cases: {
    name: string;
    when: string;
    facts: Partial<WorkflowFacts>;
    expected: [string, unknown][];
  }[] = [
    {
      name: "a deny-list over nodes passes a workflow that names no denied model",
      when: DENY_NODES,
      facts: { nodes: [llm("draft", "gpt-4o"), step("pay", "tool")], models: ["gpt-4o"] },
      expected: [],
    },
    {
      name: "and finds one that does",
      when: DENY_NODES,
      facts: { nodes: [llm("draft", "gpt-3.5-turbo")], models: ["gpt-3.5-turbo"] },
      expected: [["default", undefined]],
    },
    {
      name: "a null fallback is no fallback",
      when: 'some n in nodes satisfies n.type = "llm" and n.fallbackModel = null',
      facts: { nodes: [llm("draft", "gpt-4o")], models: ["gpt-4o"] },
      expected: [["default", undefined]],
    },
    {
      name: "an unknown model beside it: undecided, where a known one decided",
      when: DENY_NODES,
      facts: { nodes: [llm("draft", "gpt-4o"), llm("agent", null)], models: null },
      expected: [["undecided", `it reads 'model', ${MODEL_REASON}`]],
    },
    {
      name: "a deny-list over models names 'models' as the reason, not a node's model",
      when: 'list contains(models, "gpt-3.5-turbo")',
      facts: { nodes: [llm("agent", null)], models: null },
      expected: [
        [
          "undecided",
          "it reads 'models', which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
        ],
      ],
    },
    {
      name: "a rule that reads no model is decided even where models is unknown",
      when: 'count(nodes[type = "llm"]) > 0',
      facts: { nodes: [llm("agent", null)], models: null },
      expected: [["default", undefined]],
    },
  ];
  it("is judged as it is, and a rule that reads no model is decided", () => {
    expect(cases.map((c) => [c.name, verdicts(c.when, c.facts)])).toEqual(
      cases.map((c) => [c.name, c.expected]),
    );
  });
});
