/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The bpmn-js module marks each tool of a Camunda agent read from the BPMN by its effect (issue
 * 39, item 6): `toolMarks` from the library's decision, drawn with `data-agentflow-effect`, and
 * the agent's badge with its derived level.
 */
import { describe, expect, it } from "vitest";
import { evaluateGates, readProcess } from "../../src/bpmn/index.js";
import { taskBadges, toolMarks } from "../../src/bpmn-js/index.js";
import { toolMarkElement } from "../../src/bpmn-js/draw.js";
import { fixture } from "../bpmn/camunda/fixtures.js";

async function decisionOf(name: string, toolEffects = {}) {
  const { definitions } = await readProcess(fixture(name));
  if (definitions === undefined) throw new Error("the fixture must parse");
  return evaluateGates(definitions, { toolEffects });
}

describe("the bpmn-js module on a Camunda agent", () => {
  it("badges the agent with its derived level", async () => {
    const decision = await decisionOf("subprocess-v4-gateways.bpmn");
    expect(taskBadges(decision).map((b) => [b.elementId, b.level, b.text])).toEqual([
      ["Agent", "4", "L4 · gate optional"],
    ]);
    const unbounded = await decisionOf("task-v7-unbounded.bpmn");
    expect(taskBadges(unbounded)[0]?.text).toBe("L3 · gate missing");
  });

  it("marks each tool by its effect, unknown as needing a mapping", async () => {
    const decision = await decisionOf("subprocess-v11-refund.bpmn");
    expect(toolMarks(decision).map((m) => [m.elementId, m.agentId, m.effect, m.source])).toEqual([
      ["LookupOrder", "Agent", "read", "default"],
      ["RefundPayment", "Agent", "write-irreversible", "default"],
      ["NotifyCustomer", "Agent", "notify", "default"],
      ["ApproveRefund", "Agent", "read", "default"],
      ["CheckFraud", "Agent", "unknown", "unknown"],
      ["ArchiveCase", "Agent", "write-reversible", "btv"],
      ["LegacyCheck", "Agent", "unknown", "unknown"],
    ]);
    const mapped = await decisionOf("subprocess-v11-refund.bpmn", { "acme:fraud-score:1": "read" });
    expect(toolMarks(mapped).find((m) => m.elementId === "CheckFraud")).toMatchObject({
      effect: "read",
      source: "config",
      text: "read",
    });
  });

  it("draws the mark with its data attributes and effect class", async () => {
    const decision = await decisionOf("subprocess-v11-refund.bpmn");
    const fraud = toolMarks(decision).find((m) => m.elementId === "CheckFraud");
    if (fraud === undefined) throw new Error("CheckFraud is a tool");
    const el = toolMarkElement(document, fraud);
    expect(el.className).toBe("agentflow-effect agentflow-effect-unknown");
    expect(el.getAttribute("data-agentflow-effect")).toBe("unknown");
    expect(el.getAttribute("data-agentflow-effect-source")).toBe("unknown");
    expect(el.getAttribute("data-agentflow-agent")).toBe("Agent");
    expect(el.textContent).toBe("unknown · map it");
  });
});
