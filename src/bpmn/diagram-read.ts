/**
 * The process as the report's picture needs it (docs/report.md): per process (or per collaboration,
 * with each participant's process in its pool) its flow nodes, sequence flows, message flows and
 * lanes, each with the BPMN DI a modeller wrote for it (`bpmndi:BPMNShape` bounds, `BPMNEdge`
 * waypoints, label bounds) when there is some. Plain data, read in one iterative walk, so the
 * report can lay it out and draw it without touching moddle.
 */
import type { ModdleObject } from "./moddle.js";
import { boolProp, idOf, instanceOf, listProp, objectProp, stringProp } from "./moddle.js";

/** A rectangle of the diagram, in DI units (pixels in every modeller). */
export interface DiagramBounds {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A point of the diagram, in DI units. */
export interface DiagramPoint {
  readonly x: number;
  readonly y: number;
}

/** One flow node, with what its shape shows. */
export interface DiagramNode {
  readonly id: string;
  readonly name: string;
  /** The BPMN type without prefix: `UserTask`, `ExclusiveGateway`, `BoundaryEvent`… */
  readonly type: string;
  /**
   * The event's trigger (`timer`, `message`, `error`, `signal`, `escalation`, `conditional`,
   * `link`, `compensate`, `terminate`, `cancel`), `multiple` for several, `""` for none.
   */
  readonly trigger: string;
  /** False for a non-interrupting boundary or start event (drawn dashed). */
  readonly interrupting: boolean;
  /** The sub-process that holds it, or `""` for the process itself. */
  readonly parent: string;
  /** For a boundary event: its host's id; else `""`. */
  readonly attachedTo: string;
  /** A sub-process (expanded or not); `eventSubProcess` for one triggered by an event. */
  readonly container: "" | "subProcess" | "eventSubProcess" | "transaction" | "adHoc";
  /** Marked as an approval gate (by `<btv:gate/>`, or the caller's predicate). */
  readonly gate: boolean;
  /** Its shape's bounds, when the file has one in the diagram of its process. */
  readonly bounds: DiagramBounds | undefined;
  /** For a sub-process with a shape: drawn open around its content (`isExpanded`). */
  readonly expanded: boolean;
  /** Where its name is drawn, when the DI says. */
  readonly label: DiagramBounds | undefined;
}

/** A sequence flow or a message flow. */
export interface DiagramFlow {
  readonly id: string;
  readonly name: string;
  readonly source: string;
  readonly target: string;
  /** The gateway's default flow (drawn with a slash). */
  readonly isDefault: boolean;
  /** A flow with a condition leaving an activity (drawn with a diamond). */
  readonly conditional: boolean;
  /** Its edge's waypoints, when the file has them (at least two). */
  readonly waypoints: readonly DiagramPoint[] | undefined;
  readonly label: DiagramBounds | undefined;
}

/** A lane of a pool, drawn only from DI. */
export interface DiagramLane {
  readonly id: string;
  readonly name: string;
  readonly bounds: DiagramBounds | undefined;
}

/** One process, in its pool when it is a participant's. */
export interface DiagramPool {
  /** The process id (`""` for a participant without a process: a black-box pool). */
  readonly processId: string;
  /** The participant id, `""` for a process outside any collaboration. */
  readonly participantId: string;
  readonly name: string;
  readonly bounds: DiagramBounds | undefined;
  readonly lanes: readonly DiagramLane[];
  readonly nodes: readonly DiagramNode[];
  readonly flows: readonly DiagramFlow[];
}

/** What one picture shows: a process, or a collaboration with a pool per participant. */
export interface ProcessDiagram {
  /** The process or collaboration id. */
  readonly id: string;
  readonly name: string;
  readonly pools: readonly DiagramPool[];
  readonly messageFlows: readonly DiagramFlow[];
}

const TRIGGERS: readonly [string, string][] = [
  ["bpmn:TimerEventDefinition", "timer"],
  ["bpmn:MessageEventDefinition", "message"],
  ["bpmn:ErrorEventDefinition", "error"],
  ["bpmn:SignalEventDefinition", "signal"],
  ["bpmn:EscalationEventDefinition", "escalation"],
  ["bpmn:ConditionalEventDefinition", "conditional"],
  ["bpmn:LinkEventDefinition", "link"],
  ["bpmn:CompensateEventDefinition", "compensate"],
  ["bpmn:TerminateEventDefinition", "terminate"],
  ["bpmn:CancelEventDefinition", "cancel"],
];

function trigger(element: ModdleObject): string {
  const defs = listProp(element, "eventDefinitions");
  if (defs.length > 1) return "multiple";
  const def = defs[0];
  if (def === undefined) return "";
  return TRIGGERS.find(([type]) => instanceOf(def, type))?.[1] ?? "";
}

function typeName(element: ModdleObject): string {
  const t = element.$type;
  return t.slice(t.indexOf(":") + 1);
}

function containerKind(element: ModdleObject): DiagramNode["container"] {
  if (!instanceOf(element, "bpmn:SubProcess")) return "";
  if (boolProp(element, "triggeredByEvent")) return "eventSubProcess";
  if (instanceOf(element, "bpmn:Transaction")) return "transaction";
  if (instanceOf(element, "bpmn:AdHocSubProcess")) return "adHoc";
  return "subProcess";
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function boundsOf(element: ModdleObject | undefined): DiagramBounds | undefined {
  if (element === undefined) return undefined;
  const x = finite(element.x);
  const y = finite(element.y);
  const width = finite(element.width);
  const height = finite(element.height);
  if (x === undefined || y === undefined || width === undefined || height === undefined) {
    return undefined;
  }
  return width < 0 || height < 0 ? undefined : { x, y, width, height };
}

/** What the DI says about one element. */
interface Di {
  readonly bounds: DiagramBounds | undefined;
  readonly expanded: boolean;
  readonly waypoints: readonly DiagramPoint[] | undefined;
  readonly label: DiagramBounds | undefined;
}

/**
 * The DI of every element, by element object: each plane is read once. The first shape of an
 * element wins, as in bpmn-js. Shapes in a sub-process's own plane (bpmn-js draws a collapsed
 * sub-process's content there) are kept apart: they are placed in another picture's coordinates.
 */
function readDi(definitions: ModdleObject): Map<ModdleObject, Di> {
  const out = new Map<ModdleObject, Di>();
  for (const diagram of listProp(definitions, "diagrams")) {
    const plane = objectProp(diagram, "plane");
    if (plane === undefined) continue;
    const owner = objectProp(plane, "bpmnElement");
    if (owner !== undefined && instanceOf(owner, "bpmn:SubProcess")) continue;
    for (const di of listProp(plane, "planeElement")) {
      const element = objectProp(di, "bpmnElement");
      if (element === undefined || out.has(element)) continue;
      const label = boundsOf(objectProp(objectProp(di, "label") ?? di, "bounds"));
      const points = listProp(di, "waypoint").flatMap((p) => {
        const x = finite(p.x);
        const y = finite(p.y);
        return x === undefined || y === undefined ? [] : [{ x, y }];
      });
      out.set(element, {
        bounds: boundsOf(objectProp(di, "bounds")),
        expanded: boolProp(di, "isExpanded"),
        waypoints: points.length >= 2 ? points : undefined,
        label: objectProp(di, "label") === undefined ? undefined : label,
      });
    }
  }
  return out;
}

function refId(element: ModdleObject, name: string): string {
  const ref = objectProp(element, name);
  return ref === undefined ? "" : (idOf(ref) ?? "");
}

function flowOf(element: ModdleObject, di: Map<ModdleObject, Di>, isDefault: boolean): DiagramFlow {
  const d = di.get(element);
  const source = objectProp(element, "sourceRef");
  return {
    id: idOf(element) ?? "",
    name: stringProp(element, "name") ?? "",
    source: refId(element, "sourceRef"),
    target: refId(element, "targetRef"),
    isDefault,
    conditional:
      objectProp(element, "conditionExpression") !== undefined &&
      source !== undefined &&
      instanceOf(source, "bpmn:Activity"),
    waypoints: d?.waypoints,
    label: d?.label,
  };
}

function lanesOf(process: ModdleObject, di: Map<ModdleObject, Di>): DiagramLane[] {
  const lanes: DiagramLane[] = [];
  const sets = [...listProp(process, "laneSets")];
  for (let set = sets.pop(); set !== undefined; set = sets.pop()) {
    for (const lane of listProp(set, "lanes")) {
      lanes.push({
        id: idOf(lane) ?? "",
        name: stringProp(lane, "name") ?? "",
        bounds: di.get(lane)?.bounds,
      });
      const child = objectProp(lane, "childLaneSet");
      if (child !== undefined) sets.push(child);
    }
  }
  return lanes;
}

function poolOf(
  process: ModdleObject | undefined,
  participant: ModdleObject | undefined,
  di: Map<ModdleObject, Di>,
  isGate: (element: ModdleObject) => boolean,
): DiagramPool {
  const nodes: DiagramNode[] = [];
  const flows: DiagramFlow[] = [];
  // Iterative, so sub-processes nested thousands deep do not exhaust the stack; the loop also
  // visits the containers appended while it runs.
  const pending: { container: ModdleObject; parent: string }[] =
    process === undefined ? [] : [{ container: process, parent: "" }];
  for (const next of pending) {
    const defaults = new Set<ModdleObject>();
    const elements = listProp(next.container, "flowElements");
    for (const element of elements) {
      const def = objectProp(element, "default");
      if (def !== undefined) defaults.add(def);
    }
    for (const element of elements) {
      if (instanceOf(element, "bpmn:SequenceFlow")) {
        flows.push(flowOf(element, di, defaults.has(element)));
        continue;
      }
      if (!instanceOf(element, "bpmn:FlowNode")) continue;
      const d = di.get(element);
      const id = idOf(element) ?? "";
      const container = containerKind(element);
      const interrupting = instanceOf(element, "bpmn:BoundaryEvent")
        ? element.cancelActivity !== false
        : element.isInterrupting !== false;
      nodes.push({
        id,
        name: stringProp(element, "name") ?? "",
        type: typeName(element),
        trigger: instanceOf(element, "bpmn:Event") ? trigger(element) : "",
        interrupting,
        parent: next.parent,
        attachedTo: refId(element, "attachedToRef"),
        container,
        gate: isGate(element),
        bounds: d?.bounds,
        expanded: d?.expanded ?? false,
        label: d?.label,
      });
      if (container !== "") pending.push({ container: element, parent: id });
    }
  }
  const owner = participant ?? process;
  return {
    processId: process === undefined ? "" : (idOf(process) ?? ""),
    participantId: participant === undefined ? "" : (idOf(participant) ?? ""),
    name: (owner === undefined ? undefined : stringProp(owner, "name")) ?? "",
    bounds: participant === undefined ? undefined : di.get(participant)?.bounds,
    lanes: process === undefined ? [] : lanesOf(process, di),
    nodes,
    flows,
  };
}

/**
 * Reads every process of `definitions` as a picture shows it: one {@link ProcessDiagram} per
 * collaboration (a pool per participant, message flows between them), then one per process
 * that no participant holds. Linear in the size of the document, iterative.
 *
 * @example
 * ```ts
 * import { readProcess, readProcessDiagrams } from "agentflow/bpmn";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
 *     xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" id="D" targetNamespace="https://example.com">
 *   <bpmn:process id="P">
 *     <bpmn:startEvent id="Start" />
 *   </bpmn:process>
 *   <bpmndi:BPMNDiagram id="Di"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
 *     <bpmndi:BPMNShape id="Start_di" bpmnElement="Start"><dc:Bounds x="10" y="20" width="36" height="36" /></bpmndi:BPMNShape>
 *   </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * const [diagram] = readProcessDiagrams(definitions, () => false);
 * diagram?.pools[0]?.nodes.map((n) => `${n.type} ${n.id} at ${String(n.bounds?.x)},${String(n.bounds?.y)}`);
 * // → ["StartEvent Start at 10,20"]
 * ```
 */
export function readProcessDiagrams(
  definitions: ModdleObject,
  isGate: (element: ModdleObject) => boolean,
): ProcessDiagram[] {
  const di = readDi(definitions);
  const roots = listProp(definitions, "rootElements");
  const pooled = new Set<ModdleObject>();
  const out: ProcessDiagram[] = [];
  for (const root of roots) {
    if (!instanceOf(root, "bpmn:Collaboration")) continue;
    const pools = listProp(root, "participants").map((participant) => {
      const process = objectProp(participant, "processRef");
      if (process !== undefined) pooled.add(process);
      return poolOf(process, participant, di, isGate);
    });
    out.push({
      id: idOf(root) ?? "",
      name: stringProp(root, "name") ?? "",
      pools,
      messageFlows: listProp(root, "messageFlows").map((f) => flowOf(f, di, false)),
    });
  }
  for (const root of roots) {
    if (!instanceOf(root, "bpmn:Process") || pooled.has(root)) continue;
    const pool = poolOf(root, undefined, di, isGate);
    out.push({ id: pool.processId, name: pool.name, pools: [pool], messageFlows: [] });
  }
  return out;
}
