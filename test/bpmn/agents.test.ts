/**
 * agentflow's own "Governed agent task" template (`dev.agentflow.agent-task`, job type
 * `agentflow-agent`): an element made from it runs an agent whatever its ref says, so a ref
 * cleared from it leaves an agent task that names no workflow, not an ordinary task.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import {
  agentWorkflow,
  chain,
  element,
  endEvent,
  processXml,
  startEvent,
  ZEEBE_MODDLE,
} from "./builders.js";

const TEMPLATE = { "zeebe:modelerTemplate": "dev.agentflow.agent-task" };
const JOB = '<zeebe:taskDefinition type="agentflow-agent" retries="3" />';

const around = (x: string): string =>
  processXml(startEvent("Start"), x, endEvent("End"), chain("Start", "Agent", "End"));

const CASES: readonly (readonly [string, string])[] = [
  ["the template, no ref", element("serviceTask", "Agent", { attrs: TEMPLATE, ext: [JOB] })],
  ["the template alone", element("serviceTask", "Agent", { attrs: TEMPLATE })],
  ["the job type, template unlinked", element("serviceTask", "Agent", { ext: [JOB] })],
  [
    "the job type as a FEEL string literal",
    element("serviceTask", "Agent", {
      ext: ['<zeebe:taskDefinition type="=&quot;agentflow-agent&quot;" />'],
    }),
  ],
];

describe("the Governed agent task template", () => {
  for (const moddle of [undefined, ZEEBE_MODDLE]) {
    const label = moddle === undefined ? "" : ", zeebe-bpmn-moddle registered";
    const options = moddle === undefined ? {} : { moddleExtensions: moddle };

    it.each(CASES)(`%s: an agent task naming no workflow, needing a gate${label}`, async (_, x) => {
      const decision = await checkProcess(around(x), options);
      expect(decision.agentTasks.map((t) => [t.elementId, t.source, t.ref, t.requirement])).toEqual(
        [["Agent", "btv", null, "required"]],
      );
      expect(decision.blocking.map((d) => [d.code, d.path])).toEqual([
        ["AGENT_REF_INVALID", "/rootElements/0/flowElements/1/agentWorkflowRef"],
        ["AGENT_GATE_UNREACHABLE", "/rootElements/0/flowElements/1"],
      ]);
    });
  }

  it("resolves the ref the template wrote, as the bare attribute", async () => {
    const x = element("serviceTask", "Agent", {
      attrs: { ...TEMPLATE, "btv:agentWorkflowRef": "agnt-credit@1.0.0" },
      ext: [JOB],
    });
    const decision = await checkProcess(around(x));
    expect(decision.agentTasks.map((t) => [t.source, t.ref])).toEqual([
      ["btv", "agnt-credit@1.0.0"],
    ]);
  });

  it("leaves another job type of the same element an ordinary task", async () => {
    const x = element("serviceTask", "Agent", {
      ext: ['<zeebe:taskDefinition type="agentflow-agent-audit" />'],
    });
    expect((await checkProcess(around(x))).agentTasks).toEqual([]);
  });
});

/**
 * Two `btv:agentTask`s on one element (red team: the second was ignored, so the first judged the
 * element alone): which agent runs cannot be known, so the element is an AGENT_REF_CONFLICT
 * error and an agent nothing is known of — unresolved, its level unknown, a gate required.
 */
describe("an element that declares its agent twice", () => {
  const twice = (first: string, second: string): string =>
    around(element("serviceTask", "Agent", { ext: [first, second] }));
  const task = (ref: string, level: string): string =>
    `<btv:agentTask agentWorkflowRef="${ref}" autonomyLevel="${level}" />`;
  // Both resolve: the first alone would be a known agent of level 1.
  const docs = new Map([
    ["agnt-low@1.0.0", agentWorkflow("agnt-low@1.0.0", 1)],
    ["agnt-high@1.0.0", agentWorkflow("agnt-high@1.0.0", 5)],
  ]);
  const registry = { resolveWorkflow: (ref: string) => docs.get(ref) };

  it.each([
    [
      "two agents",
      task("agnt-low@1.0.0", "1"),
      task("agnt-high@1.0.0", "5"),
      ["AGENT_REF_CONFLICT", "AGENT_GATE_UNREACHABLE"],
    ],
    [
      "the same agent twice",
      task("agnt-low@1.0.0", "1"),
      task("agnt-low@1.0.0", "1"),
      ["AGENT_REF_CONFLICT", "AGENT_GATE_UNREACHABLE"],
    ],
    [
      "a first that names no workflow",
      '<btv:agentTask autonomyLevel="1" />',
      task("agnt-high@1.0.0", "5"),
      ["AGENT_REF_INVALID", "AGENT_REF_CONFLICT", "AGENT_GATE_UNREACHABLE"],
    ],
  ] as const)("%s: a conflict, unresolved, at an unknown level", async (_, a, b, codes) => {
    const decision = await checkProcess(twice(a, b), registry);
    expect(decision.blocking.map((d) => d.code).sort()).toEqual([...codes].sort());
    const conflict = decision.blocking.find((d) => d.code === "AGENT_REF_CONFLICT");
    expect(conflict?.data.paths).toEqual([
      "/extensionElements/values/0",
      "/extensionElements/values/1",
    ]);
    expect(conflict?.message).toMatch(/^agent task "Agent" declares its agent 2 times \(/);
    expect(decision.agentTasks.map((t) => [t.level, t.requirement, t.resolution])).toEqual([
      [null, "required", "unresolved"],
    ]);
    expect(decision.warnings.map((d) => d.code)).not.toContain("AGENT_UNRESOLVED");
  });
});
