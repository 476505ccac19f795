/**
 * A laid-out process as one inline `<svg>`: pools and lanes, sub-process frames, flows, flow
 * nodes, then the review's marks on top (gate tags, agent badges, bypass paths). Every element
 * carries its BPMN id in `data-element-id` (its own shape only: marks on it say `data-for`); ids inside the drawing derive from a caller-given
 * prefix, never from the document, so two pictures in one page cannot clash.
 */
import { escapeXml } from "../escape.js";
import { flowSvg } from "./flows.js";
import type { GateMark, ProcessMarks } from "./marks.js";
import { GATE_MARK_TEXT, GATE_MARKS } from "./marks.js";
import { AGENT_GATE_STATUSES } from "../../../bpmn/index.js";
import { agentBadge, BypassDrawer, gateTag, hiddenAgentsBadge } from "./overlays.js";
import { isFrame, nodeClasses, nodeShape, poolShape } from "./shapes.js";
import { n } from "./text.js";
import type { PlacedFlow, PlacedNode, ProcessLayout } from "./types.js";

/** The process pictures' styles; the page embeds them once. */
export const PROCESS_CSS = `
svg.process { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.process text { font-family: inherit; }
.process .shape { fill: #ffffff; stroke: #1e293b; stroke-width: 1.5; }
.process .shape.end { stroke-width: 3.5; }
.process .shape.inner { fill: none; stroke-width: 1; }
.process .shape.non-interrupting { stroke-dasharray: 5 3; }
.process .shape.dotted { stroke-dasharray: 2 3; }
.process .shape.call { stroke-width: 4; }
.process .frame > .shape { fill: #fbfcfe; }
.process .marker { fill: none; stroke: #1e293b; stroke-width: 1.2; }
.process .marker.thick { stroke-width: 3; }
.process .marker.gear { stroke-width: 3; stroke-dasharray: 2.4 1.8; }
.process .marker.filled { fill: #1e293b; }
.process .marker.inverse { stroke: #ffffff; }
.process .name { font-size: 12px; fill: #0f172a; }
.process .name.small { font-size: 11px; }
.process .frame-name { font-weight: 600; }
.process .band { fill: none; stroke: #475569; stroke-width: 1.2; }
.process .flow .line { fill: none; stroke: #334155; stroke-width: 1.4; }
.process .flow.message .line { stroke-dasharray: 7 4; }
.process .flow-mark { stroke: #334155; stroke-width: 1.4; }
.process .flow-label { fill: #ffffff; fill-opacity: .85; }
.process .flow-name { font-size: 11px; fill: #334155; }
.process .arrow { fill: #334155; }
.process .open { fill: #ffffff; stroke: #334155; stroke-width: 1.2; }
.process .gate > .shape { stroke: #3057b8; stroke-width: 3; fill: #f2f6fd; }
.process .gate-mark rect { fill: #3057b8; }
.process .gate-mark text, .process .agent-badge text { font-size: 11px; font-weight: 700; fill: #ffffff; }
.process .agent-task > .shape { stroke-width: 3; }
.process .agent-task.status-reached > .shape { stroke: #1b7f3b; fill: #e9f6ee; }
.process .agent-task.status-missing > .shape, .process .agent-task.status-bypassed > .shape { stroke: #b42318; fill: #fdeceb; }
.process .agent-task.status-optional > .shape { stroke: #8a5a00; fill: #fff5db; }
.process .agent-task.status-not-needed > .shape { stroke: #526075; fill: #f1f5f9; }
.process .agent-task.status-unresolved > .shape { stroke: #6b3fa0; fill: #f4effa; }
.process .agent-badge.status-reached rect { fill: #1b7f3b; }
.process .agent-badge.status-missing rect, .process .agent-badge.status-bypassed rect { fill: #b42318; }
.process .agent-badge.status-optional rect { fill: #8a5a00; }
.process .agent-badge.status-not-needed rect { fill: #526075; }
.process .agent-badge.status-unresolved rect { fill: #6b3fa0; }
.process .bypass, .process .bypass-finding { pointer-events: visibleStroke; }
.process .bypass-hit { fill: none; stroke: #b42318; stroke-opacity: 0; stroke-width: 10; }
.process .bypass-under { fill: none; stroke: #b42318; stroke-opacity: .25; stroke-width: 10; stroke-linecap: round; stroke-linejoin: round; }
.process .bypass-line { fill: none; stroke: #b42318; stroke-width: 2.5; stroke-dasharray: 8 5; }
.process .bypass-ring { fill: none; stroke: #b42318; stroke-width: 2; stroke-dasharray: 4 3; }
.process a:hover rect, .process a:focus rect { stroke: #0f172a; stroke-width: 2; }
`;

/** Options of {@link renderProcessSvg}. */
export interface ProcessSvgOptions {
  /** Makes the drawing's ids (markers, title) unique in the page, e.g. `process-1`. */
  readonly idPrefix: string;
  /** Accessible name of the drawing. */
  readonly title: string;
}

