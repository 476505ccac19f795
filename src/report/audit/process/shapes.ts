/**
 * BPMN shapes as SVG, close enough to the notation to read: events as circles (thin to start,
 * double in between, thick to end; dashed when non-interrupting) with their trigger's marker,
 * gateways as diamonds with theirs, tasks as rounded boxes with their type's icon, sub-processes
 * as frames around their content (or a box with `+` when drawn collapsed), pools and lanes as
 * bands. Each function returns an SVG fragment; every name in it is escaped.
 *
 * Drawn here rather than by bpmn-js, the modeller's own renderer: bpmn-js draws into a live DOM
 * in a browser (it needs one to measure text and to export SVG), while the report is written in
 * Node and its page runs no script.
 */
import type { DiagramNode } from "../../../bpmn/index.js";
import { escapeXml } from "../escape.js";
import { outlineOf } from "./shape-size.js";
import { eventMarker, gatewayMarker, taskIcon } from "./markers.js";
import { n, textBlock, textInBox, wrapText } from "./text.js";
import type { Box, PlacedNode, PlacedPool } from "./types.js";

const NAME_SIZE = 12;

function eventShape(p: PlacedNode): string {
  const { node, box } = p;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const r = Math.max(4, Math.min(box.width, box.height) / 2);
  const dash = node.interrupting ? "" : " non-interrupting";
  const end = node.type === "EndEvent";
  const double = node.type.startsWith("Intermediate") || node.type === "BoundaryEvent";
  let out = `<circle class="shape${end ? " end" : ""}${dash}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"/>`;
  if (double)
    out += `<circle class="shape inner${dash}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r - 3)}"/>`;
  const filled = end || node.type === "IntermediateThrowEvent";
  return out + eventMarker(node.trigger, cx, cy, r, filled);
}

function gatewayShape(p: PlacedNode): string {
  const { node, box } = p;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const pts = `${n(cx)},${n(box.y)} ${n(box.x + box.width)},${n(cy)} ${n(cx)},${n(box.y + box.height)} ${n(box.x)},${n(cy)}`;
  return (
    `<polygon class="shape" points="${pts}"/>` +
    gatewayMarker(node.type, cx, cy, Math.min(box.width, box.height) / 2)
  );
}

function rect(b: Box, rx: number, cls: string, inset = 0): string {
  return `<rect class="${cls}" x="${n(b.x + inset)}" y="${n(b.y + inset)}" width="${n(Math.max(b.width - 2 * inset, 0))}" height="${n(Math.max(b.height - 2 * inset, 0))}" rx="${String(rx)}"/>`;
}

/**
 * Whether `p` is drawn as a frame around content: a sub-process with content drawn, or one the
 * DI says is expanded (an empty expanded sub-process is still a frame, not a collapsed box).
 */
export function isFrame(p: PlacedNode, hasContent: boolean): boolean {
  return p.node.container !== "" && (hasContent || p.node.expanded);
}

function activityShape(p: PlacedNode, frame: boolean): string {
  const { node, box } = p;
  const kind = node.container;
  let out = rect(
    box,
    10,
    `shape${kind === "eventSubProcess" ? " dotted" : ""}${node.type === "CallActivity" ? " call" : ""}`,
  );
  if (kind === "transaction") out += rect(box, 8, "shape inner", 3);
  if (frame) {
    const title = wrapText(node.name, NAME_SIZE, Math.max(box.width - 16, 24), 1)[0] ?? "";
    out += `<text class="name frame-name" x="${n(box.x + 8)}" y="${n(box.y + 16)}">${escapeXml(title)}</text>`;
  } else {
    out += taskIcon(node.type, box.x + 6, box.y + 6);
    const text = {
      x: box.x + 4,
      y: box.y + (node.type === "Task" ? 4 : 18),
      width: box.width - 8,
      height: box.height - (node.type === "Task" ? 8 : 30),
    };
    out += textInBox(node.name, text, NAME_SIZE, "name");
    if (kind !== "") {
      // The collapsed marker: a small box with a plus at the bottom centre.
      const cx = box.x + box.width / 2;
      const by = box.y + box.height - 16;
      out += `<rect class="marker" x="${n(cx - 7)}" y="${n(by)}" width="14" height="14"/><path class="marker" d="M${n(cx - 4)},${n(by + 7)} H${n(cx + 4)} M${n(cx)},${n(by + 3)} V${n(by + 11)}"/>`;
    }
  }
  if (kind === "adHoc") {
    const cx = box.x + box.width / 2 + (frame ? 0 : 14);
    const by = box.y + box.height - 9;
    out += `<path class="marker" d="M${n(cx - 6)},${n(by)} C${n(cx - 3)},${n(by - 5)} ${n(cx + 3)},${n(by + 5)} ${n(cx + 6)},${n(by)}"/>`;
  }
  return out;
}

/** The name under an event or a gateway. */
function outsideName(p: PlacedNode): string {
  if (p.label === undefined || p.node.name === "") return "";
  const lines = wrapText(p.node.name, 11, Math.max(p.label.width, 90), 3);
  return textBlock(
    lines,
    p.label.x + p.label.width / 2,
    p.label.y + Math.min(p.label.height, 14 * lines.length) / 2 + 2,
    11,
    "name small",
  );
}

/** The shape of one flow node, its markers and its name (no group, no overlays). */
export function nodeShape(p: PlacedNode, frame: boolean): string {
  switch (outlineOf(p.node)) {
    case "event":
      return eventShape(p) + outsideName(p);
    case "gateway":
      return gatewayShape(p) + outsideName(p);
    case "activity":
      return activityShape(p, frame);
  }
}

/** The CSS classes of a node's group: its outline, its BPMN type, what it is in the review. */
export function nodeClasses(node: DiagramNode, frame: boolean): string {
  const outline = outlineOf(node);
  const kind = frame ? "frame" : outline;
  return `el ${kind} bpmn-${node.type.toLowerCase()}`;
}

/** A pool: its band with the name written upwards, and its lanes. */
export function poolShape(p: PlacedPool): string {
  const { box } = p;
  const band = Math.min(30, box.width);
  const cx = box.x + band / 2;
  const cy = box.y + box.height / 2;
  const name = wrapText(p.pool.name, NAME_SIZE, Math.max(box.height - 10, 24), 1)[0] ?? "";
  let out =
    `<g class="pool" data-element-id="${escapeXml(p.pool.participantId)}"><title>${escapeXml(`${p.pool.name} (${p.pool.participantId}), pool`)}</title>` +
    rect(box, 0, "band") +
    `<path class="band" d="M${n(box.x + band)},${n(box.y)} V${n(box.y + box.height)}"/>` +
    `<text class="name" text-anchor="middle" transform="translate(${n(cx + 4)},${n(cy)}) rotate(-90)">${escapeXml(name)}</text></g>`;
  for (const { lane, box: l } of p.lanes) {
    const lname = wrapText(lane.name, NAME_SIZE, Math.max(l.height - 10, 24), 1)[0] ?? "";
    out +=
      `<g class="lane" data-element-id="${escapeXml(lane.id)}"><title>${escapeXml(`${lane.name} (${lane.id}), lane`)}</title>` +
      rect(l, 0, "band") +
      `<path class="band" d="M${n(l.x + band)},${n(l.y)} V${n(l.y + l.height)}"/>` +
      `<text class="name" text-anchor="middle" transform="translate(${n(l.x + band / 2 + 4)},${n(l.y + l.height / 2)}) rotate(-90)">${escapeXml(lname)}</text></g>`;
  }
  return out;
}
