/**
 * The tools of a tool container as Camunda lists them (`FlowNode.getIncoming()` empty: the
 * `<bpmn:incoming>` list), and no node of the container dropped: a node only a flow from itself
 * leads to, or that no tool's flows reach, is a tool.
 */
import { describe, expect, it } from "vitest";
import { readProcess } from "../../../src/bpmn/index.js";
import { readContainer } from "../../../src/bpmn/camunda/read-tools.js";
import type { ModdleObject } from "../../../src/bpmn/moddle.js";
import { listProp } from "../../../src/bpmn/moddle.js";

/** The container `Tools` holding `body`, read. */
async function container(body: string): Promise<ModdleObject> {
  const { definitions } = await readProcess(`<bpmn:definitions
      xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="x">
    <bpmn:process id="P"><bpmn:adHocSubProcess id="Tools">${body}</bpmn:adHocSubProcess></bpmn:process>
  </bpmn:definitions>`);
  const process = listProp(definitions ?? { $type: "none" }, "rootElements")[0];
  const tools = listProp(process ?? { $type: "none" }, "flowElements")[0];
  if (tools === undefined) throw new Error("no container");
  return tools;
}

/** Tool ids and step ids. */
async function split(body: string): Promise<[string[], string[]]> {
  const read = readContainer(await container(body));
  return [read.tools.map((t) => t.id), read.steps.map((s) => s.id)];
}

const task = (id: string, ...incoming: string[]) =>
  `<bpmn:serviceTask id="${id}">${incoming.map((f) => `<bpmn:incoming>${f}</bpmn:incoming>`).join("")}</bpmn:serviceTask>`;
const flow = (id: string, from: string, to: string) =>
  `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`;

describe("the tools of a container", () => {
  it("a node with <bpmn:incoming> from another node is a step of that node's tool", async () => {
    expect(await split(task("Find") + task("Purge", "S1") + flow("S1", "Find", "Purge"))).toEqual([
      ["Find"],
      ["Purge"],
    ]);
  });

  it("a node a flow reaches but whose <bpmn:incoming> is empty is a tool, as Camunda lists it", async () => {
    const read = readContainer(
      await container(task("Find") + task("Purge") + flow("S1", "Find", "Purge")),
    );
    expect([read.tools.map((t) => t.id), read.steps, read.flows]).toEqual([
      ["Find", "Purge"],
      [],
      [["Find", "Purge"]],
    ]);
  });

  it("a node with only a flow to itself is a tool, with or without <bpmn:incoming>", async () => {
    expect(await split(task("Retry") + flow("Loop", "Retry", "Retry"))).toEqual([["Retry"], []]);
    expect(await split(task("Retry", "Loop") + flow("Loop", "Retry", "Retry"))).toEqual([
      ["Retry"],
      [],
    ]);
  });

  it("a cycle no tool reaches is not dropped: its first node is a tool, the rest its steps", async () => {
    const body =
      task("A", "F2") +
      task("B", "F1") +
      flow("F1", "A", "B") +
      flow("F2", "B", "A") +
      task("Other");
    expect(await split(body)).toEqual([["A", "Other"], ["B"]]);
  });

  it("boundary events stay steps of their host's tool", async () => {
    const body = `${task("Find")}<bpmn:boundaryEvent id="OnError" attachedToRef="Find"><bpmn:errorEventDefinition /></bpmn:boundaryEvent>`;
    expect(await split(body)).toEqual([["Find"], ["OnError"]]);
  });
});

describe("a large container is read in linear time", () => {
  it("20,000 cycles no tool reaches: the first node of each is a tool, the other its step", async () => {
    // Each cycle A → B → A, written with <bpmn:incoming> as Camunda Modeler writes it: no node
    // is a root, so each cycle is reached from its first node in turn (quadratic before).
    const n = 20_000;
    const parts: string[] = [];
    for (let i = 0; i < n; i += 1) {
      parts.push(
        task(`A${String(i)}`, `X${String(i)}`),
        task(`B${String(i)}`, `Y${String(i)}`),
        flow(`Y${String(i)}`, `A${String(i)}`, `B${String(i)}`),
        flow(`X${String(i)}`, `B${String(i)}`, `A${String(i)}`),
      );
    }
    const [tools, steps] = await split(parts.join(""));
    expect([tools.length, steps.length, tools[0], tools[n - 1], steps[0], steps[n - 1]]).toEqual([
      n,
      n,
      "A0",
      `A${String(n - 1)}`,
      "B0",
      `B${String(n - 1)}`,
    ]);
  });
});
