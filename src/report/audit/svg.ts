/**
 * Draws a laid-out workflow as inline SVG for the HTML report: one shape per node type, labelled
 * edges with arrowheads, loop-closing edges dashed, and every node with findings outlined in red,
 * badged with `✖ n` (so the mark does not rely on colour) and linked to its findings in the page.
 * All text is escaped; ids inside the drawing derive from a caller-given prefix, never from
 * document ids, so two diagrams in one page cannot clash.
 */
import { escapeXml } from "./escape.js";
import type { EdgePath, NodeBox, Point, WorkflowLayout } from "./layout.js";
import { FONT, textWidth } from "./layout.js";
import { clipText, TOOLTIP_LIMIT } from "./limits.js";

/** Document text for a tooltip: cut when long (the page's tables keep all of it). */
function clip(text: string): string {
  return clipText(text, TOOLTIP_LIMIT);
}

/** Where a marked node links to, and the codes of its findings (the badge counts them). */
export interface NodeFindingLink {
  /** An in-page fragment, e.g. `#finding-3`; none when none of its findings is listed. */
  readonly href: string | undefined;
  /** One code per finding, repeats included. */
  readonly codes: readonly string[];
}

/** Options of {@link renderWorkflowSvg}. */
export interface SvgOptions {
  /** Makes the drawing's ids (arrow marker, title) unique in the page, e.g. `wf-1`. */
  readonly idPrefix: string;
  /** Accessible name of the drawing. */
  readonly title: string;
  /** Per node id: the link of a node with findings; a node with findings but none here is still marked. */
  readonly links?: ReadonlyMap<string, NodeFindingLink>;
  /**
   * A recorded run's path (the Operation section): these nodes, in the order the run first
   * executed them, are drawn bold and numbered, so the path does not rely on colour.
   */
  readonly visited?: readonly string[];
  /** What a mark counts, in its tooltip: `finding` (default), or `deviation` on a run's path. */
  readonly markNoun?: string;
}

/** The diagram's styles; the page embeds them once (the SVG is inline, so they apply). */
export const DIAGRAM_CSS = `
svg.diagram { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.diagram text { font-family: inherit; }
.diagram .edge { fill: none; stroke: #64748b; stroke-width: 1.5; }
.diagram .edge.back { stroke-dasharray: 6 4; }
.diagram .arrow { fill: #64748b; }
.diagram .edge-label rect { fill: #ffffff; stroke: #e2e8f0; }
.diagram .edge-label text { font-size: 11px; fill: #334155; }
.diagram .shape { stroke-width: 1.5; }
.diagram .llm .shape { fill: #eef4ff; stroke: #3b63c4; }
.diagram .tool .shape { fill: #ecf8f1; stroke: #2f855a; }
.diagram .decision .shape { fill: #fff7e0; stroke: #b7791f; }
.diagram .delegate .shape { fill: #f4efff; stroke: #6b46c1; }
.diagram .end .shape { fill: #f1f5f9; stroke: #1e293b; stroke-width: 3; }
.diagram .has-findings .shape { stroke: #c62828; stroke-width: 2.5; }
.diagram .title { font-size: 13px; font-weight: 600; fill: #0f172a; }
.diagram .subtitle { font-size: 11px; fill: #475569; }
.diagram .badge rect { fill: #c62828; }
.diagram .badge text { font-size: 11px; font-weight: 700; fill: #ffffff; }
.diagram a:hover .shape, .diagram a:focus .shape { stroke-width: 4; }
.diagram .visited .shape { stroke: #0f172a; stroke-width: 3.5; }
.diagram .visited.has-findings .shape { stroke: #c62828; }
.diagram .order circle { fill: #0f172a; }
.diagram .order text { font-size: 11px; font-weight: 700; fill: #ffffff; }
`;

function n(v: number): string {
  return String(Math.round(v * 10) / 10 + 0);
}

function pt(p: Point): string {
  return `${n(p.x)},${n(p.y)}`;
}

