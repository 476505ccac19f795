/**
 * The readable view a plugin's workflow rule gets (`context.view`): the workflow's facts, its
 * tool calls with what their contracts say, and the flow questions by node id.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWorkflowText } from "../../src/model/index.js";
import type { WorkflowView } from "../../src/policy/index.js";
import { defineRule } from "../../src/rules/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { createValidator } from "../../src/validate/index.js";
import { readWorkflow } from "../../src/validate/view.js";
import { nodeRefsOf } from "../../src/validate/facts.js";
import { importDocument } from "../../src/interop/index.js";
import { isUnstatedModel } from "../../src/model/internal.js";
import { flowGraph } from "../../src/model/index.js";

/** A fixture file read as data (JSON or YAML), as the CLI reads it. */
function parseFixture(file: string): unknown {
  const text = readFileSync(`test/fixtures/${file}`, "utf8");
  return JSON.parse(text) as unknown;
}

describe("the workflow view", () => {
  it("gives the facts, the tool calls with their contracts, and the flow by node id", async () => {
    let view: WorkflowView | undefined;
    const keep = defineRule<RuleContext>({
      meta: {
        code: "KEEP_VIEW",
        defaultSeverity: "info",
        description: "Keeps the view",
        docs: "test",
        messages: { default: "never" },
      },
      check(context) {
        view = context.view;
      },
    });
    const { workflow } = parseWorkflowText(
      readFileSync("examples/registry/credit-risk.agent.json", "utf8"),
    );
    if (workflow === undefined) throw new Error("the example does not parse");
    const bureau = JSON.parse(
      readFileSync("examples/registry/credit-bureau-report.tool.json", "utf8"),
    ) as unknown;
    await createValidator({
      ruleSet: [],
      plugins: { test: { meta: { name: "test", version: "1.0.0" }, rules: { KEEP_VIEW: keep } } },
      resolvers: {
        resolveTool: (ref) => (ref === "tool:credit-bureau-report@2.0.0" ? bureau : undefined),
      },
    }).validate(workflow);
    expect(view?.workflow).toMatchObject({
      id: "agnt-credit-risk",
      version: "1.0.0",
      level: 2,
      justifiedLevel: 2,
      models: ["gpt-4o"],
      budget: { maxSteps: 9, maxTokens: 60000, maxCost: { USD: 2 } },
      delegates: [],
    });
    expect(view?.toolCalls).toEqual([
      {
        ref: "tool:credit-bureau-report@2.0.0",
        id: "credit-bureau-report",
        version: "2.0.0",
        effect: "read",
        authorization: "automatic",
        nodeId: "pull-report",
        path: "/nodes/0/config/usesTool",
      },
    ]);
    expect(view?.next("assess-risk")).toEqual(["report-complete"]);
    expect(view?.next("report-complete")).toEqual(["pull-report"]);
    expect(view?.reachable("report-complete")).toBe(true);
    expect(view?.reachable("nowhere")).toBe(false);
  });
});

describe("readWorkflow", () => {
  it("counts a node's fallback model among the models it may run (it read `model` only)", () => {
    const { workflow } = parseWorkflowText(
      readFileSync("examples/registry/credit-risk.agent.json", "utf8"),
    );
    if (workflow === undefined) throw new Error("the example does not parse");
    const nodes = workflow.nodes.map((node) =>
      node.type === "llm"
        ? { ...node, config: { ...node.config, fallbackModel: "unvetted-model" } }
        : node,
    );
    const facts = readWorkflow({ ...workflow, nodes }, [], () => undefined, null).facts;
    expect(facts.models).toEqual(["gpt-4o", "unvetted-model"]);
    expect(facts.nodes?.filter((n) => n.type === "llm")).toEqual([
      { id: "assess-risk", type: "llm", model: "gpt-4o", fallbackModel: "unvetted-model" },
    ]);
    expect(facts.unread).toEqual([]);
  });
});

// Red team: a LangGraph graph names no model; the import's stand-in passed a model deny-list.
describe("a model an imported document does not state", () => {
  const facts = (file: string) => {
    const detected = importDocument(parseFixture(file));
    if (detected === undefined) throw new Error(`${file} is no known format`);
    const workflow = detected.result.workflow;
    return readWorkflow(workflow, nodeRefsOf(workflow, flowGraph(workflow)), () => undefined, null)
      .facts;
  };

  it.each([
    ["agentos/research-graph-routed.compiled-execution-graph.derived.json", "agentos-host"],
    ["agent2model/travel_booking.flowchart.json", "agent2model:"],
    ["openagentflow/review_loop_ir.generated.json", "runtime-default"],
  ])("%s: its stand-in (%s) is no known model, so models is unknown", (file, standIn) => {
    const read = facts(file);
    expect(read.models).toBeNull();
    const llm = read.nodes?.filter((n) => n.type === "llm") ?? [];
    // Its other llm nodes may name their model (review_loop names gemini on one).
    expect(llm.some((n) => n.model === null)).toBe(true);
    expect(isUnstatedModel(standIn === "agent2model:" ? `${standIn}travel_booking` : standIn)).toBe(
      true,
    );
  });

  it("a LangGraph function node may call any model: models is unknown with no llm node", () => {
    const read = facts("langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json");
    expect(read.models).toBeNull();
    expect(read.nodes?.filter((n) => n.type === "llm")).toEqual([]);
    expect(read.tools?.map((t) => t.ref)).toContain("tool:langgraph.node.agent@0.0.0");
  });

  /** One llm node on gpt-4o, then a tool node on `usesTool`. */
  const withStep = (usesTool: string) =>
    parseWorkflowText(
      JSON.stringify({
        kind: "AgentWorkflow",
        id: "w",
        version: "1.0.0",
        name: "w",
        autonomyLevel: 1,
        inputSchema: {},
        outputSchema: {},
        nodes: [
          { id: "a", type: "llm", config: { model: "gpt-4o", promptRef: "prm:a@1.0.0" } },
          { id: "b", type: "tool", config: { usesTool } },
        ],
        edges: [{ from: "a", to: "b", edgeType: "data" }],
      }),
    ).workflow;

  it.each([
    ["tool:langgraph.node.draft@0.0.0", null],
    ["tool:langgraph.subgraph@0.0.0", null],
    ["tool:agentos.subgraph@1.0.0", null],
    ["tool:search@1.0.0", ["gpt-4o"]],
    ["tool:langgraph.nodes@0.0.0", ["gpt-4o"]],
  ])("a tool on %s: models %j", (usesTool, models) => {
    const workflow = withStep(usesTool);
    if (workflow === undefined) throw new Error("the literal workflow does not parse");
    const read = readWorkflow(
      workflow,
      nodeRefsOf(workflow, flowGraph(workflow)),
      () => undefined,
      null,
    );
    expect(read.facts.models).toEqual(models);
  });

  it("leaves a deny-list undecided, so the workflow is selected", async () => {
    const detected = importDocument(
      parseFixture("langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json"),
    );
    if (detected === undefined) throw new Error("not LangGraph");
    const findings = await createValidator({
      ruleSet: [],
      policies: [
        {
          kind: "PolicyPack",
          name: "p",
          version: "1",
          rules: [
            {
              id: "banned-models",
              severity: "error",
              for: "workflow",
              when: 'some m in models satisfies m in ["gpt-3.5-turbo"]',
            },
          ],
        },
      ],
    }).validate(detected.result.workflow);
    expect(findings.map((f) => [f.code, f.data.reason])).toEqual([
      [
        "p/banned-models",
        "it reads 'models', which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
      ],
    ]);
  });
});
