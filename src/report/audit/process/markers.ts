/**
 * The markers inside BPMN shapes, as SVG fragments: an event's trigger (timer, message, error…,
 * filled when thrown), a gateway's type (×, +, ○…) and a task's type icon (user, service,
 * script…). Drawn from paths scaled to the shape, so they need no font and no image.
 */
import { n } from "./text.js";

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

/** The marker of a gateway's type, centred at `cx`, `cy` in a diamond of half-size `r`. */
export function gatewayMarker(type: string, cx: number, cy: number, r: number): string {
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
