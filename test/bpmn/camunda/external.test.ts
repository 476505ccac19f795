/**
 * External agents and A2A clients that name their agent (issue 39, item 5): a `btv:agentTask`,
 * or the bare `btv:agentWorkflowRef` attribute, wins over `zeebe:agentDefinition
 * agentType="external"` and the A2A client's template and job type; with no `autonomyLevel` the
 * resolved workflow's level decides; without either the `camundaAgents` policy governs.
 */
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { getTemplate } from "../../../src/model/index.js";
import { check, fixture, READINGS } from "./fixtures.js";
import { checkProcess } from "../../../src/bpmn/index.js";

const GATE = '<btv:gate approverRole="analyst" />';
const REFS = ["agnt-react@1.2.0", "catalog-enrichment@1.4.2", "agnt-triage@2.0.0"];

function research(): AgentWorkflow {
  const template = getTemplate("research");
  if (template === undefined) throw new Error("no research template");
  return template;
}

/** A workflow of the given level for each ref (the research template, relabelled). */
function resolverAt(level: number) {
  const base = research();
  return (ref: string): AgentWorkflow | undefined => {
    if (!REFS.includes(ref)) return undefined;
    const [id = "", version = ""] = ref.split("@");
    return { ...base, id, version, autonomyLevel: level } as AgentWorkflow;
  };
}

const rows = (decision: Awaited<ReturnType<typeof check>>) =>
  decision.agentTasks.map((t) => [t.elementId, t.source, t.ref, t.level, t.requirement]);

describe.each(READINGS)("external agents naming their agent (%s)", (_, reading) => {
  it("resolves the btv ref of an external agent, an A2A client and the bare attribute", async () => {
    const base = research();
    const decision = await check("external-agents.bpmn", {
      ...reading,
      resolveWorkflow: resolverAt(base.autonomyLevel),
    });
    expect(rows(decision)).toEqual(
      REFS.map((ref, i) => [
        ["ResearchAgent", "PartnerAgent", "TriageAgent"][i],
        "btv",
        ref,
        base.autonomyLevel,
        "required",
      ]),
    );
    expect(decision.agentTasks.every((t) => t.derived === undefined)).toBe(true);
    expect(decision.allowed).toBe(true);
  });

  it("takes the resolved workflow's level when the btv declaration states none", async () => {
    const xml = fixture("external-agents.bpmn").replace(GATE, "");
    for (const level of [2, 3]) {
      const decision = await checkProcess(xml, { ...reading, resolveWorkflow: resolverAt(level) });
      expect(decision.allowed).toBe(false);
      const unreachable = decision.blocking.filter((d) => d.code === "AGENT_GATE_UNREACHABLE");
      expect(unreachable.map((d) => [d.data.elementId, d.data.level])).toEqual([
        ["ResearchAgent", level],
        ["PartnerAgent", level],
        ["TriageAgent", level],
      ]);
    }
  });

  it("fails closed when the named agent cannot be resolved", async () => {
    const xml = fixture("external-agents.bpmn").replace(GATE, "");
    const decision = await checkProcess(xml, { ...reading, resolveWorkflow: () => undefined });
    expect(decision.allowed).toBe(false);
    expect(decision.agentTasks.map((t) => [t.resolution, t.requirement])).toEqual([
      ["unresolved", "required"],
      ["unresolved", "required"],
      ["unresolved", "required"],
    ]);
  });

  it("reads a btv:agentTask beside the bare attribute: its level for the same agent, a conflict for another", async () => {
    const withTask = (ref: string) =>
      fixture("external-agents.bpmn").replace(
        '<zeebe:taskDefinition type="acme:triage-agent:1" retries="3" />',
        `<zeebe:taskDefinition type="acme:triage-agent:1" retries="3" /><btv:agentTask agentWorkflowRef="${ref}" autonomyLevel="3" />`,
      );
    const same = await checkProcess(withTask("agnt-triage@2.0.0"), {
      ...reading,
      resolveWorkflow: resolverAt(3),
    });
    const triage = same.agentTasks.find((t) => t.elementId === "TriageAgent");
    expect([triage?.ref, triage?.level]).toEqual(["agnt-triage@2.0.0", 3]);
    // Which of two agents runs cannot be known: neither is resolved, and the task is blocked.
    const other = await checkProcess(withTask("agnt-react@1.2.0"), {
      ...reading,
      resolveWorkflow: resolverAt(3),
    });
    const conflict = other.blocking.find(
      (d) => d.code === "AGENT_REF_CONFLICT" && d.data.elementId === "TriageAgent",
    );
    expect(conflict?.data.refs).toEqual(["agnt-triage@2.0.0", "agnt-react@1.2.0"]);
    expect(other.agentTasks.find((t) => t.elementId === "TriageAgent")?.resolution).toBe(
      "unresolved",
    );
    // One that names no agent (as the properties panel writes it to hold a level) takes the
    // attribute's ref and gives its level.
    const levelOnly = await checkProcess(
      fixture("external-agents.bpmn").replace(
        '<zeebe:taskDefinition type="acme:triage-agent:1" retries="3" />',
        '<zeebe:taskDefinition type="acme:triage-agent:1" retries="3" /><btv:agentTask autonomyLevel="3" />',
      ),
      { ...reading, resolveWorkflow: resolverAt(3) },
    );
    const held = levelOnly.agentTasks.find((t) => t.elementId === "TriageAgent");
    expect([held?.ref, held?.level]).toEqual(["agnt-triage@2.0.0", 3]);
    expect(levelOnly.blocking.filter((d) => d.code === "AGENT_REF_CONFLICT")).toEqual([]);
  });

  it("leaves an external agent and an A2A client naming nothing to the camundaAgents policy", async () => {
    const xml = fixture("external-agents.bpmn")
      .replace('<btv:agentTask agentWorkflowRef="agnt-react@1.2.0" />', "")
      .replace('<btv:agentTask agentWorkflowRef="catalog-enrichment@1.4.2" />', "")
      .replace(' btv:agentWorkflowRef="agnt-triage@2.0.0"', "");
    const decision = await checkProcess(xml, reading);
    expect(decision.agentTasks.map((t) => [t.elementId, t.source, t.ref])).toEqual([
      ["ResearchAgent", "camunda", null],
      ["PartnerAgent", "camunda", null],
      ["TriageAgent", "camunda", null],
    ]);
  });
});

describe("the bare btv:agentWorkflowRef attribute", () => {
  it("makes any activity an agent task, and an invalid ref is reported at the attribute", async () => {
    const xml = fixture("external-agents.bpmn").replace(
      'btv:agentWorkflowRef="agnt-triage@2.0.0"',
      'btv:agentWorkflowRef="agnt-triage"',
    );
    const decision = await checkProcess(xml, { resolveWorkflow: resolverAt(3) });
    const invalid = decision.blocking.find((d) => d.code === "AGENT_REF_INVALID");
    expect(invalid?.data.elementId).toBe("TriageAgent");
    expect(invalid?.path).toMatch(/\/agentWorkflowRef$/);
  });
});
