/**
 * The process drawn in the Markdown report (docs/report.md): a Mermaid flowchart per diagram within
 * the drawing limit, or the sentence saying why it is not drawn.
 */
import { DRAWING_LIMIT, MERMAID_TEXT_LIMIT, mermaidTooLongNote } from "./limits.js";
import { markdownText } from "./markdown-escape.js";
import { processMarks, processMermaid } from "./process/index.js";
import type { ProcessAudit } from "./types.js";

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The "Process diagram" lines of the promotion section; none for an unreadable file. */
export function processDiagramsMarkdown(process: ProcessAudit): string[] {
  if (process.diagrams.length === 0) return [];
  const marks = processMarks(process);
  const lines = [
    "### Process diagram",
    "",
    "Agent tasks carry their autonomy level and gate status (reached, missing, bypassed, optional, not needed, workflow unresolved); gates are marked ◆ gate; the links of each path that bypasses every gate (AGENT_GATE_BYPASS) are drawn red and dashed.",
    "",
  ];
  for (const { diagram, drawing } of process.diagrams) {
    const what = diagram.pools.some((p) => p.participantId !== "") ? "Collaboration" : "Process";
    const name = diagram.name === "" ? diagram.id : `${diagram.name} (${diagram.id})`;
    lines.push(`#### ${markdownText(`${what} ${name}`)}`, "");
    const links =
      drawing.flows +
      diagram.pools.reduce((sum, p) => sum + p.nodes.filter((n) => n.attachedTo !== "").length, 0);
    if (drawing.nodes > DRAWING_LIMIT || links > DRAWING_LIMIT) {
      lines.push(
        markdownText(
          `Process not drawn as Mermaid: ${count(drawing.nodes)} flow nodes and ${count(links)} links exceed the drawing limit of ${String(DRAWING_LIMIT)} nodes and ${String(DRAWING_LIMIT)} links. The agent task table and the findings name every agent task, its gate status and every bypass path.`,
        ),
        "",
      );
      continue;
    }
    const chart = processMermaid(diagram, marks);
    if (chart.length > MERMAID_TEXT_LIMIT) {
      lines.push(markdownText(mermaidTooLongNote(chart.length)), "");
      continue;
    }
    lines.push("```mermaid", chart, "```", "");
  }
  return lines;
}