function defs(prefix: string): string {
  return (
    `<defs>` +
    `<marker id="${prefix}-arrow" viewBox="0 0 10 10" refX="9.5" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto"><path class="arrow" d="M0,0 L10,5 L0,10 z"/></marker>` +
    `<marker id="${prefix}-cond" viewBox="0 0 20 12" refX="0" refY="6" markerUnits="userSpaceOnUse" markerWidth="20" markerHeight="12" orient="auto"><path class="open" d="M1,6 L10,1 L19,6 L10,11 z"/></marker>` +
    `<marker id="${prefix}-msg-start" viewBox="0 0 10 10" refX="5" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto"><circle class="open" cx="5" cy="5" r="4"/></marker>` +
    `<marker id="${prefix}-msg-end" viewBox="0 0 10 10" refX="9.5" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto"><path class="open" d="M0,0 L10,5 L0,10 z"/></marker>` +
    `</defs>`
  );
}

function nodeSvg(p: PlacedNode, frame: boolean, marks: ProcessMarks): string {
  const mark = marks.agents.get(p.node.id);
  let cls = nodeClasses(p.node, frame);
  if (p.node.gate) cls += " gate";
  if (mark !== undefined) cls += ` agent-task status-${mark.mark}`;
  const what = [
    p.node.type,
    p.node.gate ? "approval gate" : "",
    mark === undefined ? "" : "agent task",
  ]
    .filter((s) => s !== "")
    .join(", ");
  const title = `${p.node.name === "" ? "" : `${p.node.name} `}(${p.node.id}), ${what}`;
  return `<g class="${cls}" data-element-id="${escapeXml(p.node.id)}"><title>${escapeXml(title)}</title>${nodeShape(p, frame)}</g>`;
}

/**
 * Draws `layout` as one `<svg class="diagram process">`, sized to it, with the review's marks.
 */
export function renderProcessSvg(
  layout: ProcessLayout,
  marks: ProcessMarks,
  options: ProcessSvgOptions,
): string {
  const prefix = options.idPrefix;
  const placed = new Map<string, PlacedNode>();
  const parents = new Set<string>();
  for (const p of layout.nodes) {
    if (!placed.has(p.node.id)) placed.set(p.node.id, p);
    if (p.node.parent !== "") parents.add(p.node.parent);
  }
  const flowsFrom = new Map<string, PlacedFlow[]>();
  for (const f of layout.flows) {
    const list = flowsFrom.get(f.flow.source);
    if (list === undefined) flowsFrom.set(f.flow.source, [f]);
    else list.push(f);
  }
  const frames: string[] = [];
  const shapes: string[] = [];
  const boundaries: string[] = [];
  const tags: string[] = [];
  for (const p of layout.nodes) {
    const frame = isFrame(p, parents.has(p.node.id));
    const svg = nodeSvg(p, frame, marks);
    if (frame) frames.push(svg);
    else if (p.node.type === "BoundaryEvent") boundaries.push(svg);
    else shapes.push(svg);
    if (p.node.gate) tags.push(gateTag(p));
    const mark = marks.agents.get(p.node.id);
    if (mark !== undefined) tags.push(agentBadge(p, mark));
  }
  // Agent tasks inside a sub-process drawn collapsed: a count and the worst status on its box.
  const inside = new Map<string, { count: number; worst: GateMark }>();
  for (const [id, mark] of marks.agents) {
    const container = layout.hidden.get(id);
    if (container === undefined) continue;
    const seen = inside.get(container);
    if (seen === undefined) inside.set(container, { count: 1, worst: mark.mark });
    else {
      seen.count += 1;
      if (AGENT_GATE_STATUSES.indexOf(mark.mark) < AGENT_GATE_STATUSES.indexOf(seen.worst))
        seen.worst = mark.mark;
    }
  }
  for (const [container, { count, worst }] of inside) {
    const p = placed.get(container);
    if (p !== undefined && !marks.agents.has(container))
      tags.push(hiddenAgentsBadge(p, count, worst));
  }
  const bypasses = new BypassDrawer(layout, placed, flowsFrom).draw(marks.bypasses);
  // Room above the top shapes for their badges.
  const top = 16;
  const w = n(Math.max(layout.width, 1));
  const h = n(Math.max(layout.height + top, 1));
  return [
    `<svg class="diagram process" viewBox="0 ${n(-top)} ${w} ${h}" width="${w}" height="${h}" role="img" aria-labelledby="${prefix}-title" data-layout="${layout.source}">`,
    `<title id="${prefix}-title">${escapeXml(options.title)}</title>`,
    defs(prefix),
    `<g class="pools">${layout.pools.map(poolShape).join("")}</g>`,
    `<g class="frames">${frames.join("")}</g>`,
    `<g class="flows">${layout.flows.map((f) => flowSvg(f, prefix)).join("")}</g>`,
    `<g class="nodes">${shapes.join("")}${boundaries.join("")}</g>`,
    `<g class="bypasses">${bypasses}</g>`,
    `<g class="tags">${tags.join("")}</g>`,
    `</svg>`,
  ].join("\n");
}

/** The key to the marks, as HTML that wraps on a narrow screen: badges, gate tag, bypass path. */
export function processLegendHtml(): string {
  const badges = GATE_MARKS.map(
    (mark) =>
      `<li><span class="key-badge status-${mark}">${escapeXml(`Ln · ${GATE_MARK_TEXT[mark]}`)}</span></li>`,
  );
  return [
    `<ul class="process-key" aria-label="Key to the process drawing">`,
    `<li>Agent task badges (autonomy level n and gate status):</li>`,
    ...badges,
    `<li><span class="key-badge gate">◆ gate</span> an approval gate</li>`,
    `<li><span class="key-bypass" aria-hidden="true"></span> a path from an agent task to an end that passes no gate (AGENT_GATE_BYPASS)</li>`,
    `</ul>`,
  ].join("");
}
