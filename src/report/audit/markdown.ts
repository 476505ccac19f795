/**
 * The audit report as Markdown: headings a reviewer can scan, tables of every rule result, a
 * Mermaid diagram per workflow (GitHub renders it), the simulation trail and route coverage, and
 * the oversight checklist. Deterministic: the same report gives the same bytes.
 */
import type { Diagnostic } from "../../model/index.js";
import { AGENT_TASK_COLUMNS, agentTaskCells } from "../agent-tasks.js";
import {
  coverageLimits,
  edgeCells,
  FINDINGS_LIMIT,
  importedHeading,
  importUnlistedNote,
  mergeParallelEdges,
  nodeCells,
  notDrawnNote,
  unlistedNote,
} from "./limits.js";
import { markdownCode, markdownText } from "./markdown-escape.js";
import { approvalMarkdown } from "./markdown-approval.js";
import { derivedAgentsMarkdown } from "./markdown-derived.js";
import { operationMarkdown } from "./operation-markdown.js";
import { processDiagramsMarkdown } from "./markdown-process.js";
import { joinRows } from "./rows.js";
import { ruleCheck } from "./rule-checks.js";
import { resultText } from "./rule-results.js";
import { waiverText } from "../extension.js";
import type { AuditReport, ChecklistItem, RuleResult, WorkflowAudit } from "./types.js";

/**
 * Appends `items` to `lines` one by one: `lines.push(...items)` passes every item as an argument
 * and overflows the stack at about 100,000 of them.
 */
function append(lines: string[], items: readonly string[]): void {
  for (const item of items) lines.push(item);
}

/** A table cell's content: text, or text shown as code. Escaped when the row is written. */
type Cell = string | number | { readonly code: string };

function cell(content: Cell): string {
  return typeof content === "object"
    ? markdownCode(content.code, { cell: true })
    : markdownText(content);
}

/** A table of a row per item, `cells` giving its cells; lines, the rows joined as one. */
function tableOf<T>(
  head: readonly string[],
  items: readonly T[],
  cells: (item: T) => readonly Cell[],
): string[] {
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  if (items.length > 0)
    lines.push(joinRows(items, (item) => `| ${cells(item).map(cell).join(" | ")} |`));
  return lines;
}

function table(head: readonly string[], rows: readonly (readonly Cell[])[]): string[] {
  return tableOf(head, rows, (r) => r);
}

function where(d: Diagnostic): string {
  if (d.location !== undefined) return `${d.location.line}:${d.location.column}`;
  return d.path === "" ? "(document)" : d.path;
}

/** What the import declared, listed where a reviewer reads first: above the verdicts it affects. */
function importedSection(w: WorkflowAudit): string[] {
  const imported = w.imported;
  if (imported === undefined) return [];
  const shown = imported.warnings.slice(0, FINDINGS_LIMIT);
  const more = importUnlistedNote(imported.warnings.length);
  return [
    `### ${markdownText(importedHeading(imported.title, imported.warnings.length))}`,
    "",
    ...shown.map(
      (d) =>
        `- ${markdownCode(d.code)} at ${markdownText(where(d))} ${markdownCode(d.path || "/")}: ${markdownText(d.message)}`,
    ),
    ...(more === undefined ? [] : [`- ${markdownText(more)}`]),
    "",
  ];
}

function ruleTable(rules: readonly RuleResult[]): string[] {
  const rows = rules.map((r) => [
    { code: r.code },
    r.severity,
    resultText(r),
    ruleCheck(r.code, r.description),
  ]);
  const findings: string[] = [];
  for (const r of rules) {
    for (const d of r.diagnostics.slice(0, FINDINGS_LIMIT)) {
      const waived = d.waived === undefined ? "" : ` (${markdownText(waiverText(d.waived))})`;
      findings.push(
        `- ${markdownCode(d.code)} (${d.severity}) at ${markdownText(where(d))}: ${markdownText(d.message)}${waived}`,
      );
    }
    const more = unlistedNote(r.code, r.diagnostics.length);
    if (more !== undefined) findings.push(`- ${markdownText(more)}`);
  }
  const lines = table(["rule", "severity", "result", "checks"], rows);
  lines.push("");
  if (findings.length === 0) lines.push("No findings.");
  else {
    lines.push("Findings:", "");
    append(lines, findings);
  }
  return lines;
}

/** The Mermaid diagram, or for a graph over the drawing limit the note and every node and edge. */
function diagram(w: WorkflowAudit): string[] {
  if (w.drawing.drawn) return ["```mermaid", w.mermaid.trimEnd(), "```"];
  const lines = [markdownText(notDrawnNote(w.drawing)), "", "Nodes:", ""];
  append(lines, tableOf(["node", "type", "name", "findings"], w.nodes, nodeCells));
  lines.push("", "Edges:", "");
  const edges = mergeParallelEdges(w.edges);
  append(lines, tableOf(["from", "to", "label", "edges"], edges, edgeCells));
  return lines;
}

