/**
 * Lays out a workflow's graph with dagre (top to bottom) for the HTML report's SVG diagram, and
 * returns plain data: node boxes and edge polylines, rounded to 1 decimal so the same graph always
 * gives the same bytes. Loop-closing edges are reversed for the layout and drawn back afterwards,
 * so a retry never pulls its target below the decision that sends it back.
 */
import dagre from "@dagrejs/dagre";
import { drawingVerdict, mergeParallelEdges } from "./limits.js";
import type { GraphEdge, GraphNode } from "./types.js";

/** A point of the drawing, in SVG user units. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A laid-out node: its centre, size, and the (possibly shortened) lines drawn inside it. */
export interface NodeBox {
  readonly node: GraphNode;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The label, shortened with `…` when too wide for the box. */
  readonly title: string;
  /** The type (and the id when the label is a name), shortened the same way. */
  readonly subtitle: string;
}

/**
 * A laid-out edge: its polyline from the source's outline to the target's outline. Identical
 * edges (same ends, label and direction) share one path, which says how many it stands for.
 */
export interface EdgePath {
  /** The first of the identical edges this path draws. */
  readonly edge: GraphEdge;
  /** How many identical edges this path draws (1 for most). */
  readonly count: number;
  readonly points: readonly Point[];
  /** Centre of the label box, absent for an edge without a label. */
  readonly labelAt: Point | undefined;
  /** The label, shortened with `…` when too long, then `×n` when the path draws n edges. */
  readonly labelText: string;
}

/** A whole laid-out graph; coordinates start at 0,0 and fit in `width` × `height`. */
export interface WorkflowLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly NodeBox[];
  readonly edges: readonly EdgePath[];
}

// dagre 3's bundled .d.ts imports its own files without extensions, so under NodeNext its
// graphlib and layout types resolve to `any`; this is the part of its API used here, typed.
/** A node dagre has placed. */
export interface DagreNode {
  x: number;
  y: number;
}
/** An edge dagre has routed. */
export interface DagreEdge {
  points?: Point[];
  x?: number;
  y?: number;
}
/** The part of graphlib's Graph that the layouts use. */
export interface DagreGraph {
  setGraph(label: Readonly<Record<string, number | string>>): unknown;
  setNode(id: string, label: { width: number; height: number }): unknown;
  setEdge(
    from: string,
    to: string,
    label: Readonly<Record<string, number | string>>,
    name: string,
  ): unknown;
  node(id: string): DagreNode | undefined;
  edge(from: string, to: string, name: string): DagreEdge | undefined;
  graph(): { width?: number; height?: number };
}
/** dagre's graphlib and layout, typed. */
export interface Dagre {
  graphlib: { Graph: new (options: { multigraph: boolean }) => DagreGraph };
  layout(graph: DagreGraph): unknown;
}
/** dagre, through the typed face above (the process layout uses it too). */
export const lib = dagre as unknown as Dagre;

/** Font sizes shared with the SVG renderer, which draws the text these boxes are sized for. */
export const FONT = { title: 13, subtitle: 11, edge: 11 } as const;

const MAX_TEXT = { node: 200, edge: 150 } as const;
const PAD = 16;
const SLANT = 12;

/**
 * An estimate of the width of `text` in a sans-serif font: the page may not measure text (it
 * runs no script), so boxes are sized from per-character averages, on the generous side.
 */
export function textWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x2e80) em += 1;
    else if ("iljtf.,:;|!'`()[] ".includes(ch)) em += 0.32;
    else if (/[A-Z@mwMW#%&_]/.test(ch)) em += 0.78;
    else em += 0.58;
  }
  return em * size;
}

// Made on first use: creating a segmenter loads ICU's break rules, a share of a bare import.
let graphemes: Intl.Segmenter | undefined;

/**
 * Shortens `text` with `…` until it fits `max` units wide at `size`. One pass over the graphemes
 * that fit, whatever the length of `text`: a label of a million characters costs as much as a
 * short one.
 */
export function fitText(text: string, size: number, max: number): string {
  const ellipsis = textWidth("…", size);
  let width = 0;
  // The longest prefix that still fits with `…` after it, as a length in code units.
  let cut = 0;
  let kept = 0;
  graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  for (const { segment, index } of graphemes.segment(text)) {
    width += textWidth(segment, size);
    if (width > max) {
      // Whole graphemes are dropped, so an emoji or an accented letter is never cut in half,
      // and at least one is kept.
      return text.slice(0, kept === 0 ? index + segment.length : cut) + "…";
    }
    if (width + ellipsis <= max || kept === 0) cut = index + segment.length;
    kept += 1;
  }
  return text;
}

function round(n: number): number {
  // `+ 0` turns -0 into 0, so a value never prints or compares as -0.
  return Math.round(n * 10) / 10 + 0;
}

function box(node: GraphNode): Omit<NodeBox, "x" | "y"> {
  if (node.type === "end") return { node, width: 48, height: 48, title: "end", subtitle: "" };
  const title = fitText(node.label, FONT.title, MAX_TEXT.node);
  const sub = node.label === node.id ? node.type : `${node.type} · ${node.id}`;
  const subtitle = fitText(sub, FONT.subtitle, MAX_TEXT.node);
  const text = Math.max(textWidth(title, FONT.title), textWidth(subtitle, FONT.subtitle), 96);
  if (node.type === "decision") {
    // A diamond holds a text box of half-size (a, b) when a/w + b/h <= 1; with h fixed at
    // b + 22, the half-width follows.
    const b = 18;
    const h = b + 22;
    const w = text / 2 / (1 - b / h);
    return { node, width: round(2 * w), height: 2 * h, title, subtitle };
  }
  const slant = node.type === "tool" ? 2 * SLANT : 0;
  return { node, width: round(text + 2 * PAD + slant), height: 52, title, subtitle };
}

