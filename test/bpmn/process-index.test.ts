/**
 * The flat process index (one walk, typed columns, lazy ids and paths), the identity search that
 * resolves flow ends and boundary hosts without a `Map` in the common case, and the cached type
 * facts behind them. Values only: the speed is the benchmark's business.
 */
import { describe, expect, it } from "vitest";
import { idOf } from "../../src/bpmn/moddle.js";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { createModdle, evaluateGates, readProcess } from "../../src/bpmn/index.js";
import { elementKind, isModdleObject, typePrototype } from "../../src/bpmn/moddle.js";
import { flagsOf, NodeFlag } from "../../src/bpmn/node-flags.js";
import {
  column,
  done,
  fillTo,
  findNear,
  lateLookup,
  put,
  reserve,
} from "../../src/bpmn/node-refs.js";
import { buildProcessGraph, VERTEX_KINDS } from "../../src/bpmn/process-graph.js";
import { indexDefinitions, nodeEntry, nodeId, nodePath } from "../../src/bpmn/process-index.js";
import {
  agent,
  boundaryEvent,
  chain,
  endEvent,
  flow,
  gate,
  processXml,
  startEvent,
  subProcess,
  task,
} from "./builders.js";

async function parse(xml: string): Promise<ModdleObject> {
  const { definitions } = await readProcess(xml);
  if (definitions === undefined) throw new Error("the test process must parse");
  return definitions;
}

/** The flows of an index as `source→target` ids, in document order. */
async function flowIds(xml: string): Promise<string[]> {
  const index = indexDefinitions(await parse(xml));
  return [...index.flowSources].map(
    (from, k) => `${nodeId(index, from)}→${nodeId(index, index.flowTargets[k] ?? -1)}`,
  );
}

describe("indexDefinitions", () => {
  it("keeps one column per fact, nested content after its process, paths read on demand", async () => {
    const xml = processXml(
      startEvent("S"),
      subProcess("Sub", [startEvent("S2"), task("T2"), chain("S2", "T2")]),
      endEvent("E"),
      chain("S", "Sub", "E"),
    );
    const index = indexDefinitions(await parse(xml));
    expect(index.elements.map((_, i) => nodeId(index, i))).toEqual(["S", "Sub", "E", "S2", "T2"]);
    expect([...index.container]).toEqual([0, 0, 0, 1, 1]);
    expect([...index.opens]).toEqual([-1, 1, -1, -1, -1]);
    expect([...index.position]).toEqual([0, 1, 2, 0, 1]);
    expect(index.containers.map((c) => [c.kind, c.parent, c.node, c.process, c.path])).toEqual([
      ["process", -1, -1, 0, "/rootElements/0/flowElements"],
      ["sub-process", 0, 1, 0, "/rootElements/0/flowElements/1/flowElements"],
    ]);
    expect(nodePath(index, 4)).toBe("/rootElements/0/flowElements/1/flowElements/1");
    expect((index.flags[1] ?? 0) & NodeFlag.subProcess).toBe(NodeFlag.subProcess);
    expect((index.flags[3] ?? 0) & NodeFlag.startEvent).toBe(NodeFlag.startEvent);
    expect(nodeEntry(index, 4)).toMatchObject({
      id: "T2",
      path: nodePath(index, 4),
      container: 1,
      opens: -1,
    });
    expect(await flowIds(xml)).toEqual(["S→Sub", "Sub→E", "S2→T2"]);
  });

  it("resolves flows listed before their nodes, far from them, or across containers", async () => {
    const tasks = Array.from({ length: 60 }, (_, i) => `T${i}`);
    const far = processXml(
      // flows first, in reverse: every end is unknown when its flow is met
      chain(...tasks).reverse(),
      tasks.map((id) => task(id)),
    );
    const expected = tasks.slice(1).map((to, i) => `${tasks[i] ?? ""}→${to}`);
    expect(await flowIds(far)).toEqual(expected.reverse());
    // the nodes first, then the flows from the last node back to the first: beyond the window
    const spread = processXml(
      tasks.map((id) => task(id)),
      flow("T59", "T0"),
      flow("T0", "T59"),
      flow("T30", "T1"),
    );
    expect(await flowIds(spread)).toEqual(["T59→T0", "T0→T59", "T30→T1"]);
    const across = processXml(
      startEvent("S"),
      subProcess("Sub", [task("Inner"), flow("S", "Inner")]),
      flow("Inner", "S"),
    );
    // flows across a sub-process's border are found, and set apart: no engine runs them
    expect(await flowIds(across)).toEqual([]);
    const crossing = indexDefinitions(await parse(across)).crossingFlows;
    expect(crossing.map((f) => [idOf(f.element), f.path])).toEqual([
      ["Inner-S", "/rootElements/0/flowElements/2"],
      ["S-Inner", "/rootElements/0/flowElements/1/flowElements/1"],
    ]);
    // a flow to an id that is not a flow node is left out, the rest keep their order
    const dangling = processXml(task("A"), task("B"), flow("A", "Nowhere"), flow("A", "B"));
    expect(await flowIds(dangling)).toEqual(["A→B"]);
  });

  it("finds a boundary event's host before, after or far from it", async () => {
    const filler = Array.from({ length: 40 }, (_, i) => task(`F${i}`));
    const xml = processXml(
      boundaryEvent("Early", "Host"),
      task("Host"),
      filler,
      boundaryEvent("Late", "Host"),
      boundaryEvent("Next", "Other"),
      task("Other"),
    );
    const index = indexDefinitions(await parse(xml));
    const host = (id: string): string => {
      const i = index.elements.findIndex((_, k) => nodeId(index, k) === id);
      return nodeId(index, index.attachedTo[i] ?? -1);
    };
    expect([host("Early"), host("Late"), host("Next")]).toEqual(["Host", "Host", "Other"]);
    expect(index.attachedTo[index.elements.length - 1]).toBe(-1);
  });

  it("numbers vertices by kind: nodes first, then each container's synthetic ones", async () => {
    const xml = processXml(
      startEvent("S"),
      subProcess("Sub", [task("T")], { adHoc: true }),
      chain("S", "Sub"),
    );
    const graph = buildProcessGraph(indexDefinitions(await parse(xml)));
    const kinds = [...graph.kinds].map((k) => VERTEX_KINDS[k]);
    expect(kinds).toEqual(["node", "node", "node", "interrupt", "interrupt", "exit", "hub"]);
    expect([...graph.owner]).toEqual([0, 1, 2, -1, 1, 1, 1]);
  });
});

