/**
 * The readable view a plugin's process rule gets (`context.view`): the fact model's subjects
 * built from a real process with lanes and DI, and the flow questions, answered by element id.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import { gateOptions } from "../../../src/cli/gate-options.js";
import { loadFolderRegistry } from "../../../src/cli/registry.js";
import type { ProcessView } from "../../../src/policy/index.js";
import { defineRule } from "../../../src/rules/index.js";

let view: ProcessView | undefined;

/** A rule that reports nothing and keeps the view it was given. */
const keep = defineRule<BpmnRuleContext>({
  meta: {
    code: "KEEP_VIEW",
    scope: "process",
    defaultSeverity: "info",
    description: "Keeps the view",
    docs: "test",
    messages: { default: "never" },
  },
  check(context) {
    view = context.view;
  },
});

beforeAll(async () => {
  const registry = await loadFolderRegistry(
    ["examples/registry", "examples/policies/tests/registry"],
    "--registry",
  );
  const xml = readFileSync("examples/policies/tests/loan-lanes.bpmn", "utf8");
  await checkProcess(xml, {
    ...gateOptions(registry),
    plugins: { test: { meta: { name: "test", version: "1.0.0" }, rules: { KEEP_VIEW: keep } } },
  });
});

describe("the process view", () => {
  it("gives each agent task its process, element, lane, tools and the gates after it", () => {
    const offer = view?.agentTasks.find((t) => t.element.id === "DraftAndSendOffer");
    expect(offer).toMatchObject({
      process: { id: "LoanOrigination" },
      element: { id: "DraftAndSendOffer", name: "Draft and send offer", type: "bpmn:ServiceTask" },
      lane: { id: "Lane_CreditOfficer", name: "credit-officer" },
      camunda: false,
      gateStatus: "reached",
      place: { elementId: "DraftAndSendOffer" },
    });
    expect(offer?.tools?.map((t) => [t.ref, t.effect])).toEqual([
      ["tool:send-loan-offer@1.1.0", "external-commitment"],
    ]);
    expect(offer?.gates.map((g) => [g.id, g.role])).toEqual([
      ["CreditOfficerSignOff", "credit-officer"],
      ["ComplianceSignOff", "compliance-officer"],
    ]);
    const risk = view?.agentTasks.find((t) => t.element.id === "AssessCreditRisk");
    expect(risk?.lane).toEqual({ id: "Lane_RiskAnalyst", name: "risk-analyst" });
    expect(risk?.level).toBe(2);
  });

  it("gives the process its agent tasks and gates, and each agent's workflow", () => {
    expect(view?.processes.map((p) => [p.id, p.agentTasks.length, p.gates.length])).toEqual([
      ["LoanOrigination", 2, 4],
    ]);
    expect(view?.workflows.map((w) => [w.place.elementId, w.id, w.models])).toEqual([
      ["AssessCreditRisk", "agnt-credit-risk", ["gpt-4o"]],
      ["DraftAndSendOffer", "agnt-offer-sender", expect.any(Array)],
    ]);
  });

  it("answers the flow by element id", () => {
    expect(view?.next("RiskBand")).toEqual(["UnderwriterReview", "SeniorReview"]);
    expect(view?.next("NoSuchElement")).toEqual([]);
    expect(view?.reaches("AssessCreditRisk", "OfferSent")).toBe(true);
    expect(view?.reaches("OfferSent", "AssessCreditRisk")).toBe(false);
    expect(view?.checkGatePath("DraftAndSendOffer", { distinctRoles: 2 })).toEqual({
      holds: true,
    });
    expect(view?.checkGatePath("RiskBand", { min: 1 })).toMatchObject({
      holds: false,
      failed: "undecidable",
    });
  });
});
