/**
 * Whether, and how, a process diagram is drawn (docs/report.md): from the file's DI when every
 * flow node it shows has a shape, up to {@link PROCESS_DI_LIMIT}; laid out with dagre otherwise,
 * up to the workflows' `DRAWING_LIMIT`; past those, not drawn, and the report says so.
 */
import type { ProcessDiagram } from "../../../bpmn/index.js";
import { DRAWING_LIMIT } from "../limits.js";
import type { ProcessDrawing } from "../types.js";

/**
 * The most flow nodes, and the most flows, drawn from a file's DI. Placing shapes where the file
 * says is linear; past 10,000 shapes the page itself (several MB of SVG) is what no reviewer can
 * use, and the tables and findings say everything the picture would.
 */
export const PROCESS_DI_LIMIT = 10_000;

/**
 * The largest coordinate or size, in either direction, drawn from a file's DI. Modellers place
 * diagrams within a few thousand pixels; a coordinate near `1e307` is finite in the file but
 * overflows to `Infinity` as soon as the drawing adds or scales it, and an SVG with `Infinity`
 * or `NaN` in it draws nothing. Past this, the process is laid out by agentflow instead, and the
 * note under it says why.
 */
export const DI_COORDINATE_LIMIT = 1_000_000;

/**
 * Per flow node id: the id of the collapsed sub-process that hides it (drawn in the file's own
 * DI, a collapsed sub-process keeps its content in a plane of its own). Parents come before their
 * content in a pool's node list, so one pass suffices.
 */
export function hiddenNodes(diagram: ProcessDiagram): Map<string, string> {
  const hidden = new Map<string, string>();
  for (const pool of diagram.pools) {
    const collapsed = new Set<string>();
    for (const node of pool.nodes) {
      const by = hidden.get(node.parent) ?? (collapsed.has(node.parent) ? node.parent : undefined);
      if (by !== undefined) hidden.set(node.id, by);
      else if (node.container !== "" && node.bounds !== undefined && !node.expanded) {
        collapsed.add(node.id);
      }
    }
  }
  return hidden;
}

function boxFar(b: { x: number; y: number; width: number; height: number } | undefined): boolean {
  if (b === undefined) return false;
  const far = (v: number): boolean => !(Math.abs(v) <= DI_COORDINATE_LIMIT);
  return far(b.x) || far(b.y) || far(b.width) || far(b.height);
}

function flowFar(flow: ProcessDiagram["messageFlows"][number]): boolean {
  if (boxFar(flow.label)) return true;
  return (flow.waypoints ?? []).some((p) => boxFar({ ...p, width: 0, height: 0 }));
}

/** Whether any coordinate or size of the diagram's DI is past `DI_COORDINATE_LIMIT` (1,000,000 px). */
function diFar(diagram: ProcessDiagram): boolean {
  if (diagram.messageFlows.some(flowFar)) return true;
  for (const pool of diagram.pools) {
    if (boxFar(pool.bounds) || pool.lanes.some((l) => boxFar(l.bounds))) return true;
    if (pool.nodes.some((n) => boxFar(n.bounds) || boxFar(n.label))) return true;
    if (pool.flows.some(flowFar)) return true;
  }
  return false;
}

/**
 * The drawing verdict of one diagram: `di` when every flow node it shows has a DI shape, every
 * DI coordinate is within `DI_COORDINATE_LIMIT` (1,000,000 px) and it is within {@link PROCESS_DI_LIMIT};
 * `dagre` without (full or usable) DI within `DRAWING_LIMIT`; else `none`.
 *
 * @example
 * ```ts
 * import { readProcess, readProcessDiagrams } from "agentflow/bpmn";
 * import { processDrawing } from "agentflow/report";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="https://example.com">
 *   <bpmn:process id="P"><bpmn:startEvent id="Start" /><bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F" sourceRef="Start" targetRef="End" /></bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * const [diagram] = readProcessDiagrams(definitions, () => false);
 * if (diagram === undefined) throw new Error("no process");
 * processDrawing(diagram);
 * // → { mode: "dagre", hasDi: false, diOutOfRange: false, missingShapes: 2, nodes: 2, flows: 1, limit: 250 }
 * ```
 */
export function processDrawing(diagram: ProcessDiagram): ProcessDrawing {
  const hidden = hiddenNodes(diagram);
  let nodes = 0;
  let flows = diagram.messageFlows.length;
  let hasDi = true;
  let anyDi = false;
  let missingShapes = 0;
  for (const pool of diagram.pools) {
    flows += pool.flows.length;
    nodes += pool.nodes.length;
    if (pool.bounds !== undefined) anyDi = true;
    for (const node of pool.nodes) {
      if (hidden.has(node.id)) continue;
      if (node.bounds === undefined) {
        hasDi = false;
        missingShapes += 1;
      } else anyDi = true;
    }
  }
  hasDi &&= anyDi;
  const diOutOfRange = anyDi && diFar(diagram);
  const usable = hasDi && !diOutOfRange;
  const limit = usable ? PROCESS_DI_LIMIT : DRAWING_LIMIT;
  // Pools count too: a collaboration of 100,000 empty participants is as much to draw.
  const within = nodes <= limit && flows <= limit && diagram.pools.length <= limit;
  const mode = within ? (usable ? "di" : "dagre") : "none";
  return { mode, hasDi, diOutOfRange, missingShapes, nodes, flows, limit };
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The sentence under a drawing, or in place of one, saying how it was drawn. */
export function drawingNote(d: ProcessDrawing): string {
  const size = `${count(d.nodes)} flow nodes and ${count(d.flows)} flows`;
  if (d.mode === "di") return `Drawn as laid out in the file's BPMN DI (${size}).`;
  const far = `the file's BPMN DI places elements beyond ±${count(DI_COORDINATE_LIMIT)} px, too far out to draw as laid out`;
  if (d.mode === "dagre") {
    const why = d.diOutOfRange
      ? far
      : d.missingShapes === d.nodes
        ? "the file has no BPMN DI for this process"
        : `the file's BPMN DI has no shape for ${count(d.missingShapes)} of its flow nodes`;
    return `Laid out by agentflow with dagre, left to right: ${why} (${size}).`;
  }
  if (d.diOutOfRange) {
    return `Process not drawn: ${far}, and its ${size} exceed the limit of ${count(d.limit)} flow nodes and ${count(d.limit)} flows laid out without BPMN DI. The agent task table and the findings above name every agent task, its gate status and every bypass path.`;
  }
  const how = d.hasDi
    ? `exceed the limit of ${count(d.limit)} flow nodes and ${count(d.limit)} flows drawn from BPMN DI`
    : `exceed the limit of ${count(d.limit)} flow nodes and ${count(d.limit)} flows laid out without BPMN DI`;
  return `Process not drawn: ${size} ${how}. The agent task table and the findings above name every agent task, its gate status and every bypass path.`;
}
