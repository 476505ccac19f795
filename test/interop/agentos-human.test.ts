/**
 * AgentOS human nodes that decide without a person. Built with AgentOS's own `humanNode` builder
 * (`@framers/agentos` 0.9.164) and compiled to its IR: a node that can approve by itself
 * (`autoAccept`, an LLM `judge`, `onTimeout: "accept"`) is not the human approval
 * `agentos.human`, so no contract written for a person's approval can stand for it, and neither
 * the level nor the gate a level requires moves because of it.
 */
import { AgentGraph, humanNode, toolNode } from "@framers/agentos/orchestration/builders/index";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assessAutonomy, requiresDownstreamGate } from "../../src/autonomy/index.js";
import { importAgentOs } from "../../src/interop/agentos/index.js";
import type { ImportResult } from "../../src/interop/index.js";

type HumanConfig = Parameters<typeof humanNode>[0];

const state = {
  input: z.object({ offer: z.string() }),
  scratch: z.object({}),
  artifacts: z.object({ sent: z.boolean() }),
};

/** `approve` (the human node under test) → `send` (a tool), compiled and written as JSON. */
function approveThenSend(config: HumanConfig): ImportResult {
  const ir = new AgentGraph(state)
    .addNode("approve", humanNode(config))
    .addNode("send", toolNode("send_offer"))
    .addEdge("__START__", "approve")
    .addEdge("approve", "send")
    .addEdge("send", "__END__")
    .compile()
    .toIR();
  return importAgentOs(JSON.parse(JSON.stringify(ir)));
}

function approveNode(r: ImportResult): unknown {
  return r.workflow.nodes.find((n) => n.id === "approve")?.config;
}

const prompt = "Send the offer?";

describe("a human node that can approve without a person", () => {
  it.each<[string, HumanConfig, Record<string, unknown>, string[]]>([
    ["autoAccept", { prompt, autoAccept: true }, { autoAccept: true }, ["auto-accept"]],
    [
      "an LLM judge",
      { prompt, judge: { criteria: "Is it safe?", confidenceThreshold: 0.9 } },
      { judge: { criteria: "Is it safe?", confidenceThreshold: 0.9 } },
      ["llm-judge"],
    ],
    [
      'onTimeout: "accept"',
      { prompt, onTimeout: "accept", timeout: 60_000 },
      { onTimeout: "accept" },
      ["timeout-accept"],
    ],
    [
      "a judge and an accepting timeout",
      { prompt, judge: {}, onTimeout: "accept" },
      { judge: {}, onTimeout: "accept" },
      ["llm-judge", "timeout-accept"],
    ],
  ])("%s: its own tool, agentos.auto-approval, declared", (_what, config, params, decidedBy) => {
    const r = approveThenSend(config);
    expect(approveNode(r)).toStrictEqual({
      usesTool: "tool:agentos.auto-approval@1.0.0",
      params: { prompt, ...params },
    });
    const note = r.warnings.find((w) => w.path === "/nodes/0/type");
    expect(note).toMatchObject({
      code: "HEURISTIC",
      data: { nodeId: "approve", assumed: "tool:agentos.auto-approval@1.0.0", decidedBy },
    });
    expect(note?.message).toContain("no human oversight");
  });

  it("autoAccept wins over a judge, as in AgentOS's runtime; the judge left is declared", () => {
    const r = approveThenSend({ prompt, autoAccept: true, judge: { criteria: "x" } });
    expect(approveNode(r)).toStrictEqual({
      usesTool: "tool:agentos.auto-approval@1.0.0",
      params: { prompt, autoAccept: true },
    });
    expect(r.warnings.find((w) => w.path === "/nodes/0/executorConfig/judge")?.code).toBe(
      "FIELD_DROPPED",
    );
  });

  it("autoReject: no person decides either, so not agentos.human: agentos.auto-rejection", () => {
    const r = approveThenSend({ prompt, autoReject: "offers are closed" });
    expect(approveNode(r)).toStrictEqual({
      usesTool: "tool:agentos.auto-rejection@1.0.0",
      params: { prompt, autoReject: "offers are closed" },
    });
    expect(r.warnings.find((w) => w.path === "/nodes/0/type")?.data).toMatchObject({
      decidedBy: ["auto-reject"],
    });
  });
});

describe("a human node where a person decides", () => {
  it.each<[string, HumanConfig]>([
    ["no automation", { prompt }],
    ['onTimeout: "reject"', { prompt, onTimeout: "reject", timeout: 1000 }],
    ["automation switched off", { prompt, autoAccept: false, autoReject: false }],
  ])("%s: the human approval agentos.human", (_what, config) => {
    const r = approveThenSend(config);
    expect(approveNode(r)).toStrictEqual({
      usesTool: "tool:agentos.human@1.0.0",
      params: { prompt },
    });
  });
});

describe("neither the level nor the gate it asks for rests on a self-approval", () => {
  it("the same graph with an auto-approval and with a person: same level, a gate still required", () => {
    const auto = approveThenSend({ prompt, autoAccept: true }).workflow;
    const person = approveThenSend({ prompt }).workflow;
    expect(assessAutonomy(auto)).toStrictEqual(assessAutonomy(person));
    expect(requiresDownstreamGate(auto.autonomyLevel)).toBe(true);
    // the two are told apart by the contract they name: a registry answers each on its own
    const refs = (wf: typeof auto): string[] =>
      wf.nodes.flatMap((n) => (n.type === "tool" ? [n.config.usesTool] : []));
    expect(refs(auto)).toEqual(["tool:agentos.auto-approval@1.0.0", "tool:send_offer@1.0.0"]);
    expect(refs(person)).toEqual(["tool:agentos.human@1.0.0", "tool:send_offer@1.0.0"]);
  });
});
