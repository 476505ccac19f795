/**
 * Issue 5's acceptance cases that cut across formats: agent2model's largest flowchart keeps all
 * its terminals and passes its invariants (a broken copy fails two of them), and the templates
 * survive a LangGraph-subset round trip except for the losses the export declares.
 */
import { describe, expect, it } from "vitest";
import {
  checkAgent2ModelInvariants,
  exportLangGraph,
  importDocument,
  importLangGraph,
} from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate } from "../../src/model/index.js";
import { readFixture } from "./helpers.js";

const INSURANCE = "agent2model/insurance_claims.flowchart.yaml";

describe("agent2model insurance_claims", () => {
  it("imports 59 flowchart nodes: 51 workflow nodes, and all 8 terminals kept with their outcome", () => {
    const doc = readFixture(INSURANCE) as { nodes: Record<string, { terminal?: string }> };
    expect(Object.keys(doc.nodes)).toHaveLength(59);
    const imported = importDocument(doc);
    expect(imported?.format.id).toBe("agent2model");
    const wf = imported?.result.workflow;
    expect(wf?.nodes).toHaveLength(51);
    const terminals = (
      wf?.metadata?.agent2model as { terminals: { id: string; outcome: string }[] }
    ).terminals;
    expect(terminals.map((t) => t.outcome)).toEqual([
      "success",
      "success",
      "abandonment",
      "abandonment",
      "escalation",
      "escalation",
      "escalation",
      "escalation",
    ]);
    expect(terminals.map((t) => doc.nodes[t.id]?.terminal)).toEqual(
      terminals.map((t) => t.outcome),
    );
    expect(checkAgent2ModelInvariants(doc)).toEqual([]);
  });

  it("a broken copy (a dangling target, a trap cycle) reports both", () => {
    const doc = structuredClone(readFixture(INSURANCE)) as {
      nodes: Record<string, Record<string, unknown>>;
    };
    // The start now leads into a two-node cycle with no way out, and another node points nowhere.
    doc.nodes.greet = { ...doc.nodes.greet, next: ["loop_a"] };
    doc.nodes.loop_a = { role: "agent", prompt: "a", next: ["loop_b"] };
    doc.nodes.loop_b = { role: "agent", prompt: "b", next: ["loop_a"] };
    doc.nodes.collect_policy_number = {
      ...doc.nodes.collect_policy_number,
      next: ["no_such_node"],
    };
    const codes = checkAgent2ModelInvariants(doc).map((d) => d.code);
    expect(codes).toContain("A2M_EDGE_TARGET_MISSING");
    expect(codes).toContain("A2M_DEAD_END_TRAP");
  });
});

describe("templates through the LangGraph subset and back", () => {
  const losses: Readonly<Record<string, readonly string[]>> = {
    "approval-gate": ["/autonomyLevel", "/description"],
    research: ["/autonomyLevel", "/description", "/budget", "/nodes/0/decorators"],
    "document-review": ["/autonomyLevel", "/description", "/budget"],
  };
  const without = (wf: AgentWorkflow): unknown => ({
    ...wf,
    description: undefined,
    budget: undefined,
    nodes: wf.nodes.map((node) => ({ ...node, decorators: undefined })),
  });

  it.each(Object.entries(losses))("%s loses only what the export declares", (id, declared) => {
    const wf = getTemplate(id);
    if (wf === undefined) throw new Error(id);
    const exported = exportLangGraph(wf);
    expect(exported.warnings.map((w) => w.path)).toEqual(declared);
    const back = importLangGraph(exported.document).workflow;
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(without(wf))));
  });
});
