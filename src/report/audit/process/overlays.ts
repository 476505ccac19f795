/**
 * The review's marks over the process picture: a badge on each agent task (its level and gate
 * status, linked to its first finding), a `gate` tag on each gate, and the AGENT_GATE_BYPASS
 * paths drawn over the flows they take (class `bypass`). Marks name their element in `data-for`,
 * so `data-element-id` stays the element's own shape's. Sizes are estimated like all text here.
 */
import { escapeXml } from "../escape.js";
import { textWidth } from "../layout.js";
import { clipText, TOOLTIP_LIMIT } from "../limits.js";
import { centre, clipTo } from "./geometry.js";
import type { AgentMark, BypassMark, GateMark } from "./marks.js";
import { badgeText, GATE_MARK_TEXT } from "./marks.js";
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
    `<g class="agent-badge status-${mark.mark}" data-for="${escapeXml(p.node.id)}" data-status="${mark.mark}">` +
    `<title>${escapeXml(title)}</title>${pill(text, x, p.box.y - 4)}</g>`;
  return mark.href === undefined ? g : `<a href="${escapeXml(mark.href)}">${g}</a>`;
}

/**
 * The badge of a sub-process drawn collapsed that hides agent tasks: how many, and the worst
 * status among them (e.g. `2 agents · ✖ gate missing`), so the picture does not lose them.
 */
export function hiddenAgentsBadge(p: PlacedNode, count: number, worst: GateMark): string {
  const text = `${String(count)} agent${count === 1 ? "" : "s"} · ${GATE_MARK_TEXT[worst]}`;
  const w = pillWidth(text);
  const x = Math.max(p.box.x + p.box.width - w + 8, p.box.x - 8);
  const title = `${p.node.id}: ${String(count)} agent task(s) inside, drawn collapsed; the worst gate status among them is ${GATE_MARK_TEXT[worst]}`;
  return (
    `<g class="agent-badge hidden-agents status-${worst}" data-for="${escapeXml(p.node.id)}" data-status="${worst}" data-agents="${String(count)}">` +
    `<title>${escapeXml(title)}</title>${pill(text, x, p.box.y - 4)}</g>`
  );
}

/** The `gate` tag of an approval gate, above its upper-left corner. */
export function gateTag(p: PlacedNode): string {
  return (
    `<g class="gate-mark" data-for="${escapeXml(p.node.id)}"><title>${escapeXml(`${p.node.id}: approval gate`)}</title>` +
    pill("◆ gate", p.box.x - 8, p.box.y - 4) +
    `</g>`
  );
}

