/**
 * The HTML section on each Camunda agent read from the BPMN (docs/bpmn.md): the same facts,
 * reasons, loop and tool rows as the Markdown report, the loop drawn as inline SVG like any
 * workflow.
 */
import { escapeXml as esc } from "./escape.js";
import { code, tableOf, tag } from "./html-parts.js";
import { layoutGraph } from "./layout.js";
import { notDrawnNote } from "./limits.js";
import { DERIVED_TOOL_COLUMNS } from "./markdown-derived.js";
import { concat } from "./rows.js";
import { renderWorkflowSvg } from "./svg.js";
import type { DerivedAgentAudit } from "./types.js";

/** The anchor of the n-th derived agent's section (from 1). */
export function derivedAnchor(index: number): string {
  return `camunda-${String(index + 1)}`;
}

function loop(agent: DerivedAgentAudit, index: number): string {
  if (!agent.drawing.drawn) return `<p class="note">${esc(notDrawnNote(agent.drawing))}</p>`;
  const svg = renderWorkflowSvg(layoutGraph(agent), {
    idPrefix: derivedAnchor(index),
    title: `Loop of ${agent.workflowRef}: the model chooses a tool, the tool answers the model`,
  });
  return `<figure class="diagram-box">\n${svg}\n<figcaption>${esc("The model chooses a tool each turn; dashed edges lead back to the model.")}</figcaption>\n</figure>`;
}

function toolsTable(agent: DerivedAgentAudit): string {
  if (agent.tools.length === 0) return `<p>No tools: the model is called once.</p>`;
  return tableOf(
    DERIVED_TOOL_COLUMNS,
    agent.tools,
    (t) => [
      code(t.id),
      esc(t.kind),
      t.source === "unknown" ? tag("unknown", "bad") : esc(t.effect),
      esc(t.decidedBy === undefined ? t.origin : `${t.origin} (decided by ${t.decidedBy})`),
      t.person ? esc("person, not a gate") : "",
    ],
    (i) => `effect-${agent.tools[i]?.effect ?? "unknown"}`,
  );
}

function section(agent: DerivedAgentAudit, index: number): string {
  const facts = agent.facts
    .map((f) => `<tr><th scope="row">${esc(f.label)}</th><td>${esc(f.value)}</td></tr>`)
    .join("");
  return concat([
    `<section id="${derivedAnchor(index)}" class="camunda-agent">`,
    `<h2>${esc(`Camunda agent ${agent.elementId}`)}</h2>`,
    `<p>${esc(`Read from the BPMN and derived as ${agent.workflowRef}, level ${String(agent.level)}. The model chooses a tool each turn, the tool's result goes back to the model, until it answers or reaches its maximum of model calls.`)}</p>`,
    `<div class="table-scroll"><table class="derived-facts"><tbody>${facts}</tbody></table></div>`,
    `<h3>Level</h3>`,
    `<ul class="plain">${agent.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>`,
    `<h3>Loop</h3>`,
    loop(agent, index),
    `<h3>Tools</h3>`,
    toolsTable(agent),
    agent.people === undefined ? "" : `<p>${esc(`People among the tools: ${agent.people}.`)}</p>`,
    `</section>`,
  ]);
}

/** The sections of every derived agent; empty when the process has none. */
export function derivedAgentsHtml(agents: readonly DerivedAgentAudit[]): string {
  return concat(agents.map(section));
}