describe("reading the tree only before resolvers run", () => {
  it("reports the ids the tree had when the check began, even if a resolver edits it", async () => {
    const xml = processXml(
      startEvent("S"),
      agent("A", { ref: "agnt-x@1.0.0", level: "2" }),
      gate("G"),
      endEvent("E"),
      chain("S", "A", "G", "E"),
    );
    const definitions = await parse(xml);
    const decision = await evaluateGates(definitions, {
      resolveWorkflow: async () => {
        await Promise.resolve();
        // bpmn-js may edit the diagram while a registry answers
        const root = (definitions.rootElements as ModdleObject[])[0];
        const nodes = root?.flowElements as { id: string }[];
        for (const node of nodes) node.id = `${node.id}-edited`;
        return undefined;
      },
    });
    expect(decision.agentTasks.map((t) => t.elementId)).toEqual(["A"]);
    expect(decision.warnings.map((d) => d.target)).toEqual([
      expect.objectContaining({ elementId: "A" }),
    ]);
  });
});

describe("identity search and columns", () => {
  const items = ["a", "b", "c", "d", "e"].map((name) => ({ name }));

  it("findNear looks outwards from the hint, inside the range only", () => {
    expect(findNear(items, items[3], 0, 5, 0)).toBe(3);
    expect(findNear(items, items[0], 0, 5, 4)).toBe(0);
    expect(findNear(items, items[0], 1, 5, 4)).toBe(-1);
    expect(findNear(items, items[4], 0, 4, 0)).toBe(-1);
    expect(findNear(items, { name: "a" }, 0, 5, 0)).toBe(-1);
    const many = Array.from({ length: 100 }, (_, i) => ({ i }));
    expect(findNear(many, many[90], 0, 100, 0)).toBe(-1);
    expect(findNear(many, many[90], 0, 100, 80)).toBe(90);
  });

  it("lateLookup falls back to a Map of all nodes, where a later duplicate wins", () => {
    const doubled = [...items, items[0]];
    const ranges = { start: column(), end: column() };
    fillTo(ranges.start, 0, 0);
    fillTo(ranges.end, 0, 2);
    fillTo(ranges.start, 1, 2);
    fillTo(ranges.end, 1, 6);
    const lookup = lateLookup(doubled, ranges);
    expect(lookup(items[1], 0, 0)).toBe(1);
    expect(lookup(items[3], 0, 0)).toBe(3);
    expect(lookup(items[0], 1, 2)).toBe(5);
    expect(lookup({ name: "x" }, 0, 0)).toBe(-1);
    expect(lookup(undefined, 1, 2)).toBe(-1);
  });

  it("columns grow by reservation and end as exact views", () => {
    const c = column();
    reserve(c, 2);
    put(c, 7);
    put(c, 8);
    reserve(c, 3);
    put(c, 9);
    expect([...done(c)]).toEqual([7, 8, 9]);
    fillTo(c, 5, 1);
    expect([...done(c)]).toEqual([7, 8, 9, 0, 0, 1]);
  });
});

describe("type facts by prototype", () => {
  it("knows typed elements by their prototype, generic and plain objects by $type", async () => {
    const moddle = createModdle();
    const { rootElement } = await moddle.fromXML(
      processXml(task("T"), agent("A", { ref: "agnt-x@1.0.0" })),
    );
    const definitions = rootElement as ModdleObject;
    const process = (definitions.rootElements as ModdleObject[])[0];
    const [t, a] = (process?.flowElements ?? []) as ModdleObject[];
    if (t === undefined || a === undefined) throw new Error("two flow elements expected");
    expect(typePrototype(t)).toBe(Object.getPrototypeOf(t));
    expect(typePrototype({ $type: "bpmn:Task" })).toBeUndefined();
    expect(isModdleObject(t)).toBe(true);
    expect(isModdleObject({ $type: "x:Y" })).toBe(true);
    expect(isModdleObject(Object.create(null))).toBe(false);
    expect(isModdleObject({ $type: 1 })).toBe(false);
    const byType = new Map<string, number>();
    expect(flagsOf(t, byType) & NodeFlag.flowNode).toBe(NodeFlag.flowNode);
    expect(flagsOf(a, byType)).toBe(NodeFlag.flowNode | NodeFlag.activity);
    expect(flagsOf({ $type: "bpmn:Task", $instanceOf: () => false }, byType)).toBe(0);
    expect(flagsOf("bpmn:Task", byType)).toBe(-1);
    const ext = a.extensionElements as { values: ModdleObject[] };
    const marker = ext.values[0];
    if (marker === undefined) throw new Error("the agent declaration expected");
    const kind = elementKind(marker);
    expect(kind).toEqual({ local: "agenttask", namespace: "https://agentflow.dev/schema/btv/1.0" });
    expect(elementKind(marker)).toBe(kind);
  });
});
