/**
 * A process diagram placed as the file's BPMN DI says: every shape at its bounds, every flow
 * along its waypoints, moved so the picture starts at a small margin. Linear in the size of the
 * diagram; nothing is computed but that shift, and straight lines for flows without waypoints.
 */
import type { DiagramFlow, DiagramNode, ProcessDiagram } from "../../../bpmn/index.js";
import { round, straight } from "./geometry.js";
import { outlineOf, poolNode } from "./shape-size.js";
import type { Box, PlacedFlow, PlacedNode, PlacedPool, ProcessLayout, XY } from "./types.js";
import { hiddenNodes } from "./verdict.js";

const MARGIN = 24;
/** Room under an event or a gateway for a name whose label has no DI bounds. */
const LABEL_HEIGHT = 40;

function labelBelow(b: Box): Box {
  const width = Math.max(b.width + 60, 90);
  return { x: b.x + b.width / 2 - width / 2, y: b.y + b.height + 4, width, height: LABEL_HEIGHT };
}

/** Extents of everything drawn, grown one box or point at a time. */
class Extent {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  box(b: Box | undefined): void {
    if (b === undefined) return;
    this.point({ x: b.x, y: b.y });
    this.point({ x: b.x + b.width, y: b.y + b.height });
  }
  point(p: XY): void {
    this.minX = Math.min(this.minX, p.x);
    this.minY = Math.min(this.minY, p.y);
    this.maxX = Math.max(this.maxX, p.x);
    this.maxY = Math.max(this.maxY, p.y);
  }
}

/**
 * Lays `diagram` out from its DI. Flow nodes without a shape, and the content of a sub-process
 * drawn collapsed, are left out (`processDrawing` chooses this layout only when every shown node
 * has a shape); so are flows with an end left out.
 */
export function layoutFromDi(diagram: ProcessDiagram): ProcessLayout {
  const hidden = hiddenNodes(diagram);
  const extent = new Extent();
  const placed = new Map<string, PlacedNode>();
  const nodes: PlacedNode[] = [];
  const place = (node: DiagramNode): void => {
    const box = node.bounds;
    if (box === undefined || hidden.has(node.id) || placed.has(node.id)) return;
    const label =
      outlineOf(node) === "activity" || node.name === ""
        ? undefined
        : (node.label ?? labelBelow(box));
    const p = { node, box, label };
    placed.set(node.id, p);
    nodes.push(p);
    extent.box(box);
    extent.box(label);
  };
  for (const pool of diagram.pools) for (const node of pool.nodes) place(node);
  const flows: PlacedFlow[] = [];
  const route = (
    flow: DiagramFlow,
    message: boolean,
    ends: Map<string, { node: DiagramNode; box: Box }>,
  ): void => {
    const from = ends.get(flow.source);
    const to = ends.get(flow.target);
    if (from === undefined || to === undefined) return;
    const points = flow.waypoints ?? straight(from, to);
    for (const p of points) extent.point(p);
    extent.box(flow.label);
    flows.push({ flow, message, points, label: flow.label });
  };
  for (const pool of diagram.pools) for (const flow of pool.flows) route(flow, false, placed);
  const pools: PlacedPool[] = [];
  const ends = new Map<string, { node: DiagramNode; box: Box }>(placed);
  for (const pool of diagram.pools) {
    if (pool.bounds === undefined) continue;
    extent.box(pool.bounds);
    const lanes = pool.lanes.flatMap((lane) =>
      lane.bounds === undefined ? [] : [{ lane, box: lane.bounds }],
    );
    pools.push({ pool, box: pool.bounds, lanes });
    // A message flow may start or end at a pool (a black box participant).
    if (!ends.has(pool.participantId))
      ends.set(pool.participantId, { node: poolNode(pool, pool.bounds), box: pool.bounds });
  }
  for (const flow of diagram.messageFlows) route(flow, true, ends);
  if (extent.minX === Infinity) {
    return {
      diagram,
      source: "di",
      width: 2 * MARGIN,
      height: 2 * MARGIN,
      pools: [],
      nodes: [],
      flows: [],
      hidden,
    };
  }
  const dx = MARGIN - extent.minX;
  const dy = MARGIN - extent.minY;
  const move = (b: Box): Box => ({
    x: round(b.x + dx),
    y: round(b.y + dy),
    width: round(b.width),
    height: round(b.height),
  });
  const moveMaybe = (b: Box | undefined): Box | undefined =>
    b === undefined ? undefined : move(b);
  return {
    diagram,
    source: "di",
    width: round(extent.maxX - extent.minX + 2 * MARGIN),
    height: round(extent.maxY - extent.minY + 2 * MARGIN),
    pools: pools.map((p) => ({
      pool: p.pool,
      box: move(p.box),
      lanes: p.lanes.map((l) => ({ lane: l.lane, box: move(l.box) })),
    })),
    nodes: nodes.map((n) => ({ node: n.node, box: move(n.box), label: moveMaybe(n.label) })),
    flows: flows.map((f) => ({
      ...f,
      points: f.points.map((p) => ({ x: round(p.x + dx), y: round(p.y + dy) })),
      label: moveMaybe(f.label),
    })),
    hidden,
  };
}
