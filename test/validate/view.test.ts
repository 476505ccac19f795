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
