/**
 * Sequence and message flows as SVG: a polyline with an arrowhead, a slash at the start of a
 * gateway's default flow, a diamond at the start of a conditional flow from an activity, message
 * flows dashed with an open circle and an open arrowhead. Names sit at their DI label or halfway.
 */
import { escapeXml } from "../escape.js";
import { textWidth } from "../layout.js";
import { n, textBlock, wrapText } from "./text.js";
import type { PlacedFlow, XY } from "./types.js";

/** The flow's halfway point along its polyline, where a name without DI bounds is written. */
function halfway(points: readonly XY[]): XY {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (a !== undefined && b !== undefined) total += Math.hypot(b.x - a.x, b.y - a.y);
  }
  let left = total / 2;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (a === undefined || b === undefined) continue;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len >= left && len > 0)
      return { x: a.x + ((b.x - a.x) * left) / len, y: a.y + ((b.y - a.y) * left) / len };
    left -= len;
  }
  return points[0] ?? { x: 0, y: 0 };
}

/** The slash across the start of a default flow. */
function slash(points: readonly XY[]): string {
  const a = points[0];
  const b = points[1];
  if (a === undefined || b === undefined) return "";
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const c = { x: a.x + ux * 10, y: a.y + uy * 10 };
  return `<path class="flow-mark" d="M${n(c.x - uy * 6 - ux * 3)},${n(c.y + ux * 6 - uy * 3)} L${n(c.x + uy * 6 + ux * 3)},${n(c.y - ux * 6 + uy * 3)}"/>`;
}

/** One flow: its line, marks and name, in a group carrying its BPMN id. */
export function flowSvg(f: PlacedFlow, prefix: string): string {
  const d = f.points.map((p, i) => `${i === 0 ? "M" : "L"}${n(p.x)},${n(p.y)}`).join(" ");
  const cls = f.message ? "flow message" : `flow${f.flow.isDefault ? " default" : ""}`;
  const start = f.message
    ? ` marker-start="url(#${prefix}-msg-start)"`
    : f.flow.conditional
      ? ` marker-start="url(#${prefix}-cond)"`
      : "";
  const end = f.message ? `${prefix}-msg-end` : `${prefix}-arrow`;
  let out = `<path class="line" d="${d}"${start} marker-end="url(#${end})"/>`;
  if (f.flow.isDefault && !f.message) out += slash(f.points);
  // A name of spaces only wraps to no line, and the widest of no line is -Infinity: no label.
  const lines =
    f.flow.name.trim() === ""
      ? []
      : wrapText(f.flow.name, 11, Math.max(f.label?.width ?? 0, 140), 2);
  if (lines.length > 0) {
    const at =
      f.label === undefined
        ? halfway(f.points)
        : { x: f.label.x + f.label.width / 2, y: f.label.y + f.label.height / 2 };
    const w = Math.max(...lines.map((l) => textWidth(l, 11))) + 8;
    const h = 14 * lines.length + 2;
    out +=
      `<rect class="flow-label" x="${n(at.x - w / 2)}" y="${n(at.y - h / 2)}" width="${n(w)}" height="${n(h)}" rx="3"/>` +
      textBlock(lines, at.x, at.y, 11, "flow-name");
  }
  const kind = f.message ? "message flow" : "sequence flow";
  const title = `${f.flow.name === "" ? "" : `${f.flow.name} `}(${f.flow.id}), ${kind} ${f.flow.source} → ${f.flow.target}`;
  return `<g class="${cls}" data-element-id="${escapeXml(f.flow.id)}"><title>${escapeXml(title)}</title>${out}</g>`;
}