function workflowSection(w: WorkflowAudit): string[] {
  const reasons =
    w.reasons.length === 0
      ? ["- no loop, branch, delegation or planner: level 1 is justified"]
      : w.reasons.map(
          (r) =>
            `- level ${r.level}: ${markdownText(r.feature)} at ${markdownText([...r.nodeIds].join(", ") || "edges " + r.edgeIndexes.join(", "))}`,
        );
  const lines = [
    `## Workflow ${markdownText(`${w.id}@${w.version}`)}`,
    "",
    `**${markdownText(w.name)}** — from ${markdownText(w.source)}, content hash ${markdownCode(w.contentHash)}.`,
    "",
    ...importedSection(w),
    "### Autonomy",
    "",
    `Declared level ${w.declaredLevel}; the graph justifies level ${w.justifiedLevel}. A gate downstream is **${w.gateRequirement}**.`,
    "",
    ...reasons,
    "",
    "### Diagram",
    "",
  ];
  append(lines, diagram(w));
  lines.push("", "### Rules", "");
  append(lines, ruleTable(w.rules));
  lines.push("");
  for (const sim of w.simulations) {
    const on = sim.kind === "fixtures" ? "on the given fixtures" : "of the first explored run";
    lines.push(
      `### Simulation ${on}: ${markdownText(sim.status)} in ${sim.steps} steps (${sim.moves} moves)`,
      "",
    );
    append(
      lines,
      tableOf(["step", "type", "node", "what happened"], sim.trail, (t) => [
        t.step,
        t.type,
        t.nodeId ?? "",
        t.message,
      ]),
    );
    lines.push("");
  }
  const x = w.exploration;
  if (x !== undefined) {
    const limits = coverageLimits(w);
    lines.push(
      `### Route coverage (${x.runs} explored run(s)${limits.length > 0 ? "; " + markdownText(limits.join("; ")) : ""})`,
      "",
    );
    append(
      lines,
      tableOf(["decision", "route", "to", "coverage", "runs"], x.coverage, (c) => [
        c.nodeId,
        c.route,
        c.next,
        c.status + (c.reason === undefined ? "" : ` (${c.reason})`),
        c.runs,
      ]),
    );
    lines.push("");
    for (const e of x.ends) {
      lines.push(`- completes at ${markdownText(e.nodeId)} in ${e.runs} run(s)`);
    }
    for (const b of x.blocks) {
      lines.push(
        `- stops at ${markdownText(b.nodeId)} in ${b.runs} run(s): ${markdownText(b.reason)}`,
      );
    }
    lines.push("");
  }
  return lines;
}

function checklistLines(items: readonly ChecklistItem[]): string[] {
  const mark = { evidence: "[x]", partial: "[ ]", "no-evidence": "[ ]" } as const;
  const word = {
    evidence: "evidence found",
    partial: "partial evidence",
    "no-evidence": "evidence missing",
  } as const;
  return items.flatMap((item) => [
    `- ${mark[item.status]} **${markdownText(item.reference)}** — ${markdownText(item.question)} *(${word[item.status]})*`,
    ...item.evidence.map((e) => `  - ${markdownText(e)}`),
  ]);
}

/**
 * Renders the report as Markdown.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { auditWorkflowReport, renderAuditMarkdown } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const text = JSON.stringify(wf, null, 2);
 * const report = await auditWorkflowReport(wf, { file: "research.agent.json", text, tools: { agentflow: "0.1.0" } });
 * const markdown = renderAuditMarkdown(report);
 * markdown.split("\n").slice(0, 3);
 * // → ["# Agent workflow review: Research Agent (agnt-rsch\\@2.1.0)", "", "## What was reviewed"]
 * markdown.includes("```mermaid"); // → true
 * ```
 */
export function renderAuditMarkdown(report: AuditReport): string {
  const lines = [`# ${markdownText(report.title)}`, ""];
  lines.push("## What was reviewed", "");
  const reviewed = report.reviewed.map((r): readonly Cell[] => [
    r.kind,
    r.what,
    r.hash ?? "not read",
    r.note ?? "",
  ]);
  append(lines, table(["kind", "what", "hash", "note"], reviewed));
  lines.push("");
  const tools = Object.entries(report.tools).map(([k, v]) => `${k} ${v}`);
  lines.push(`Checked with ${markdownText(tools.join(", "))}.`, "");
  if (report.approval !== undefined) append(lines, approvalMarkdown(report.approval));
  const process = report.process;
  if (process !== undefined) {
    lines.push(`## Promotion decision: ${process.allowed ? "ALLOWED" : "BLOCKED"}`, "");
    append(
      lines,
      table(
        AGENT_TASK_COLUMNS,
        process.agentTasks.map((t) => agentTaskCells(t)),
      ),
    );
    lines.push("");
    append(lines, processDiagramsMarkdown(process));
    lines.push("### Process rules", "");
    append(lines, ruleTable(process.rules));
    lines.push("");
    append(lines, derivedAgentsMarkdown(process.derivedAgents));
  }
  for (const w of report.workflows) append(lines, workflowSection(w));
  if (report.operation !== undefined) {
    append(lines, operationMarkdown(report.operation, report.workflows));
  }
  lines.push("## Oversight checklist", "");
  lines.push(
    "What this review found that bears on each provision. It is evidence for a reviewer, not a statement that the system complies.",
    "",
  );
  append(lines, checklistLines(report.checklist));
  lines.push("");
  return lines.join("\n");
}
