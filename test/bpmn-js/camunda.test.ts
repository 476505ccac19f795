/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The bpmn-js service on a Camunda AI agent (issue 39): the decision it publishes is the library's
 * for the same process and `toolEffects`, and a bad mapping is a configuration problem.
 */
import EventBus from "diagram-js/lib/core/EventBus.js";
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import { evaluateGates, readProcess } from "../../src/bpmn/index.js";
import { AgentflowService, configProblems } from "../../src/bpmn-js/index.js";
import { fixture } from "../bpmn/camunda/fixtures.js";

interface Bus {
  on(event: string, callback: (event: unknown) => void): void;
  off(event: string, callback: (event: unknown) => void): void;
  fire(type: string, data?: object): unknown;
}

const unused = (): never => {
  throw new Error("nothing is drawn while inactive");
};

describe("AgentflowService on a Camunda agent", () => {
  it("publishes the library's verdict, with the derived agent", async () => {
    const { definitions } = await readProcess(fixture("subprocess-v4-gateways.bpmn"));
    if (definitions === undefined) throw new Error("the fixture must parse");
    const toolEffects = { "acme:summary-script:1": "read" } as const;
    const bus = new (EventBus as unknown as new () => Bus)();
    const service = new AgentflowService(
      { toolEffects, active: false },
      bus,
      { getDefinitions: (): ModdleObject => definitions },
      { get: () => undefined, getAll: () => [] },
      { add: unused, remove: () => undefined },
      { addMarker: () => undefined, removeMarker: () => undefined, getContainer: unused },
    );
    const changed = new Promise((resolve) => {
      bus.on("agentflow.changed", resolve);
    });
    bus.fire("import.done", {});
    await changed;
    const decision = service.getDecision();
    const expected = await evaluateGates(definitions, { toolEffects });
    expect(decision?.blocking.map((d) => [d.code, d.data.nodeId])).toEqual([
      ["TOOL_EFFECT_NEEDS_GATE", "ResearchServer"],
      ["TOOL_EFFECT_NEEDS_GATE", "PartnerAgent"],
    ]);
    // The library's findings, worded with the elements' names where the library says their ids.
    const unworded = (d: Diagnostic) => ({ ...d, message: "" });
    expect(decision?.blocking.map(unworded)).toEqual(expected.blocking.map(unworded));
    expect(decision?.warnings.map(unworded)).toEqual(expected.warnings.map(unworded));
    const unknown = (kind: string) =>
      `whose effect is unknown (a gateway tool (${kind}) whose tools the remote server lists at run time) and so counts as needing a gate, but the gate downstream is missing`;
    expect(decision?.blocking.map((d) => d.message)).toEqual([
      `camunda.Agent@1.0.0 (agent task "Research agent") calls "tool:camunda.ResearchServer@1.0.0" at node "Research MCP server", ${unknown("mcpClient")}`,
      `camunda.Agent@1.0.0 (agent task "Research agent") calls "tool:camunda.PartnerAgent@1.0.0" at node "Partner agent", ${unknown("a2aClient")}`,
    ]);
    expect(decision?.agentTasks[0]?.derived?.level).toBe(4);
  });

  it("reports a bad mapping as a configuration problem", () => {
    expect(configProblems({ toolEffects: { "io.camunda:slack:1": "loud" } })).toEqual([
      `agentflow.toolEffects["io.camunda:slack:1"]: unknown effect 'loud' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)`,
    ]);
  });
});