/** A smooth curve through the points (Catmull-Rom as cubic Béziers), ending along the last leg. */
function curve(points: readonly Point[]): string {
  const first = points[0];
  if (first === undefined) return "";
  let d = `M${pt(first)}`;
  for (let i = 0; i + 1 < points.length; i++) {
    const p0 = points[i - 1] ?? first;
    const p1 = points[i] ?? first;
    const p2 = points[i + 1] ?? p1;
    const p3 = points[i + 2] ?? p2;
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += ` C${pt(c1)} ${pt(c2)} ${pt(p2)}`;
  }
  return d;
}

function edge(e: EdgePath, arrowId: string): string {
  const cls = e.edge.back ? "edge back" : "edge";
  const path = `<path class="${cls}" d="${curve(e.points)}" marker-end="url(#${arrowId})"/>`;
  if (e.labelAt === undefined) return path;
  const w = textWidth(e.labelText, FONT.edge) + 10;
  const { x, y } = e.labelAt;
  return (
    path +
    `<g class="edge-label"><title>${escapeXml(clip(e.edge.label) + (e.count === 1 ? "" : ` (${String(e.count)} identical edges)`))}</title>` +
    `<rect x="${n(x - w / 2)}" y="${n(y - 9)}" width="${n(w)}" height="18" rx="4"/>` +
    `<text x="${n(x)}" y="${n(y + 4)}" text-anchor="middle">${escapeXml(e.labelText)}</text></g>`
  );
}

function shape(b: NodeBox): string {
  const l = b.x - b.width / 2;
  const t = b.y - b.height / 2;
  const r = b.x + b.width / 2;
  const bottom = b.y + b.height / 2;
  const rect = (inset: number, rx: number, cls: string): string =>
    `<rect class="${cls}" x="${n(l + inset)}" y="${n(t + inset)}" width="${n(b.width - 2 * inset)}" height="${n(b.height - 2 * inset)}" rx="${String(rx)}"/>`;
  switch (b.node.type) {
    case "llm":
      return rect(0, 12, "shape");
    case "tool":
      return `<polygon class="shape" points="${pt({ x: l + 12, y: t })} ${pt({ x: r, y: t })} ${pt({ x: r - 12, y: bottom })} ${pt({ x: l, y: bottom })}"/>`;
    case "decision":
      return `<polygon class="shape" points="${pt({ x: b.x, y: t })} ${pt({ x: r, y: b.y })} ${pt({ x: b.x, y: bottom })} ${pt({ x: l, y: b.y })}"/>`;
    case "delegate":
      return rect(0, 3, "shape") + rect(4, 2, "shape inner");
    case "end":
      return `<circle class="shape" cx="${n(b.x)}" cy="${n(b.y)}" r="${n(b.width / 2 - 1.5)}"/>`;
  }
}

/** Where a node's badge sits: on its upper-right outline. */
function badgeAt(b: NodeBox): Point {
  if (b.node.type === "decision") return { x: b.x + b.width / 4 + 6, y: b.y - b.height / 4 - 6 };
  if (b.node.type === "end") return { x: b.x + b.width * 0.36, y: b.y - b.height * 0.36 };
  return { x: b.x + b.width / 2 - 10, y: b.y - b.height / 2 };
}

