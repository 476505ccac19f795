/**
 * A process diagram laid out by agentflow, for a file without BPMN DI (or with only part of it):
 * left to right with dagre, one container at a time (deepest sub-process first, so each
 * sub-process is a box the size of its laid-out content in its parent), boundary events on their
 * host's lower edge, each participant's process in a pool below the previous one. Callers keep
 * the diagram within `DRAWING_LIMIT` (`processDrawing`): dagre's time grows faster than the graph.
 */
import type { DiagramFlow, DiagramNode, DiagramPool, ProcessDiagram } from "../../../bpmn/index.js";
import { FONT, lib, textWidth } from "../layout.js";
import { centre, clipTo, round, straight } from "./geometry.js";
import { defaultSize, outlineOf, poolNode } from "./shape-size.js";
import type { Box, PlacedFlow, PlacedNode, PlacedPool, ProcessLayout, XY } from "./types.js";

/** Room above a sub-process's content for its name. */
const TITLE = 24;
/** Width of a pool's name band. */
const BAND = 30;
const GAP = 24;

interface Relative {
  readonly width: number;
  readonly height: number;
  /** Per member id: its box, relative to the container's content. */
  readonly boxes: Map<string, Box>;
  /** Per flow id: its points, relative to the container's content. */
  readonly routes: Map<string, XY[]>;
  readonly labels: Map<string, Box>;
}

function labelBelow(b: Box): Box {
  const width = Math.max(b.width + 60, 90);
  return { x: b.x + b.width / 2 - width / 2, y: b.y + b.height + 4, width, height: 40 };
}

/**
 * A member's box in its container: a laid-out sub-process's own size under its title, else the
 * modeller's default; `extra` is the room below an event or a gateway for its name, so that
 * neighbours do not cover it.
 */
function sizeIn(
  node: DiagramNode,
  sizes: ReadonlyMap<string, Relative>,
): { width: number; height: number; extra: number } {
  const inner = sizes.get(node.id);
  const size =
    inner === undefined || inner.boxes.size === 0
      ? defaultSize(node)
      : { width: inner.width, height: inner.height + TITLE };
  const extra = outlineOf(node) === "activity" || node.name === "" ? 0 : 30;
  return { width: size.width, height: size.height, extra };
}

/** Lays out the members of one container; `sizes` holds the laid-out sub-processes among them. */
function layoutContainer(
  members: readonly DiagramNode[],
  flows: readonly DiagramFlow[],
  hostOf: ReadonlyMap<string, string>,
  sizes: ReadonlyMap<string, Relative>,
): Relative {
  const g = new lib.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 50, ranksep: 60, edgesep: 20, marginx: 20, marginy: 20 });
  // graphlib keys nodes by plain-object property: it only ever sees `n<k>`, never a document id.
  const key = new Map<string, string>();
  for (const node of members) {
    if (key.has(node.id)) continue;
    key.set(node.id, `n${String(key.size)}`);
    const { width, height, extra } = sizeIn(node, sizes);
    g.setNode(key.get(node.id) ?? "", { width, height: height + extra });
  }
  flows.forEach((flow, i) => {
    const from = key.get(hostOf.get(flow.source) ?? flow.source);
    const to = key.get(flow.target);
    if (from === undefined || to === undefined || hostOf.has(flow.source)) {
      // A boundary event's flow still pulls its target after the host.
      if (from !== undefined && to !== undefined) g.setEdge(from, to, {}, `b${String(i)}`);
      return;
    }
    const label =
      flow.name === ""
        ? {}
        : {
            width: round(Math.min(textWidth(flow.name, FONT.edge), 150) + 10),
            height: 18,
            labelpos: "c",
          };
    g.setEdge(from, to, label, `e${String(i)}`);
  });
  lib.layout(g);
  const boxes = new Map<string, Box>();
  for (const node of members) {
    const at = g.node(key.get(node.id) ?? "");
    if (at === undefined || boxes.has(node.id)) continue;
    const { width, height, extra } = sizeIn(node, sizes);
    boxes.set(node.id, {
      x: round(at.x - width / 2),
      y: round(at.y - (height + extra) / 2),
      width,
      height,
    });
  }
  const routes = new Map<string, XY[]>();
  const labels = new Map<string, Box>();
  flows.forEach((flow, i) => {
    const from = key.get(flow.source);
    const to = key.get(flow.target);
    if (from === undefined || to === undefined) return;
    const edge = g.edge(from, to, `e${String(i)}`);
    if (edge?.points === undefined) return;
    routes.set(
      flow.id,
      edge.points.map((p) => ({ x: round(p.x), y: round(p.y) })),
    );
    if (flow.name !== "" && edge.x !== undefined && edge.y !== undefined) {
      const width = Math.min(textWidth(flow.name, FONT.edge), 150) + 10;
      labels.set(flow.id, {
        x: round(edge.x - width / 2),
        y: round(edge.y - 9),
        width,
        height: 18,
      });
    }
  });
  const size = g.graph();
  return { width: round(size.width ?? 0), height: round(size.height ?? 0), boxes, routes, labels };
}

