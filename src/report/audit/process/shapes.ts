/**
 * BPMN shapes as SVG, close enough to the notation to read: events as circles (thin to start,
 * double in between, thick to end; dashed when non-interrupting) with their trigger's marker,
 * gateways as diamonds with theirs, tasks as rounded boxes with their type's icon, sub-processes
 * as frames around their content (or a box with `+` when drawn collapsed), pools and lanes as
 * bands. Each function returns an SVG fragment; every name in it is escaped.
 */
import type { DiagramNode } from "../../../bpmn/index.js";
import { escapeXml } from "../escape.js";
import { outlineOf } from "./shape-size.js";
import { n, textBlock, textInBox, wrapText } from "./text.js";
import type { Box, PlacedNode, PlacedPool } from "./types.js";

const NAME_SIZE = 12;

/** A closed polygon through `points` ([x, y] pairs), relative to `cx`, `cy`, scaled by `s`. */
function polygon(
  cx: number,
  cy: number,
  s: number,
  points: readonly [number, number][],
  cls: string,
): string {
  const pts = points.map(([x, y]) => `${n(cx + x * s)},${n(cy + y * s)}`).join(" ");
  return `<polygon class="${cls}" points="${pts}"/>`;
}

function envelope(cx: number, cy: number, s: number, filled: boolean): string {
  const w = 12 * s;
  const h = 8 * s;
  const l = cx - w / 2;
  const t = cy - h / 2;
  const cls = filled ? "marker filled" : "marker";
  return (
    `<rect class="${cls}" x="${n(l)}" y="${n(t)}" width="${n(w)}" height="${n(h)}"/>` +
    `<path class="marker${filled ? " inverse" : ""}" d="M${n(l)},${n(t)} L${n(cx)},${n(cy + 1 * s)} L${n(l + w)},${n(t)}"/>`
  );
}

/** The marker of an event's trigger, centred at `cx`, `cy`; `filled` for a throwing event. */
export function eventMarker(
  trigger: string,
  cx: number,
  cy: number,
  r: number,
  filled: boolean,
): string {
  const s = r / 18;
  const f = filled ? "marker filled" : "marker";
  switch (trigger) {
    case "timer":
      return (
        `<circle class="marker" cx="${n(cx)}" cy="${n(cy)}" r="${n(10 * s)}"/>` +
        `<path class="marker" d="M${n(cx)},${n(cy - 7 * s)} L${n(cx)},${n(cy)} L${n(cx + 5 * s)},${n(cy + 2 * s)}"/>`
      );
    case "message":
      return envelope(cx, cy, s, filled);
    case "error":
      return polygon(
        cx,
        cy,
        s,
        [
          [-7, 7],
          [-3, -7],
          [2, 1],
          [7, -7],
          [3, 7],
          [-2, -1],
        ],
        f,
      );
    case "signal":
      return polygon(
        cx,
        cy,
        s,
        [
          [0, -8],
          [8, 6],
          [-8, 6],
        ],
        f,
      );
    case "escalation":
      return polygon(
        cx,
        cy,
        s,
        [
          [0, -8],
          [6, 7],
          [0, 2],
          [-6, 7],
        ],
        f,
      );
    case "conditional":
      return (
        `<rect class="marker" x="${n(cx - 6 * s)}" y="${n(cy - 8 * s)}" width="${n(12 * s)}" height="${n(16 * s)}"/>` +
        [-4, -1, 2, 5]
          .map(
            (d) =>
              `<path class="marker" d="M${n(cx - 4 * s)},${n(cy + d * s)} H${n(cx + 4 * s)}"/>`,
          )
          .join("")
      );
    case "link":
      return polygon(
        cx,
        cy,
        s,
        [
          [-7, -3],
          [1, -3],
          [1, -7],
          [8, 0],
          [1, 7],
          [1, 3],
          [-7, 3],
        ],
        f,
      );
    case "compensate":
      return (
        polygon(
          cx,
          cy,
          s,
          [
            [-8, 0],
            [0, -6],
            [0, 6],
          ],
          f,
        ) +
        polygon(
          cx,
          cy,
          s,
          [
            [0, 0],
            [8, -6],
            [8, 6],
          ],
          f,
        )
      );
    case "terminate":
      return `<circle class="marker filled" cx="${n(cx)}" cy="${n(cy)}" r="${n(10 * s)}"/>`;
    case "cancel":
      return `<path class="marker thick" d="M${n(cx - 6 * s)},${n(cy - 6 * s)} L${n(cx + 6 * s)},${n(cy + 6 * s)} M${n(cx + 6 * s)},${n(cy - 6 * s)} L${n(cx - 6 * s)},${n(cy + 6 * s)}"/>`;
    case "multiple":
      return polygon(
        cx,
        cy,
        s,
        [
          [0, -8],
          [8, -2],
          [5, 7],
          [-5, 7],
          [-8, -2],
        ],
        f,
      );
    default:
      return "";
  }
}