function node(b: NodeBox, options: SvgOptions, order: ReadonlyMap<string, number>): string {
  const link = options.links?.get(b.node.id);
  const noun = options.markNoun ?? "finding";
  const step = order.get(b.node.id);
  const codes = link?.codes ?? b.node.findings;
  const count = codes.length;
  const marked = count > 0 || b.node.findings.length > 0;
  const about =
    (marked
      ? ` — ✖ ${String(count)} ${noun}(s): ${[...new Set(codes)].join(", ")}`
      : ` — no ${noun}s`) + (step === undefined ? "" : ` — executed by the run, (${String(step)})`);
  const id = clip(b.node.id);
  const label = b.node.label === b.node.id ? id : `${clip(b.node.label)} (${id})`;
  let body = `<title>${escapeXml(`${label}, ${b.node.type}${about}`)}</title>` + shape(b);
  if (b.node.type === "end") {
    body += `<text class="title" x="${n(b.x)}" y="${n(b.y + 4)}" text-anchor="middle">end</text>`;
  } else {
    body +=
      `<text class="title" x="${n(b.x)}" y="${n(b.y - 3)}" text-anchor="middle">${escapeXml(b.title)}</text>` +
      `<text class="subtitle" x="${n(b.x)}" y="${n(b.y + 13)}" text-anchor="middle">${escapeXml(b.subtitle)}</text>`;
  }
  if (marked) {
    const at = badgeAt(b);
    const text = `✖ ${String(count)}`;
    const w = 14 + text.length * 6;
    body +=
      `<g class="badge"><rect x="${n(at.x - w / 2)}" y="${n(at.y - 9)}" width="${n(w)}" height="18" rx="9"/>` +
      `<text x="${n(at.x)}" y="${n(at.y + 4)}" text-anchor="middle">${escapeXml(text)}</text></g>`;
  }
  if (step !== undefined) {
    const at = { x: b.x - b.width / 2 + 2, y: b.y - b.height / 2 };
    body +=
      `<g class="order"><circle cx="${n(at.x)}" cy="${n(at.y)}" r="9"/>` +
      `<text x="${n(at.x)}" y="${n(at.y + 4)}" text-anchor="middle">${String(step)}</text></g>`;
  }
  const cls = `node ${b.node.type}${marked ? " has-findings" : ""}${step === undefined ? "" : " visited"}`;
  const g = `<g class="${cls}" data-node-id="${escapeXml(b.node.id)}">${body}</g>`;
  return link?.href === undefined ? g : `<a href="${escapeXml(link.href)}">${g}</a>`;
}

/** Draws a laid-out graph as one `<svg>` element, sized to the layout. */
export function renderWorkflowSvg(layout: WorkflowLayout, options: SvgOptions): string {
  const prefix = options.idPrefix;
  const arrow = `${prefix}-arrow`;
  const w = n(Math.max(layout.width, 1));
  const h = n(Math.max(layout.height, 1));
  const order = new Map<string, number>();
  options.visited?.forEach((id, i) => {
    if (!order.has(id)) order.set(id, i + 1);
  });
  return [
    `<svg class="diagram" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-labelledby="${prefix}-title">`,
    `<title id="${prefix}-title">${escapeXml(options.title)}</title>`,
    `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto"><path class="arrow" d="M0,0 L10,5 L0,10 z"/></marker></defs>`,
    `<g class="edges">${layout.edges.map((e) => edge(e, arrow)).join("")}</g>`,
    `<g class="nodes">${layout.nodes.map((b) => node(b, options, order)).join("")}</g>`,
    `</svg>`,
  ].join("\n");
}

/** A key to the diagram's shapes and marks, drawn with the same styles. */
export function renderLegendSvg(): string {
  const items: [string, string, string][] = [
    ["llm", "llm", `<rect class="shape" x="0" y="3" width="28" height="16" rx="5"/>`],
    ["tool", "tool", `<polygon class="shape" points="5,3 28,3 23,19 0,19"/>`],
    ["decision", "decision", `<polygon class="shape" points="14,1 28,11 14,21 0,11"/>`],
    [
      "delegate",
      "delegate",
      `<rect class="shape" x="0" y="3" width="28" height="16" rx="2"/><rect class="shape" x="3" y="6" width="22" height="10" rx="1"/>`,
    ],
    ["end", "end", `<circle class="shape" cx="14" cy="11" r="8"/>`],
    [
      "✖ n: has findings (linked)",
      "llm has-findings",
      `<rect class="shape" x="0" y="3" width="28" height="16" rx="5"/>`,
    ],
    ["loops back", "", `<path class="edge back" d="M0,11 L28,11"/>`],
  ];
  let x = 0;
  const parts = items.map(([label, cls, icon]) => {
    const out =
      `<g class="node ${cls}" transform="translate(${String(x)},0)">${icon}` +
      `<text class="subtitle" x="34" y="15">${escapeXml(label)}</text></g>`;
    x += 50 + textWidth(label, FONT.subtitle);
    return out;
  });
  const width = n(x);
  return `<svg class="diagram legend" viewBox="0 0 ${width} 22" width="${width}" height="22" role="img" aria-label="Key: node shapes and marks">${parts.join("")}</svg>`;
}