interface PoolLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: PlacedNode[];
  readonly flows: PlacedFlow[];
}

/** Lays out one pool's process with its content starting at 0,0. */
function layoutPool(pool: DiagramPool): PoolLayout {
  const hostOf = new Map<string, string>();
  const members = new Map<string, DiagramNode[]>();
  const containers: string[] = [""];
  const seen = new Set<string>();
  for (const node of pool.nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    if (node.attachedTo !== "" && node.type === "BoundaryEvent") {
      hostOf.set(node.id, node.attachedTo);
      continue;
    }
    const list = members.get(node.parent);
    if (list === undefined) members.set(node.parent, [node]);
    else list.push(node);
    if (node.container !== "") containers.push(node.id);
  }
  const byParent = new Map<string, DiagramFlow[]>();
  const parentOf = new Map<string, string>(pool.nodes.map((n) => [n.id, n.parent]));
  for (const flow of pool.flows) {
    const parent = parentOf.get(flow.target);
    if (parent === undefined) continue;
    const list = byParent.get(parent);
    if (list === undefined) byParent.set(parent, [flow]);
    else list.push(flow);
  }
  // Containers are listed parents first: laid out in reverse, each sub-process's content is
  // ready when its parent needs its size.
  const laid = new Map<string, Relative>();
  for (let i = containers.length - 1; i >= 0; i--) {
    const id = containers[i] ?? "";
    laid.set(id, layoutContainer(members.get(id) ?? [], byParent.get(id) ?? [], hostOf, laid));
  }
  const nodes: PlacedNode[] = [];
  const placed = new Map<string, PlacedNode>();
  const flows: PlacedFlow[] = [];
  const routed = new Set<string>();
  const pending: { id: string; at: XY }[] = [{ id: "", at: { x: 0, y: 0 } }];
  // The loop also visits the sub-processes appended while it runs.
  for (const { id, at } of pending) {
    const rel = laid.get(id);
    if (rel === undefined) continue;
    for (const node of members.get(id) ?? []) {
      const b = rel.boxes.get(node.id);
      if (b === undefined || placed.has(node.id)) continue;
      const box = { x: round(b.x + at.x), y: round(b.y + at.y), width: b.width, height: b.height };
      const p = {
        node,
        box,
        label: outlineOf(node) === "activity" || node.name === "" ? undefined : labelBelow(box),
      };
      placed.set(node.id, p);
      nodes.push(p);
      if (node.container !== "") pending.push({ id: node.id, at: { x: box.x, y: box.y + TITLE } });
    }
    for (const flow of byParent.get(id) ?? []) {
      const points = rel.routes.get(flow.id);
      const from = placed.get(flow.source);
      const to = placed.get(flow.target);
      if (points === undefined || from === undefined || to === undefined) continue;
      const moved = points.map((p) => ({ x: round(p.x + at.x), y: round(p.y + at.y) }));
      const second = moved[1];
      const beforeLast = moved[moved.length - 2];
      if (second !== undefined && beforeLast !== undefined) {
        moved[0] = clipTo(from.node, from.box, second);
        moved[moved.length - 1] = clipTo(to.node, to.box, beforeLast);
      }
      const label = rel.labels.get(flow.id);
      flows.push({
        flow,
        message: false,
        points: moved,
        label:
          label === undefined
            ? undefined
            : { ...label, x: round(label.x + at.x), y: round(label.y + at.y) },
      });
      routed.add(flow.id);
    }
  }
  // Boundary events on their host's lower edge, spread along it.
  const onHost = new Map<string, number>();
  for (const host of hostOf.values()) onHost.set(host, (onHost.get(host) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const node of pool.nodes) {
    const host = placed.get(hostOf.get(node.id) ?? "");
    if (host === undefined || placed.has(node.id)) continue;
    const k = index.get(host.node.id) ?? 0;
    index.set(host.node.id, k + 1);
    const n = onHost.get(host.node.id) ?? 1;
    const cx = host.box.x + (host.box.width * (k + 1)) / (n + 1);
    const box = {
      x: round(cx - 18),
      y: round(host.box.y + host.box.height - 18),
      width: 36,
      height: 36,
    };
    const p = { node, box, label: node.name === "" ? undefined : labelBelow(box) };
    placed.set(node.id, p);
    nodes.push(p);
  }
  for (const flow of pool.flows) {
    if (routed.has(flow.id)) continue;
    const from = placed.get(flow.source);
    const to = placed.get(flow.target);
    if (from === undefined || to === undefined) continue;
    let points: XY[];
    if (hostOf.has(flow.source)) {
      // Down from the event, then across: how a modeller routes a boundary event's flow. To a
      // target above, across below the host first and up into the target, never through it.
      const start = { x: round(from.box.x + 18), y: round(from.box.y + 36) };
      const goal = centre(to.box);
      if (goal.y > start.y + 20) {
        const corner = { x: start.x, y: round(goal.y) };
        points = [start, corner, clipTo(to.node, to.box, corner)];
      } else {
        const low = round(start.y + 14);
        const under = { x: round(goal.x), y: low };
        points = [start, { x: start.x, y: low }, under, clipTo(to.node, to.box, under)];
      }
    } else points = straight(from, to);
    flows.push({ flow, message: false, points, label: undefined });
  }
  const root = laid.get("");
  return { width: root?.width ?? 0, height: root?.height ?? 0, nodes, flows };
}

/**
 * Lays `diagram` out with dagre: a process alone, or each participant's process in its pool,
 * pools stacked top to bottom, message flows straight between their ends. Lanes are drawn only
 * from DI (a computed layout does not know which band a node belongs in).
 */
export function layoutWithDagre(diagram: ProcessDiagram): ProcessLayout {
  const laid = diagram.pools.map(layoutPool);
  const banded = diagram.pools.some((p) => p.participantId !== "");
  const inner = laid.reduce((widest, l) => Math.max(widest, l.width), 120);
  const width = banded ? inner + BAND : inner;
  const pools: PlacedPool[] = [];
  const nodes: PlacedNode[] = [];
  const flows: PlacedFlow[] = [];
  let y = banded ? GAP / 2 : 0;
  diagram.pools.forEach((pool, i) => {
    const l = laid[i] ?? { width: 0, height: 0, nodes: [], flows: [] };
    const dx = banded ? BAND + GAP / 2 : 0;
    const height = Math.max(l.height, banded ? 100 : 0);
    const shift = (b: Box): Box => ({ ...b, x: round(b.x + dx), y: round(b.y + y) });
    for (const n of l.nodes) {
      nodes.push({ node: n.node, box: shift(n.box), label: n.label && shift(n.label) });
    }
    for (const f of l.flows) {
      flows.push({
        ...f,
        points: f.points.map((p) => ({ x: round(p.x + dx), y: round(p.y + y) })),
        label: f.label && shift(f.label),
      });
    }
    if (banded) pools.push({ pool, box: { x: GAP / 2, y, width, height }, lanes: [] });
    y += height + (banded ? GAP : 0);
  });
  const ends = new Map<string, { node: DiagramNode; box: Box }>();
  for (const n of nodes) if (!ends.has(n.node.id)) ends.set(n.node.id, n);
  for (const p of pools) {
    if (ends.has(p.pool.participantId)) continue;
    ends.set(p.pool.participantId, {
      node: poolNode(p.pool, undefined),
      box: p.box,
    });
  }
  for (const flow of diagram.messageFlows) {
    const from = ends.get(flow.source);
    const to = ends.get(flow.target);
    if (from === undefined || to === undefined) continue;
    flows.push({ flow, message: true, points: straight(from, to), label: undefined });
  }
  // Boundary events hang below their host, and their flows route under it: the picture grows
  // to hold whatever ends up past dagre's extent.
  let right = width + (banded ? GAP : 0);
  let bottom = Math.max(y, 60);
  const grow = (x: number, yy: number): void => {
    right = Math.max(right, x + 10);
    bottom = Math.max(bottom, yy + 10);
  };
  for (const n of nodes) {
    grow(n.box.x + n.box.width, n.box.y + n.box.height);
    if (n.label !== undefined) grow(n.label.x + n.label.width, n.label.y + n.label.height);
  }
  for (const f of flows) for (const p of f.points) grow(p.x, p.y);
  return {
    diagram,
    source: "dagre",
    width: round(right),
    height: round(bottom),
    pools,
    nodes,
    flows,
    hidden: new Map(),
  };
}