function polyline(points: readonly XY[]): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${n(p.x)},${n(p.y)}`).join(" ");
}

/**
 * The most bypass findings drawn one by one (each its own linked path). Every bypass path is
 * drawn anyway, each flow and element once, in the shared layer; per-finding groups only add the
 * link to the finding, but each repeats its whole path, so a page grows with findings × path
 * length.
 */
export const BYPASS_LINK_LIMIT = 20;

/** One step of a bypass path as drawn: a flow's id, or two visible elements joined straight. */
interface Step {
  readonly key: string;
  readonly d: string;
}

/**
 * Draws AGENT_GATE_BYPASS paths over a picture. A step from one element to the next follows the
 * flow between them; a step that leaves a sub-process (the path names the element inside, then
 * the one after the sub-process) follows the flow out of the nearest enclosing container, as
 * the modeller does (src/bpmn-js/bypass.ts); an element inside a sub-process drawn collapsed is
 * that sub-process; where no flow joins two elements (a boundary event leaves its host, a
 * sub-process enters its content) they are joined straight.
 */
export class BypassDrawer {
  private readonly parentOf = new Map<string, string>();

  constructor(
    private readonly layout: ProcessLayout,
    private readonly placed: ReadonlyMap<string, PlacedNode>,
    private readonly flowsFrom: ReadonlyMap<string, readonly PlacedFlow[]>,
  ) {
    for (const pool of layout.diagram.pools) {
      for (const node of pool.nodes) {
        if (node.parent !== "" && !this.parentOf.has(node.id))
          this.parentOf.set(node.id, node.parent);
      }
    }
  }

  private visible(id: string): string {
    return this.layout.hidden.get(id) ?? id;
  }

  /** The visible elements and steps of one path, in order. O(path length × nesting depth). */
  steps(path: readonly string[]): { nodes: string[]; steps: Step[] } {
    const nodes: string[] = [];
    const steps: Step[] = [];
    for (const id of path) {
      const v = this.visible(id);
      if (this.placed.has(v) && nodes[nodes.length - 1] !== v) nodes.push(v);
    }
    for (let i = 0; i + 1 < path.length; i++) {
      const a = path[i] ?? "";
      const b = this.visible(path[i + 1] ?? "");
      if (this.visible(a) === b || !this.placed.has(b)) continue;
      let flow: PlacedFlow | undefined;
      for (
        let from: string | undefined = a, seen = new Set<string>();
        from !== undefined && !seen.has(from);
        from = this.parentOf.get(from)
      ) {
        seen.add(from);
        flow = this.flowsFrom.get(this.visible(from))?.find((f) => f.flow.target === b);
        if (flow !== undefined) break;
      }
      if (flow !== undefined) {
        steps.push({ key: `f:${flow.flow.id}`, d: polyline(flow.points) });
        continue;
      }
      const from = this.placed.get(this.visible(a));
      const to = this.placed.get(b);
      if (from === undefined || to === undefined) continue;
      steps.push({
        key: `s:${from.node.id}\u0000${to.node.id}`,
        d: polyline([
          clipTo(from.node, from.box, centre(to.box)),
          clipTo(to.node, to.box, centre(from.box)),
        ]),
      });
    }
    return { nodes, steps };
  }

  /**
   * Every bypass path in one layer (class `bypass`), each flow and element once, then a linked
   * group per listed finding, at most {@link BYPASS_LINK_LIMIT}: the size is O(V + E).
   */
  draw(bypasses: readonly BypassMark[]): string {
    if (bypasses.length === 0) return "";
    const ringed = new Set<string>();
    const drawn = new Set<string>();
    const rings: string[] = [];
    const lines: string[] = [];
    const links: string[] = [];
    for (const bypass of bypasses) {
      const { nodes, steps } = this.steps(bypass.path);
      for (const id of nodes) {
        const p = this.placed.get(id);
        if (p === undefined || ringed.has(id)) continue;
        ringed.add(id);
        const b = p.box;
        rings.push(
          `<rect class="bypass-ring" data-for="${escapeXml(id)}" x="${n(b.x - 4)}" y="${n(b.y - 4)}" width="${n(b.width + 8)}" height="${n(b.height + 8)}" rx="12"/>`,
        );
      }
      for (const step of steps) {
        if (drawn.has(step.key)) continue;
        drawn.add(step.key);
        lines.push(step.d);
      }
      if (bypass.listed && links.length < BYPASS_LINK_LIMIT) {
        const d = steps.map((s) => s.d).join(" ");
        const title = `AGENT_GATE_BYPASS #${String(bypass.finding)}: ${clipText(bypass.path.join(" → "), TOOLTIP_LIMIT)}`;
        links.push(
          `<a href="#finding-${String(bypass.finding)}"><g class="bypass-finding" data-for="${escapeXml(bypass.taskId)}" data-finding="${String(bypass.finding)}">` +
            `<title>${escapeXml(title)}</title>` +
            (d === "" ? "" : `<path class="bypass-hit" d="${d}"/>`) +
            `</g></a>`,
        );
      }
    }
    const d = lines.join(" ");
    const title = `${String(bypasses.length)} AGENT_GATE_BYPASS path(s): from an agent task to an end without an approval gate`;
    return (
      `<g class="bypass" data-findings="${String(bypasses.length)}"><title>${escapeXml(title)}</title>${rings.join("")}` +
      (d === ""
        ? ""
        : `<path class="bypass-under" d="${d}"/><path class="bypass-line" d="${d}"/>`) +
      `</g>${links.join("")}`
    );
  }
}
