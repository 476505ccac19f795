/**
 * The Markdown section on each Camunda agent read from the BPMN (docs/bpmn.md): what was read, the
 * level with its reasons, the agent's loop as Mermaid, and every tool with its effect and where
 * the effect came from.
 */
import { notDrawnNote } from "./limits.js";
import { markdownCode, markdownText } from "./markdown-escape.js";
import { joinRows } from "./rows.js";
import type { DerivedAgentAudit } from "./types.js";

/** The heading of the tools table, shared with the HTML report. */
export const DERIVED_TOOL_COLUMNS: readonly string[] = Object.freeze([
  "tool",
  "element",
  "effect",
  "where the effect came from",
  "person",
]);

const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

function section(agent: DerivedAgentAudit): string[] {
  const lines = [
    `## Camunda agent ${markdownText(agent.elementId)}`,
    "",
    `Read from the BPMN and derived as ${markdownCode(agent.workflowRef)}, level ${String(agent.level)}. The model chooses a tool each turn, the tool's result goes back to the model, until it answers or reaches its maximum of model calls.`,
    "",
    row(["fact", "value"]),
    "|---|---|",
    ...agent.facts.map((f) => row([markdownText(f.label), markdownText(f.value)])),
    "",
    "### Level",
    "",
    ...agent.reasons.map((r) => `- ${markdownText(r)}`),
    "",
    "### Loop",
    "",
    ...(agent.drawing.drawn
      ? ["```mermaid", agent.mermaid.trimEnd(), "```"]
      : [markdownText(notDrawnNote(agent.drawing))]),
    "",
    "### Tools",
    "",
  ];
  if (agent.tools.length === 0) lines.push("No tools: the model is called once.");
  else {
    lines.push(
      row([...DERIVED_TOOL_COLUMNS]),
      `|${DERIVED_TOOL_COLUMNS.map(() => "---").join("|")}|`,
    );
    lines.push(
      joinRows(agent.tools, (t) =>
        row([
          markdownCode(t.id, { cell: true }),
          markdownText(t.kind),
          t.source === "unknown" ? "**unknown**" : markdownText(t.effect),
          markdownText(
            t.decidedBy === undefined ? t.origin : `${t.origin} (decided by ${t.decidedBy})`,
          ),
          t.person ? "person, not a gate" : "",
        ]),
      ),
    );
  }
  lines.push("");
  if (agent.people !== undefined)
    lines.push(`People among the tools: ${markdownText(agent.people)}.`, "");
  return lines;
}

/** The sections of every derived agent; none when the process has no Camunda agent. */
export function derivedAgentsMarkdown(agents: readonly DerivedAgentAudit[]): string[] {
  return agents.flatMap(section);
}
