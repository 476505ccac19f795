/**
 * What the process view says when the BPMN or the registry does not say it (red team): a fact
 * that could not be read is unknown — null, listed in `unread` where null would mean "none" —
 * never an empty list or "not stated"; every model a node may run is a model; a Camunda agent's
 * workflow is a subject; an element that declares two agents is judged as neither.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ProcessCheck } from "../../../src/bpmn/index.js";
import { viewOf } from "./view-of.js";

/** `code: reason or assumption` of every finding of a pack's rules. */
function packFindings(check: ProcessCheck, pack: string): string[] {
  return [...check.blocking, ...check.warnings]
    .filter((d) => d.code.startsWith(`${pack}/`))
    .map((d) => {
      const why = d.data.reason ?? d.data.assumption;
      return `${d.code}${typeof why === "string" ? `: ${why}` : ""}`;
    });
}

const rule = (id: string, subject: string, when: string) => ({
  id,
  severity: "error",
  for: subject,
  when,
});

const UNKNOWN = {
  tools:
    "it reads 'tools', which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)",
  models:
    "it reads 'models', which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
  budget: "it reads 'budget', which is unknown because the agent's workflow could not be read",
  maxSteps:
    "it reads 'maxSteps', which is unknown because it is a Camunda limit written as a FEEL expression, known only when the process runs",
};