/** Where the segment from the centre of `b` towards `toward` leaves the node's outline. */
function clip(b: NodeBox, toward: Point): Point {
  const dx = toward.x - b.x;
  const dy = toward.y - b.y;
  if (dx === 0 && dy === 0) return { x: b.x, y: b.y };
  const hw = b.width / 2;
  const hh = b.height / 2;
  let t: number;
  if (b.node.type === "end") t = hw / Math.hypot(dx, dy);
  else if (b.node.type === "decision") t = 1 / (Math.abs(dx) / hw + Math.abs(dy) / hh);
  else
    t = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return { x: b.x + dx * t, y: b.y + dy * t };
}

/**
 * Lays out the graph top to bottom. Deterministic: dagre has no randomness, and nodes and edges
 * are added in the report's order. Edges whose ends are not nodes of the graph are left out, and
 * identical edges are laid out once ({@link EdgePath.count} says how many a path draws).
 *
 * Throws a RangeError for a graph over the drawing limit (`DRAWING_LIMIT`: 250 nodes or 250
 * edges, counted after identical edges are merged): dagre's time grows faster than the graph,
 * and its recursion overflows the stack on a chain of about 2,000 nodes. `drawingVerdict` tells
 * first.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { layoutGraph, workflowGraph } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const layout = layoutGraph(workflowGraph(wf, []));
 * // top to bottom, in flow order
 * layout.nodes.map((box) => box.node.id); // → ["llm-1", "tool-2", "dec-3", "#end"]
 * layout.nodes.every((box, i) => i === 0 || box.y > (layout.nodes[i - 1]?.y ?? 0)); // → true
 * layout.edges.length; // → 4
 * ```
 */
export function layoutGraph(graph: {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}): WorkflowLayout {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const merged = mergeParallelEdges(graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to)));
  const verdict = drawingVerdict(ids.size, merged.length, 0);
  if (!verdict.drawn) {
    throw new RangeError(
      `layoutGraph: ${String(verdict.nodes)} nodes and ${String(verdict.edges)} edges exceed the drawing limit of ${String(verdict.limit)} nodes and ${String(verdict.limit)} edges`,
    );
  }
  const g = new lib.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 36, ranksep: 40, edgesep: 16, marginx: 16, marginy: 16 });
  const sized = new Map<string, Omit<NodeBox, "x" | "y">>();
  // graphlib keeps nodes and edges in plain objects keyed by id: a workflow id such as
  // `__proto__` or `constructor` would write into Object.prototype. It only sees `n<k>`.
  const key = new Map<string, string>();
  const k = (id: string): string => key.get(id) ?? "";
  for (const node of graph.nodes) {
    if (sized.has(node.id)) continue;
    const b = box(node);
    sized.set(node.id, b);
    key.set(node.id, `n${key.size}`);
    g.setNode(k(node.id), { width: b.width, height: b.height });
  }
  const drawn = merged.map((m) => m.edge);
  const labels = merged.map(({ edge: e, count }) => {
    const text = fitText(e.label, FONT.edge, MAX_TEXT.edge);
    if (count === 1) return text;
    return text === "" ? `×${String(count)}` : `${text} ×${String(count)}`;
  });
  drawn.forEach((e, i) => {
    const text = labels[i] ?? "";
    const size =
      text === ""
        ? {}
        : { width: round(textWidth(text, FONT.edge) + 10), height: 18, labelpos: "c" };
    // A back edge is laid out forwards (target above source), then its points are reversed.
    if (e.back) g.setEdge(k(e.to), k(e.from), size, `e${i}`);
    else g.setEdge(k(e.from), k(e.to), size, `e${i}`);
  });
  lib.layout(g);

  const nodes: NodeBox[] = [];
  const byId = new Map<string, NodeBox>();
  for (const [id, b] of sized) {
    const at = g.node(k(id));
    const placed = { ...b, x: round(at?.x ?? 0), y: round(at?.y ?? 0) };
    nodes.push(placed);
    byId.set(id, placed);
  }
  const edges = drawn.map((e, i): EdgePath => {
    const laid = e.back ? g.edge(k(e.to), k(e.from), `e${i}`) : g.edge(k(e.from), k(e.to), `e${i}`);
    const raw = [...(laid?.points ?? [])];
    if (e.back) raw.reverse();
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    const second = raw[1];
    const beforeLast = raw[raw.length - 2];
    // dagre ends edges on the bounding box; diamonds and circles need their own outline.
    if (from !== undefined && to !== undefined && e.from !== e.to && second && beforeLast) {
      raw[0] = clip(from, second);
      raw[raw.length - 1] = clip(to, beforeLast);
    }
    const labelText = labels[i] ?? "";
    const labelAt =
      labelText === "" || laid?.x === undefined || laid.y === undefined
        ? undefined
        : { x: round(laid.x), y: round(laid.y) };
    return {
      edge: e,
      count: merged[i]?.count ?? 1,
      points: raw.map((p) => ({ x: round(p.x), y: round(p.y) })),
      labelAt,
      labelText,
    };
  });
  const size = g.graph();
  return { width: round(size.width ?? 0), height: round(size.height ?? 0), nodes, edges };
}
