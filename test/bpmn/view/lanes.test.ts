/**
 * The `lane` of an agent task (red team): modellers write no `flowNodeRef` for what a
 * sub-process holds, so a nested agent takes the lane of its nearest enclosing sub-process that
 * has one; a lane that lists the agent itself, the innermost of nested lanes and a sub-process's
 * own lanes come first; a called process is not enclosed by its call activity.
 */
import { describe, expect, it } from "vitest";
import { viewOf } from "./view-of.js";

const AGENT = `<bpmn:serviceTask id="Agent"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="3" /></bpmn:extensionElements></bpmn:serviceTask>`;

const lane = (id: string, refs: string[], inner = "") =>
  `<bpmn:lane id="${id}" name="${id.toLowerCase()}">${refs
    .map((r) => `<bpmn:flowNodeRef>${r}</bpmn:flowNodeRef>`)
    .join("")}${inner}</bpmn:lane>`;

let sets = 0;
const laneSet = (...lanes: string[]) =>
  `<bpmn:laneSet id="LS${++sets}">${lanes.join("")}</bpmn:laneSet>`;

const definitions = (...processes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com">${processes.join("")}</bpmn:definitions>`;

const process = (id: string, body: string) =>
  `<bpmn:process id="${id}" isExecutable="true">${body}</bpmn:process>`;

const cases: { name: string; xml: string; lane: { id: string; name: string } | null }[] = [
  {
    name: "a task in a sub-process drawn in a lane takes the sub-process's lane",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Sub"]))}<bpmn:subProcess id="Sub">${AGENT}</bpmn:subProcess>`,
      ),
    ),
    lane: { id: "Officers", name: "officers" },
  },
  {
    name: "through nested sub-processes, an event sub-process, a transaction and an ad-hoc one",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Sub"]))}<bpmn:subProcess id="Sub"><bpmn:transaction id="T"><bpmn:adHocSubProcess id="A"><bpmn:subProcess id="E" triggeredByEvent="true">${AGENT}</bpmn:subProcess></bpmn:adHocSubProcess></bpmn:transaction></bpmn:subProcess>`,
      ),
    ),
    lane: { id: "Officers", name: "officers" },
  },
  {
    name: "the nearest enclosing sub-process with a lane: an inner one's own lane set",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Sub"]))}<bpmn:subProcess id="Sub">${laneSet(lane("Inner", ["Inner1"]))}<bpmn:subProcess id="Inner1">${AGENT}</bpmn:subProcess></bpmn:subProcess>`,
      ),
    ),
    lane: { id: "Inner", name: "inner" },
  },
  {
    name: "a lane that lists the task itself comes before the sub-process's",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Sub"]), lane("Risk", ["Agent"]))}<bpmn:subProcess id="Sub">${AGENT}</bpmn:subProcess>`,
      ),
    ),
    lane: { id: "Risk", name: "risk" },
  },
  {
    name: "a task listed in a lane and in its child lane is in the inner one",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Credit", ["Agent"], `<bpmn:childLaneSet id="C">${lane("Officers", ["Agent"])}</bpmn:childLaneSet>`))}${AGENT}`,
      ),
    ),
    lane: { id: "Officers", name: "officers" },
  },
  {
    name: "a called process is not enclosed by the call activity's lane",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Call"]))}<bpmn:callActivity id="Call" calledElement="Q" />`,
      ),
      process("Q", AGENT),
    ),
    lane: null,
  },
  {
    name: "a sub-process in no lane gives none",
    xml: definitions(
      process(
        "P",
        `${laneSet(lane("Officers", []))}<bpmn:subProcess id="Sub">${AGENT}</bpmn:subProcess>`,
      ),
    ),
    lane: null,
  },
];

describe("the lane of an agent task", () => {
  it.each(cases)("$name", async ({ xml, lane: expected }) => {
    const { view } = await viewOf(xml);
    expect(view.agentTasks.map((t) => [t.element.id, t.lane])).toEqual([["Agent", expected]]);
  });

  it("lets the docs' separation-of-duties rule find a nested agent", async () => {
    const xml = definitions(
      process(
        "P",
        `${laneSet(lane("Officers", ["Sub", "Review"]))}<bpmn:subProcess id="Sub">${AGENT}</bpmn:subProcess><bpmn:userTask id="Review"><bpmn:extensionElements><btv:gate approverRole="officers" /></bpmn:extensionElements></bpmn:userTask><bpmn:sequenceFlow id="F" sourceRef="Sub" targetRef="Review" />`,
      ),
    );
    const pack = {
      kind: "PolicyPack",
      name: "bank",
      version: "1",
      rules: [
        {
          id: "no-self-approval",
          severity: "error",
          for: "agentTask",
          when: 'lane != null and some g in gates satisfies some r in split(g.role, ",\\s*") satisfies r = lane.name',
        },
      ],
    };
    const { check } = await viewOf(xml, { policies: [pack] });
    expect(check.blocking.filter((d) => d.code.startsWith("bank/")).map((d) => d.code)).toEqual([
      "bank/no-self-approval",
    ]);
  });

  it.each([
    [
      "two lane sets",
      `${laneSet(lane("Officers", ["Agent"]))}${laneSet(lane("Risk", ["Agent"]))}${AGENT}`,
    ],
    [
      "two lanes of one set",
      `${laneSet(lane("Officers", ["Agent"]), lane("Risk", ["Agent"]))}${AGENT}`,
    ],
    [
      "two lane sets, around its sub-process",
      `${laneSet(lane("Officers", ["Sub"]))}${laneSet(lane("Risk", ["Sub"]))}<bpmn:subProcess id="Sub">${AGENT}</bpmn:subProcess>`,
    ],
  ])("is unknown when lanes that do not nest list it: %s", async (_, body) => {
    const pack = {
      kind: "PolicyPack",
      name: "bank",
      version: "1",
      rules: [
        {
          id: "sod",
          severity: "error",
          for: "agentTask",
          when: 'lane != null and lane.name = "officers"',
        },
      ],
    };
    const { view, check } = await viewOf(definitions(process("P", body)), { policies: [pack] });
    expect(view.agentTasks.map((t) => [t.lane, t.unread])).toEqual([[null, ["budget", "lane"]]]);
    expect(check.blocking.filter((d) => d.code === "bank/sod").map((d) => d.data.reason)).toEqual([
      "it reads 'lane', which is unknown because lanes that do not nest (two lane sets, or two lanes of one set) list the task, or the sub-process it is in",
    ]);
  });
});