describe("a Camunda AI agent", () => {
  const SUPPORT = readFileSync("test/fixtures/camunda/task-v11-support.bpmn", "utf8");
  const PACK = {
    kind: "PolicyPack",
    name: "bank",
    version: "1",
    rules: [
      rule("approved-models", "workflow", 'some m in models satisfies not(m in ["gpt-4o"])'),
      rule("task-models", "agentTask", 'some m in models satisfies not(m in ["gpt-4o"])'),
      rule("tools", "agentTask", "count(tools) > 0"),
      rule("steps", "agentTask", "budget.maxSteps = null or budget.maxSteps > 20"),
    ],
  };

  it("has its derived workflow as a subject: a workflow rule judges it (it skipped it)", async () => {
    const { view, check } = await viewOf(SUPPORT, { policies: [PACK] });
    expect(
      view.workflows.map((w) => [w.place.elementId, `${w.id}@${w.version}`, w.models]),
    ).toEqual([["Agent", "camunda.Agent@1.0.0", ["claude-sonnet-4-6"]]]);
    const [workflow] = view.workflows;
    expect(workflow?.tools?.map((t) => t.id)).toEqual(view.agentTasks[0]?.tools?.map((t) => t.id));
    expect(workflow?.budget).toEqual({
      maxSteps: 10,
      maxTokens: 2048,
      maxWallTimeMs: null,
      maxCost: {},
    });
    expect(workflow?.unread).toEqual([]);
    expect(packFindings(check, "bank")).toEqual([
      "bank/approved-models",
      "bank/task-models",
      "bank/tools",
    ]);
  });

  it.each([
    ["a FEEL expression", 'source="=modelName" target="provider.anthropic.model.model"'],
    ["no model binding", ""],
  ])("whose model is %s runs an unknown model, not none", async (_, binding) => {
    const xml = SUPPORT.replace(
      'source="claude-sonnet-4-6" target="provider.anthropic.model.model"',
      binding,
    );
    const { view, check } = await viewOf(xml, { policies: [PACK] });
    expect(view.agentTasks[0]?.models).toBeNull();
    expect(view.workflows[0]?.models).toBeNull();
    expect(view.workflows[0]?.nodes?.find((n) => n.type === "llm")?.model).toBeNull();
    expect(packFindings(check, "bank").slice(0, 2)).toEqual([
      `bank/approved-models: ${UNKNOWN.models}`,
      `bank/task-models: ${UNKNOWN.models}`,
    ]);
  });

  it("whose model is a FEEL string literal runs that model", async () => {
    const xml = SUPPORT.replace('source="claude-sonnet-4-6"', 'source="=&#34;gpt-4o&#34;"');
    const { view } = await viewOf(xml);
    expect(view.agentTasks[0]?.models).toEqual(["gpt-4o"]);
  });

  it("whose tool container cannot be found calls unknown tools, not none", async () => {
    const xml = SUPPORT.replace('source="Tools" target', 'source="NoSuchContainer" target');
    const { view, check } = await viewOf(xml, { policies: [PACK] });
    expect(view.agentTasks[0]?.tools).toBeNull();
    expect(view.workflows[0]?.tools).toBeNull();
    // Each agent whose tools are unknown has one tool subject of unknown identity, so that a
    // `tool` rule is undecided on it rather than skipped (view/workflows.ts).
    expect(view.tools.map((t) => [t.place.elementId, t.ref, t.id, t.effect])).toEqual([
      ["Agent", null, null, null],
      ["Tools", null, null, null],
    ]);
    expect(packFindings(check, "bank")).toContain(`bank/tools: ${UNKNOWN.tools}`);
  });

  it("with no tool container at all calls no tools", async () => {
    const xml = readFileSync("test/fixtures/camunda/task-v4-no-tools.bpmn", "utf8");
    const { view } = await viewOf(xml);
    expect(view.agentTasks[0]?.tools).toEqual([]);
  });

  it("the BPMN says nothing of (external, A2A client) runs an unknown workflow, a subject still", async () => {
    // The research agent without the btv ref that names its workflow: nothing says what it runs.
    const xml = readFileSync("test/fixtures/camunda/external-agents.bpmn", "utf8").replace(
      '<btv:agentTask agentWorkflowRef="agnt-react@1.2.0" />',
      "",
    );
    const { view, check } = await viewOf(xml, { policies: [PACK] });
    expect(
      view.workflows.map((w) => [w.place.elementId, `${w.id}@${w.version}`, w.models]),
    ).toEqual([
      ["ResearchAgent", "camunda.ResearchAgent@1.0.0", null],
      ["PartnerAgent", "catalog-enrichment@1.4.2", null],
      ["TriageAgent", "agnt-triage@2.0.0", null],
    ]);
    expect(packFindings(check, "bank").filter((f) => f.startsWith("bank/approved-models"))).toEqual(
      [
        `bank/approved-models: ${UNKNOWN.models}`,
        `bank/approved-models: ${UNKNOWN.models}`,
        `bank/approved-models: ${UNKNOWN.models}`,
      ],
    );
  });

  it("whose maxModelCalls is a FEEL expression has an unknown step limit, not none", async () => {
    const xml = SUPPORT.replace(
      'source="=10" target="data.limits.maxModelCalls"',
      'source="=limit" target="data.limits.maxModelCalls"',
    );
    const { view, check } = await viewOf(xml, { policies: [PACK] });
    expect(view.agentTasks[0]?.budget?.maxSteps).toBeNull();
    expect(view.agentTasks[0]?.unread).toEqual(["budget.maxSteps"]);
    expect(view.workflows[0]?.unread).toEqual(["budget.maxSteps"]);
    expect(packFindings(check, "bank")).toContain(`bank/steps: ${UNKNOWN.maxSteps}`);
  });
});

