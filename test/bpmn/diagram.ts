/**
 * Adds BPMN DI to a test process as a modeller writes it: a `bpmndi:BPMNDiagram` whose plane
 * references the process (or collaboration), a `BPMNShape` with `dc:Bounds` for every flow node
 * (sub-processes expanded, their children inside them, boundary events on their host's lower
 * edge) and a `BPMNEdge` with waypoints for every sequence flow. The layout is a plain grid, the
 * semantics are the file's own: the gate analysis must read a process with DI exactly as it
 * reads one without.
 */
import { createModdle } from "../../src/bpmn/index.js";

/** The parts of bpmn-moddle this helper calls (its entry point ships no types). */
interface Moddle {
  fromXML(xml: string): Promise<{ readonly rootElement: unknown }>;
  toXML(element: unknown, options: { readonly format: boolean }): Promise<{ readonly xml: string }>;
  create(type: string, attrs: Readonly<Record<string, unknown>>): unknown;
}

interface Element {
  readonly $type: string;
  readonly id?: string;
  readonly flowElements?: readonly Element[];
  readonly attachedToRef?: Element;
  readonly sourceRef?: Element;
  readonly targetRef?: Element;
  readonly processRef?: Element;
  readonly participants?: readonly Element[];
  readonly rootElements?: Element[];
  diagrams?: unknown[];
}

interface Box {
  readonly [key: string]: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const is = (e: Element, type: string): boolean => e.$type === type;
const isContainer = (e: Element): boolean =>
  e.$type === "bpmn:SubProcess" ||
  e.$type === "bpmn:AdHocSubProcess" ||
  e.$type === "bpmn:Transaction";
const isEvent = (e: Element): boolean => e.$type.endsWith("Event");
const isGateway = (e: Element): boolean => e.$type.endsWith("Gateway");

/** `xml` with a diagram added (replacing any it had). */
export async function withDiagram(xml: string): Promise<string> {
  const moddle = createModdle() as unknown as Moddle;
  const { rootElement } = (await moddle.fromXML(xml)) as unknown as { rootElement: Element };
  const create = (type: string, attrs: Readonly<Record<string, unknown>>): unknown =>
    moddle.create(type, attrs);
  const planeElements: unknown[] = [];
  const boxes = new Map<Element, Box>();
  const roots = rootElement.rootElements ?? [];
  const collaboration = roots.find((r) => is(r, "bpmn:Collaboration"));
  const processes = roots.filter((r) => is(r, "bpmn:Process"));
  // Lays out one container's flow elements in a row; returns the row's size.
  const layout = (
    container: Element,
    x0: number,
    y0: number,
  ): { width: number; height: number } => {
    let x = x0 + 30;
    let height = 0;
    const nodes = (container.flowElements ?? []).filter(
      (e) =>
        !is(e, "bpmn:SequenceFlow") &&
        !is(e, "bpmn:BoundaryEvent") &&
        !e.$type.startsWith("bpmn:Data"),
    );
    for (const node of nodes) {
      let box: Box;
      if (isContainer(node)) {
        const inner = layout(node, x, y0 + 20);
        box = { x, y: y0, width: Math.max(inner.width, 200), height: inner.height + 40 };
      } else if (isEvent(node)) {
        box = { x, y: y0 + 22, width: 36, height: 36 };
      } else if (isGateway(node)) {
        box = { x, y: y0 + 15, width: 50, height: 50 };
      } else {
        box = { x, y: y0, width: 100, height: 80 };
      }
      boxes.set(node, box);
      planeElements.push(
        create("bpmndi:BPMNShape", {
          id: `${node.id ?? "node"}_di`,
          bpmnElement: node,
          ...(isContainer(node) ? { isExpanded: true } : {}),
          bounds: create("dc:Bounds", box),
        }),
      );
      x += box.width + 50;
      height = Math.max(height, box.height);
    }
    for (const boundary of (container.flowElements ?? []).filter((e) =>
      is(e, "bpmn:BoundaryEvent"),
    )) {
      const host =
        boundary.attachedToRef === undefined ? undefined : boxes.get(boundary.attachedToRef);
      const box = {
        x: (host?.x ?? x0) + 30,
        y: (host?.y ?? y0) + (host?.height ?? 80) - 18,
        width: 36,
        height: 36,
      };
      boxes.set(boundary, box);
      planeElements.push(
        create("bpmndi:BPMNShape", {
          id: `${boundary.id ?? "boundary"}_di`,
          bpmnElement: boundary,
          bounds: create("dc:Bounds", box),
        }),
      );
    }
    return { width: x - x0, height: Math.max(height, 80) + 120 };
  };
  let y = 40;
  for (const process of processes) {
    const size = layout(process, 40, y);
    if (collaboration !== undefined) {
      const participant = (collaboration.participants ?? []).find((p) => p.processRef === process);
      if (participant !== undefined) {
        planeElements.push(
          create("bpmndi:BPMNShape", {
            id: `${participant.id ?? "participant"}_di`,
            bpmnElement: participant,
            isHorizontal: true,
            bounds: create("dc:Bounds", {
              x: 10,
              y: y - 20,
              width: size.width + 60,
              height: size.height + 20,
            }),
          }),
        );
      }
    }
    y += size.height + 60;
  }
  const center = (box: Box | undefined): unknown =>
    create("dc:Point", {
      x: (box?.x ?? 0) + (box?.width ?? 0) / 2,
      y: (box?.y ?? 0) + (box?.height ?? 0) / 2,
    });
  const walk = (container: Element): void => {
    for (const e of container.flowElements ?? []) {
      if (is(e, "bpmn:SequenceFlow")) {
        planeElements.push(
          create("bpmndi:BPMNEdge", {
            id: `${e.id ?? "flow"}_di`,
            bpmnElement: e,
            waypoint: [
              center(e.sourceRef === undefined ? undefined : boxes.get(e.sourceRef)),
              center(e.targetRef === undefined ? undefined : boxes.get(e.targetRef)),
            ],
          }),
        );
      }
      if (isContainer(e)) walk(e);
    }
  };
  for (const process of processes) walk(process);
  const plane = create("bpmndi:BPMNPlane", {
    id: "Plane_1",
    bpmnElement: collaboration ?? processes[0],
    planeElement: planeElements,
  });
  rootElement.diagrams = [create("bpmndi:BPMNDiagram", { id: "Diagram_1", plane })];
  const { xml: out } = await moddle.toXML(rootElement, { format: true });
  return out;
}
