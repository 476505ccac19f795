/**
 * How far a report goes on a big or hostile workflow, and the sentences that say so
 * (docs/report.md). A graph over the drawing limit is not drawn: the renderers print
 * {@link notDrawnNote} and list every node and edge in tables instead. A big workflow is explored
 * in fewer runs ({@link exploreRunBound}); a rule lists at most {@link FINDINGS_LIMIT} findings;
 * long labels are cut in the pictures only. Both renderers take their wording from here, so the
 * Markdown and the HTML say the same thing.
 */
import { DEFAULT_MAX_STEPS } from "../../simulate/index.js";
import type { DrawingVerdict, GraphEdge, GraphNode, WorkflowAudit } from "./types.js";

/**
 * The most nodes, and the most edges, a report draws: dagre's layout time grows faster than the
 * graph (a few hundred milliseconds at this size), and it overflows the stack on a chain of about
 * 2,000; a picture that big is past reading anyway.
 */
export const DRAWING_LIMIT = 250;

/**
 * The most findings of one rule a report lists. The rule's row still counts all of them; a page
 * of 200,000 findings of one rule would be 64 MB that no reviewer reads and a browser can hardly
 * open (`agentflow check --format json` gives every finding as data).
 */
export const FINDINGS_LIMIT = 1_000;

/** The line that ends a rule's listed findings when it has more than {@link FINDINGS_LIMIT}. */
export function unlistedNote(code: string, total: number): string | undefined {
  if (total <= FINDINGS_LIMIT) return undefined;
  return `… and ${count(total - FINDINGS_LIMIT)} more ${code} finding(s), not listed: the report lists at most ${count(FINDINGS_LIMIT)} per rule (agentflow check --format json lists them all).`;
}

/** The heading of the section on what an import declared, and the note past the listing limit. */
export function importedHeading(title: string, total: number): string {
  return `Imported from ${title}: ${count(total)} declared loss(es) or guess(es)`;
}

/** The note after {@link FINDINGS_LIMIT} listed import warnings, or undefined. */
export function importUnlistedNote(total: number): string | undefined {
  if (total <= FINDINGS_LIMIT) return undefined;
  return `… and ${count(total - FINDINGS_LIMIT)} more, not listed: the report lists at most ${count(FINDINGS_LIMIT)} (agentflow check --format json lists them all).`;
}

/** The most characters of document text in a tooltip of the drawing. */
export const TOOLTIP_LIMIT = 500;

/** The most runs a report explores. */
export const EXPLORE_RUNS = 200;

/**
 * Runs times graph size (nodes and edges) that a report's exploration may spend: a run costs
 * about the size of the workflow, so a big workflow gets fewer runs.
 */
export const EXPLORE_WORK = 200_000;

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * The verdict on a graph with `nodes` and `edges` (`dangling` of which end at a missing node).
 *
 * @example
 * ```ts
 * import { drawingVerdict } from "agentflow/report";
 *
 * drawingVerdict(4, 12, 0).drawn; // → true
 * drawingVerdict(100_000, 99_999, 0).drawn; // → false
 * ```
 */
export function drawingVerdict(nodes: number, edges: number, dangling: number): DrawingVerdict {
  const drawn = nodes <= DRAWING_LIMIT && edges <= DRAWING_LIMIT;
  return { drawn, nodes, edges, dangling, limit: DRAWING_LIMIT };
}

/**
 * What a report prints instead of a graph it does not draw.
 *
 * @example
 * ```ts
 * import { drawingVerdict, notDrawnNote } from "agentflow/report";
 *
 * notDrawnNote(drawingVerdict(100_000, 99_999, 0));
 * // → "Graph not drawn: 100,000 nodes and 99,999 edges exceed the drawing limit of 250 nodes and 250 edges. The tables below list every node and every edge."
 * ```
 */
export function notDrawnNote(v: DrawingVerdict): string {
  const sizes = `${count(v.nodes)} nodes and ${count(v.edges)} edges`;
  const listed =
    v.dangling === 0
      ? "every node and every edge"
      : `every node and every edge between two nodes; the ${count(v.dangling)} edge(s) to a missing node are in the findings`;
  return `Graph not drawn: ${sizes} exceed the drawing limit of ${String(v.limit)} nodes and ${String(v.limit)} edges. The tables below list ${listed}.`;
}

/**
 * The most moves (attempts and decision evaluations: `maxSteps`) a run in a report makes, below
 * the simulator's default of 10,000. A reviewer reads a trail of tens of moves; a run of 10,000
 * moves along a 100,000-node chain enters a new node at every move, and building the simulator's
 * states for each costs seconds. A run that reaches the bound says so in its status.
 */
export const REPORT_STEPS = 1_000;

/** A run's status line: complete, stopped at a node, or stopped by {@link REPORT_STEPS}. */
export function runStatus(
  complete: boolean,
  blocked: { readonly nodeId: string; readonly reason: string } | null | undefined,
): string {
  if (complete) return "complete";
  if (blocked?.reason.startsWith(`maxSteps ${String(REPORT_STEPS)} `) === true) {
    return `stopped at the report's bound of ${count(REPORT_STEPS)} moves (outside the report a run may make up to ${count(DEFAULT_MAX_STEPS)})`;
  }
  return `stopped at ${blocked?.nodeId ?? "?"}`;
}

