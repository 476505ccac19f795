/**
 * The BPMN benchmark's process generator: exact flow-node counts, the mix of elements it promises,
 * XML with DI that bpmn-moddle reads without a BPMN_PARSE finding and bpmnlint's recommended rules
 * accept, and gate verdicts that are exactly the ones it intended.
 */
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess, createModdle, readProcess } from "../../src/bpmn/index.js";
import { BENCH_AGENT_REF, generateBpmnProcess } from "../../bench/bpmn-generate.js";
import { benchAgentWorkflow, recommendedLinter } from "../../bench/bpmn.js";
import { createValidator } from "../../src/validate/index.js";

/** The little of a moddle element the walk reads. */
interface Element {
  readonly $type: string;
  readonly flowElements?: readonly Element[];
  $instanceOf(type: string): boolean;
}

/** Flow nodes of every process, sub-processes included. */
function countFlowNodes(definitions: ModdleObject): number {
  const roots = definitions.rootElements as readonly Element[];
  const pending = roots.flatMap((r) => r.flowElements ?? []);
  let count = 0;
  for (let e = pending.pop(); e !== undefined; e = pending.pop()) {
    if (e.$instanceOf("bpmn:FlowNode")) count++;
    pending.push(...(e.flowElements ?? []));
  }
  return count;
}

const registry = {
  resolveWorkflow: (ref: string) => (ref === BENCH_AGENT_REF ? benchAgentWorkflow() : undefined),
};

describe("generateBpmnProcess", () => {
  it.each([2, 3, 17, 50, 999, 1_000, 5_000])("makes exactly %i flow nodes", async (size) => {
    const generated = generateBpmnProcess(size);
    expect(generated.flowNodes).toBe(size);
    const read = await readProcess(generated.xml);
    expect(read.diagnostics).toEqual([]);
    if (read.definitions === undefined) throw new Error("no definitions");
    expect(countFlowNodes(read.definitions)).toBe(size);
  });

  it("is deterministic", () => {
    expect(generateBpmnProcess(1_000).xml).toBe(generateBpmnProcess(1_000).xml);
  });

  it("rejects sizes below 2", () => {
    expect(() => generateBpmnProcess(1)).toThrow(RangeError);
    expect(() => generateBpmnProcess(2.5)).toThrow(RangeError);
  });

  it("mixes agent tasks (about one in 20 nodes), gates, gateways, sub-processes and loops", () => {
    const g = generateBpmnProcess(5_000);
    expect(g.agentTasks.length).toBeGreaterThanOrEqual(5_000 / 25);
    expect(g.agentTasks.length).toBeLessThanOrEqual(5_000 / 18);
    expect([...g.gatedAgents, ...g.bypassingAgents].sort()).toEqual([...g.agentTasks].sort());
    expect(g.bypassingAgents.length).toBeGreaterThanOrEqual(2);
    expect(g.bypassingAgents.length).toBeLessThan(g.agentTasks.length / 10);
    expect(g.gates).toHaveLength(g.agentTasks.length);
    expect(g.elements.subProcess).toBeGreaterThan(100);
    expect(g.maxDepth).toBe(3);
    expect(g.elements.boundaryEvent).toBeGreaterThan(200);
    expect(g.elements.exclusiveGateway).toBeGreaterThan(1_000);
    expect(g.loops).toBeGreaterThan(200);
    const agentMarkers = g.xml.match(
      /<btv:agentTask agentWorkflowRef="agnt-x@1\.0\.0" autonomyLevel="2"/g,
    );
    expect(agentMarkers).toHaveLength(g.agentTasks.length);
    expect(g.xml.match(/<btv:gate /g)).toHaveLength(g.gates.length);
    // DI as a modeller writes it: a shape per flow node, an edge per sequence flow
    expect(g.xml.match(/<bpmndi:BPMNShape /g)).toHaveLength(g.flowNodes);
    expect(g.xml.match(/<bpmndi:BPMNEdge /g)).toHaveLength(g.sequenceFlows);
  });

  it("refers every agent task to a valid level-2 workflow", () => {
    expect(createValidator().validateSync(benchAgentWorkflow())).toEqual([]);
  });

  it.each([1_000, 5_000])("gives the intended gate verdicts at %i nodes", async (size) => {
    const g = generateBpmnProcess(size);
    const check = await checkProcess(g.xml, registry);
    expect(check.warnings).toEqual([]);
    expect(
      check.blocking.map((d) => [
        d.code,
        d.target.kind === "bpmn-element" ? d.target.elementId : "",
      ]),
    ).toEqual(g.bypassingAgents.map((id) => ["AGENT_GATE_BYPASS", id]));
    const status = new Map(check.agentTasks.map((t) => [t.elementId, t.gate]));
    expect(status.size).toBe(g.agentTasks.length);
    for (const id of g.gatedAgents) expect(status.get(id), id).toBe("reached");
    for (const id of g.bypassingAgents) expect(status.get(id), id).toBe("bypassed");
    for (const task of check.agentTasks) {
      expect([task.ref, task.level, task.resolution, task.requirement]).toEqual([
        BENCH_AGENT_REF,
        2,
        "registry",
        "required",
      ]);
    }
  });

  it("passes bpmnlint:recommended, its DI rules included", async () => {
    const g = generateBpmnProcess(1_000);
    const parsed = await createModdle().fromXML(g.xml);
    const reports = await recommendedLinter().lint(parsed.rootElement);
    expect(reports).toEqual({});
  });
});
