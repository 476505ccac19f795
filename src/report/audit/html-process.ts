/**
 * The process drawn in the HTML report (docs/report.md): each diagram as inline SVG with the
 * review's marks, under a key to them, or the sentence saying why it is not drawn.
 */
import { escapeXml as esc } from "./escape.js";
import {
  drawingNote,
  layoutFromDi,
  layoutWithDagre,
  processLegendHtml,
  processMarks,
  renderProcessSvg,
} from "./process/index.js";
import type { ProcessAudit } from "./types.js";

/** The "Process diagram" part of the promotion section; empty for an unreadable file. */
export function processDiagramsHtml(process: ProcessAudit): string {
  if (process.diagrams.length === 0) return "";
  const marks = processMarks(process);
  const bypasses = marks.bypasses.length;
  const figures = process.diagrams.map(({ diagram, drawing }, i) => {
    const what = diagram.pools.some((p) => p.participantId !== "") ? "Collaboration" : "Process";
    const name = diagram.name === "" ? diagram.id : `${diagram.name} (${diagram.id})`;
    const heading = `<h4>${esc(`${what} ${name}`)}</h4>`;
    const note = drawingNote(drawing);
    if (drawing.mode === "none") return `${heading}\n<p class="note">${esc(note)}</p>`;
    const layout = drawing.mode === "di" ? layoutFromDi(diagram) : layoutWithDagre(diagram);
    const svg = renderProcessSvg(layout, marks, {
      idPrefix: `process-${String(i + 1)}`,
      title: `${what} ${name}: ${String(drawing.nodes)} flow nodes, ${String(drawing.flows)} flows`,
    });
    const hidden =
      layout.hidden.size === 0
        ? ""
        : ` ${String(layout.hidden.size)} flow node(s) inside sub-processes drawn collapsed are not shown; a bypass path through them is drawn through the sub-process.`;
    return [
      heading,
      `<figure class="diagram-box process-box">`,
      `<div class="diagram-scroll">${svg}</div>`,
      `<figcaption>${esc(note + hidden)}</figcaption>`,
      `</figure>`,
    ].join("\n");
  });
  const summary =
    bypasses === 0
      ? "No path from an agent task bypasses its gates."
      : `${String(bypasses)} bypass path(s) drawn in red: each links to its AGENT_GATE_BYPASS finding.`;
  return [
    `<h3 id="process-diagram">Process diagram</h3>`,
    `<p>${esc(`Each agent task is badged with its autonomy level and gate status, and links to its first finding. ${summary}`)}</p>`,
    processLegendHtml(),
    ...figures,
  ].join("\n");
}