/**
 * The runs a report explores for a graph of `size` nodes and edges: {@link EXPLORE_RUNS}, fewer
 * when runs × size would pass {@link EXPLORE_WORK}, and at least one.
 *
 * @example
 * ```ts
 * import { exploreRunBound } from "agentflow/report";
 *
 * exploreRunBound(40); // → 200
 * exploreRunBound(20_000); // → 10
 * exploreRunBound(200_001); // → 1
 * ```
 */
export function exploreRunBound(size: number): number {
  return Math.max(1, Math.min(EXPLORE_RUNS, Math.floor(EXPLORE_WORK / Math.max(size, 1))));
}

/** What bounded the exploration of `w`, each as a clause of the route coverage heading. */
export function coverageLimits(w: WorkflowAudit): string[] {
  const x = w.exploration;
  if (x === undefined) return [];
  const limits: string[] = [];
  if (x.outputs === "placeholders") limits.push("llm outputs are schema placeholders");
  if (x.truncated) {
    const size = w.nodes.length + w.edges.length;
    limits.push(
      x.maxRuns < EXPLORE_RUNS
        ? `the run bound of ${count(x.maxRuns)}, lowered from ${String(EXPLORE_RUNS)} for a graph of ${count(size)} nodes and edges, cut the search`
        : `the run bound of ${count(x.maxRuns)} cut the search`,
    );
  }
  if (x.bounded) limits.push("loops were revisited at most 3 times");
  if (x.unstopped > 0) {
    limits.push(
      `${count(x.unstopped)} run(s) met no end and no stop of the workflow's before the review's step bound of ${count(REPORT_STEPS)} moves`,
    );
  }
  return limits;
}

/** Identical edges drawn, or listed, once: the first of them and how many there are. */
export interface MergedEdge {
  readonly edge: GraphEdge;
  readonly count: number;
}

/**
 * Merges identical edges (same ends, label and direction) in first-seen order: repeated edges are
 * one arrow marked `×n` in a drawing, and one row with its count in the edge table.
 */
export function mergeParallelEdges(edges: readonly GraphEdge[]): MergedEdge[] {
  const byKey = new Map<string, { edge: GraphEdge; count: number }>();
  for (const edge of edges) {
    // Length-prefixed, so no id can make two different edges share a key.
    const key = `${edge.back ? 1 : 0}${String(edge.from.length)}:${edge.from}${String(edge.to.length)}:${edge.to}${edge.label}`;
    const hit = byKey.get(key);
    if (hit === undefined) byKey.set(key, { edge, count: 1 });
    else hit.count += 1;
  }
  return [...byKey.values()];
}

/** A row of the node table printed instead of a picture: id, type, name, finding codes. */
export function nodeCells(n: GraphNode): [string, string, string, string] {
  return [n.id, n.type, n.label === n.id ? "" : n.label, n.findings.join(", ")];
}

/** The rows of the node table printed instead of a picture: id, type, name, finding codes. */
export function nodeRows(nodes: readonly GraphNode[]): string[][] {
  return nodes.map(nodeCells);
}

/** A row of the edge table printed instead of a picture: from, to, label, how many. */
export function edgeCells({ edge: e, count: n }: MergedEdge): [string, string, string, string] {
  return [e.from, e.to, e.back ? `${e.label} (loops back)` : e.label, String(n)];
}

/** The rows of the edge table printed instead of a picture: from, to, label, how many. */
export function edgeRows(edges: readonly GraphEdge[]): string[][] {
  return mergeParallelEdges(edges).map(edgeCells);
}

/** The most characters of one line of a label in the Markdown report's Mermaid diagram. */
export const MERMAID_LABEL_LIMIT = 200;

/**
 * The most characters of one Mermaid chart: Mermaid's default `maxTextSize`, past which it
 * refuses to draw the chart at all.
 */
export const MERMAID_TEXT_LIMIT = 50_000;

/** The sentence printed instead of a process chart longer than {@link MERMAID_TEXT_LIMIT}. */
export function mermaidTooLongNote(length: number): string {
  return `Process chart not drawn: its Mermaid text would be ${length.toLocaleString("en-US")} characters, over Mermaid's limit of ${MERMAID_TEXT_LIMIT.toLocaleString("en-US")}. The agent task table and the findings name every agent task, its gate status and every bypass path.`;
}

/**
 * Cuts every label of a Mermaid flowchart (`["…"]`, `{"…"}`, `-->|…|`) to
 * {@link MERMAID_LABEL_LIMIT} characters a line, so that a name of a million characters does not
 * make a diagram Mermaid refuses (its default limit is 50,000 characters for the whole text).
 */
export function cutMermaidLabels(mermaid: string): string {
  const cut = (label: string): string =>
    label
      .split("<br/>")
      .map((line) => clipText(line, MERMAID_LABEL_LIMIT))
      .join("<br/>");
  return mermaid.replaceAll(
    /"([^"\n]*)"|\|([^|\n]*)\|/g,
    (whole, quoted?: string, piped?: string) => {
      if (whole.length <= MERMAID_LABEL_LIMIT + 2) return whole;
      return quoted === undefined ? `|${cut(piped ?? "")}|` : `"${cut(quoted)}"`;
    },
  );
}

/** Cuts `text` to `max` code points with `…`, for a tooltip; the tables keep the full text. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  let n = 0;
  for (const ch of text) {
    if (n === max) return out + "…";
    out += ch;
    n += 1;
  }
  return out;
}