describe("a btv agent task", () => {
  const DIR = "test/fixtures/fail-closed/";
  const XML = readFileSync(`${DIR}contract-signing.bpmn`, "utf8");
  type Doc = Record<string, unknown> & { nodes: Record<string, unknown>[] };
  const doc = (name: string): Doc =>
    JSON.parse(readFileSync(`${DIR}registry/${name}`, "utf8")) as Doc;
  const SIGNER = doc("contract-signer.agent.json");
  const CHECKER = doc("terms-checker.agent.json");
  const SIGN = doc("sign-contract.tool.json");
  const registry = (docs: Record<string, unknown>) => ({
    resolveWorkflow: (ref: string) => docs[ref],
    resolveTool: (ref: string) => docs[ref],
  });
  const KNOWN = {
    "agnt-contract-signer@1.0.0": SIGNER,
    "agnt-terms-checker@1.0.0": CHECKER,
    "tool:sign-contract@1.0.0": SIGN,
  };

  it("runs its nodes' fallback models too: each is in models", async () => {
    const [draft, ...rest] = SIGNER.nodes;
    const config = { ...(draft?.config as object), fallbackModel: "unvetted-model" };
    const signer = { ...SIGNER, nodes: [{ ...draft, config }, ...rest] };
    const { view } = await viewOf(
      XML,
      registry({ ...KNOWN, "agnt-contract-signer@1.0.0": signer }),
    );
    expect(view.agentTasks[0]?.models).toEqual(["gpt-4o", "unvetted-model"]);
    const [workflow] = view.workflows;
    expect(workflow?.models).toEqual(["gpt-4o", "unvetted-model"]);
    expect(workflow?.nodes?.[0]).toEqual({
      id: "draft",
      type: "llm",
      model: "gpt-4o",
      fallbackModel: "unvetted-model",
    });
  });

  it("runs its delegates' fallback models too", async () => {
    const [compare, ...rest] = CHECKER.nodes;
    const config = { ...(compare?.config as object), fallbackModel: "cheap-model" };
    const checker = { ...CHECKER, nodes: [{ ...compare, config }, ...rest] };
    const { view } = await viewOf(XML, registry({ ...KNOWN, "agnt-terms-checker@1.0.0": checker }));
    expect(view.agentTasks[0]?.models).toEqual(["gpt-4o", "cheap-model"]);
  });

  it("whose workflow cannot be read has an unknown budget, and an unknown workflow subject", async () => {
    const pack = {
      kind: "PolicyPack",
      name: "t",
      version: "1",
      rules: [
        rule("cost", "agentTask", "budget != null and budget.maxCost.USD > 0.5"),
        rule("no-budget", "agentTask", "budget = null"),
        rule("models", "workflow", 'some m in models satisfies m != "gpt-4o"'),
        rule("levels", "workflow", "level >= 4"),
      ],
    };
    const { view, check } = await viewOf(XML, { ...registry({}), policies: [pack] });
    expect(view.agentTasks[0]).toMatchObject({ budget: null, unread: ["budget"] });
    expect(view.workflows).toEqual([
      {
        id: "agnt-contract-signer",
        version: "1.0.0",
        name: null,
        level: null,
        justifiedLevel: null,
        nodes: null,
        tools: null,
        models: null,
        budget: null,
        delegates: null,
        unread: ["name", "budget"],
        place: { elementId: "SignContract", path: "/rootElements/0/flowElements/1" },
      },
    ]);
    expect(packFindings(check, "t")).toEqual([
      `t/cost: ${UNKNOWN.budget}`,
      `t/no-budget: ${UNKNOWN.budget}`,
      `t/models: ${UNKNOWN.models}`,
      "t/levels: level = 4",
    ]);
  });

  it("that declares two agents is judged as neither, never as the first alone", async () => {
    const two = XML.replace(
      '<btv:agentTask agentWorkflowRef="agnt-contract-signer@1.0.0" autonomyLevel="4" />',
      '<btv:agentTask agentWorkflowRef="agnt-terms-checker@1.0.0" autonomyLevel="1" /><btv:agentTask agentWorkflowRef="agnt-contract-signer@1.0.0" autonomyLevel="5" />',
    );
    const pack = {
      kind: "PolicyPack",
      name: "t",
      version: "1",
      rules: [
        rule("high", "agentTask", "level >= 4"),
        rule("declared-high", "agentTask", "declaredLevel != null and declaredLevel >= 4"),
        rule("commits", "agentTask", 'some t in tools satisfies t.effect = "external-commitment"'),
      ],
    };
    const { view, check } = await viewOf(two, { ...registry(KNOWN), policies: [pack] });
    expect(view.agentTasks[0]).toMatchObject({
      ref: "agnt-terms-checker@1.0.0 | agnt-contract-signer@1.0.0",
      level: null,
      declaredLevel: null,
      declaredLevelText: "1 | 5",
      tools: null,
      models: null,
      budget: null,
      unread: ["budget"],
    });
    // Both workflows are subjects, neither read.
    expect(view.workflows.map((w) => `${w.id}@${w.version}`)).toEqual([
      "agnt-terms-checker@1.0.0",
      "agnt-contract-signer@1.0.0",
    ]);
    expect(packFindings(check, "t")).toEqual([
      "t/high: level = 4",
      "t/declared-high: declaredLevel = 4",
      `t/commits: ${UNKNOWN.tools}`,
    ]);
    expect(check.blocking.map((d) => d.code)).toContain("AGENT_REF_CONFLICT");
  });
});
