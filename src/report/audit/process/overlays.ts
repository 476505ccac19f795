/**
 * The review's marks over the process picture: a badge on each agent task (its level and gate
 * status, linked to its first finding), a `gate` tag on each gate, and each AGENT_GATE_BYPASS
 * path drawn over the flows it takes (class `bypass`). Sizes are estimated like all text here.
 */
import { escapeXml } from "../escape.js";
import { textWidth } from "../layout.js";
import { centre, clipTo } from "./geometry.js";
import type { AgentMark, BypassMark } from "./marks.js";
import { badgeText } from "./marks.js";
import { n } from "./text.js";
import type { PlacedFlow, PlacedNode, ProcessLayout, XY } from "./types.js";

const BADGE_SIZE = 11;

/** A pill's width: bold text runs about a tenth wider than `textWidth` estimates. */
function pillWidth(text: string): number {
  return textWidth(text, BADGE_SIZE) * 1.12 + 14;
}

/** A pill of text whose left end is at `x`, its middle at `y`. */
function pill(text: string, x: number, y: number): string {
  const w = pillWidth(text);
  return (
    `<rect x="${n(x)}" y="${n(y - 9)}" width="${n(w)}" height="18" rx="9"/>` +
    `<text x="${n(x + w / 2)}" y="${n(y + 4)}" text-anchor="middle">${escapeXml(text)}</text>`
  );
}

/** The badge of an agent task, above its upper edge, right-aligned to it. */
export function agentBadge(p: PlacedNode, mark: AgentMark): string {
  const text = badgeText(mark);
  const w = pillWidth(text);
  const x = Math.max(p.box.x + p.box.width - w + 8, p.box.x - 8);
  const title = `${p.node.id}: autonomy level ${mark.level === null ? "unknown" : String(mark.level)}, ${text.slice(text.indexOf("·") + 2)}${mark.findings > 0 ? `, ${String(mark.findings)} finding(s)` : ""}`;
  const g =
    `<g class="agent-badge status-${mark.mark}" data-element-id="${escapeXml(p.node.id)}" data-status="${mark.mark}">` +
    `<title>${escapeXml(title)}</title>${pill(text, x, p.box.y - 4)}</g>`;
  return mark.href === undefined ? g : `<a href="${escapeXml(mark.href)}">${g}</a>`;
}

/** The `gate` tag of an approval gate, above its upper-left corner. */
export function gateTag(p: PlacedNode): string {
  return (
    `<g class="gate-mark" data-element-id="${escapeXml(p.node.id)}"><title>${escapeXml(`${p.node.id}: approval gate`)}</title>` +
    pill("◆ gate", p.box.x - 8, p.box.y - 4) +
    `</g>`
  );
}

function polyline(points: readonly XY[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${n(p.x)},${n(p.y)}`).join(" ");
}

/**
 * The path of one bypass finding over the picture: along the flow between each two elements it
 * names, or straight from one to the next where no flow joins them (a boundary event leaves its
 * host, a sub-process enters its content). An element inside a sub-process drawn collapsed is
 * drawn as that sub-process.
 */
export function bypassPath(
  layout: ProcessLayout,
  placed: ReadonlyMap<string, PlacedNode>,
  flowsFrom: ReadonlyMap<string, readonly PlacedFlow[]>,
  bypass: BypassMark,
): string {
  const visible = (id: string): string => layout.hidden.get(id) ?? id;
  const ids: string[] = [];
  for (const id of bypass.path) {
    const v = visible(id);
    if (placed.has(v) && ids[ids.length - 1] !== v) ids.push(v);
  }
  const segments: string[] = [];
  for (let i = 0; i + 1 < ids.length; i++) {
    const a = ids[i] ?? "";
    const b = ids[i + 1] ?? "";
    const flow = flowsFrom.get(a)?.find((f) => f.flow.target === b);
    if (flow !== undefined) {
      segments.push(polyline(flow.points));
      continue;
    }
    const from = placed.get(a);
    const to = placed.get(b);
    if (from === undefined || to === undefined) continue;
    segments.push(
      polyline([
        clipTo(from.node, from.box, centre(to.box)),
        clipTo(to.node, to.box, centre(from.box)),
      ]),
    );
  }
  const rings = ids.flatMap((id) => {
    const p = placed.get(id);
    if (p === undefined) return [];
    const b = p.box;
    return [
      `<rect class="bypass-ring" x="${n(b.x - 4)}" y="${n(b.y - 4)}" width="${n(b.width + 8)}" height="${n(b.height + 8)}" rx="12"/>`,
    ];
  });
  const d = segments.join(" ");
  const title = `AGENT_GATE_BYPASS #${String(bypass.finding)}: ${bypass.path.join(" → ")}`;
  const g =
    `<g class="bypass" data-element-id="${escapeXml(bypass.taskId)}" data-finding="${String(bypass.finding)}">` +
    `<title>${escapeXml(title)}</title>${rings.join("")}` +
    (d === "" ? "" : `<path class="bypass-under" d="${d}"/><path class="bypass-line" d="${d}"/>`) +
    `</g>`;
  return bypass.listed ? `<a href="#finding-${String(bypass.finding)}">${g}</a>` : g;
}