function gatewayMarker(type: string, cx: number, cy: number, r: number): string {
  const s = r / 25;
  const line = (d: string): string => `<path class="marker thick" d="${d}"/>`;
  switch (type) {
    case "ExclusiveGateway":
      return line(
        `M${n(cx - 8 * s)},${n(cy - 8 * s)} L${n(cx + 8 * s)},${n(cy + 8 * s)} M${n(cx + 8 * s)},${n(cy - 8 * s)} L${n(cx - 8 * s)},${n(cy + 8 * s)}`,
      );
    case "ParallelGateway":
      return line(
        `M${n(cx)},${n(cy - 11 * s)} V${n(cy + 11 * s)} M${n(cx - 11 * s)},${n(cy)} H${n(cx + 11 * s)}`,
      );
    case "InclusiveGateway":
      return `<circle class="marker thick" cx="${n(cx)}" cy="${n(cy)}" r="${n(9 * s)}"/>`;
    case "ComplexGateway":
      return line(
        `M${n(cx)},${n(cy - 11 * s)} V${n(cy + 11 * s)} M${n(cx - 11 * s)},${n(cy)} H${n(cx + 11 * s)} M${n(cx - 8 * s)},${n(cy - 8 * s)} L${n(cx + 8 * s)},${n(cy + 8 * s)} M${n(cx + 8 * s)},${n(cy - 8 * s)} L${n(cx - 8 * s)},${n(cy + 8 * s)}`,
      );
    case "EventBasedGateway":
      return (
        `<circle class="marker" cx="${n(cx)}" cy="${n(cy)}" r="${n(12 * s)}"/>` +
        `<circle class="marker" cx="${n(cx)}" cy="${n(cy)}" r="${n(10 * s)}"/>` +
        polygon(
          cx,
          cy,
          s,
          [
            [0, -6],
            [6, -2],
            [4, 5],
            [-4, 5],
            [-6, -2],
          ],
          "marker",
        )
      );
    default:
      return "";
  }
}

/** The icon of a task's type, in its upper-left corner at `x`, `y`. */
export function taskIcon(type: string, x: number, y: number): string {
  const p = (d: string, cls = "marker"): string => `<path class="${cls}" d="${d}"/>`;
  switch (type) {
    case "UserTask":
      return (
        `<circle class="marker" cx="${n(x + 8)}" cy="${n(y + 5)}" r="3.5"/>` +
        p(
          `M${n(x + 1)},${n(y + 16)} C${n(x + 1)},${n(y + 9)} ${n(x + 15)},${n(y + 9)} ${n(x + 15)},${n(y + 16)} Z`,
        )
      );
    case "ServiceTask":
      return (
        `<circle class="marker gear" cx="${n(x + 8)}" cy="${n(y + 8)}" r="6"/>` +
        `<circle class="marker" cx="${n(x + 8)}" cy="${n(y + 8)}" r="2.5"/>`
      );
    case "ScriptTask":
      return p(
        `M${n(x + 3)},${n(y)} H${n(x + 14)} C${n(x + 10)},${n(y + 5)} ${n(x + 16)},${n(y + 11)} ${n(x + 12)},${n(y + 16)} H${n(x + 1)} C${n(x + 5)},${n(y + 11)} ${n(x - 1)},${n(y + 5)} ${n(x + 3)},${n(y)} Z M${n(x + 4)},${n(y + 5)} H${n(x + 10)} M${n(x + 4)},${n(y + 9)} H${n(x + 10)}`,
      );
    case "SendTask":
      return envelope(x + 8, y + 7, 1.2, true);
    case "ReceiveTask":
      return envelope(x + 8, y + 7, 1.2, false);
    case "ManualTask":
      return p(
        `M${n(x)},${n(y + 8)} H${n(x + 14)} M${n(x + 2)},${n(y + 4)} H${n(x + 13)} M${n(x + 2)},${n(y + 12)} H${n(x + 12)} M${n(x)},${n(y + 4)} V${n(y + 14)}`,
      );
    case "BusinessRuleTask":
      return (
        `<rect class="marker" x="${n(x)}" y="${n(y)}" width="16" height="12"/>` +
        p(
          `M${n(x)},${n(y + 4)} H${n(x + 16)} M${n(x)},${n(y + 8)} H${n(x + 16)} M${n(x + 5)},${n(y + 4)} V${n(y + 12)}`,
        ) +
        `<rect class="marker filled" x="${n(x)}" y="${n(y)}" width="16" height="4"/>`
      );
    default:
      return "";
  }
}

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
