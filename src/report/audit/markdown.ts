/**
 * The audit report as Markdown: headings a reviewer can scan, tables of every rule result, a
 * Mermaid diagram per workflow (GitHub renders it), the simulation trail and route coverage, and
 * the oversight checklist. Deterministic: the same report gives the same bytes.
 */
import type { Diagnostic } from "../../model/index.js";
import { AGENT_TASK_COLUMNS, agentTaskCells } from "../agent-tasks.js";
import type { AuditReport, ChecklistItem, RuleResult, WorkflowAudit } from "./types.js";

/** A table cell: pipes and line breaks would break the row. */
function cell(text: string | number): string {
  return String(text).replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll(/\r?\n/g, " ");
}

function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

function where(d: Diagnostic): string {
  if (d.location !== undefined) return `${d.location.line}:${d.location.column}`;
  return d.path === "" ? "(document)" : d.path;
}

function ruleTable(rules: readonly RuleResult[]): string[] {
  const rows = rules.map((r) => [
    `\`${r.code}\``,
    r.severity,
    r.passed ? "✔ passed" : `✖ ${r.diagnostics.length} finding(s)`,
    r.description,
  ]);
  const findings = rules.flatMap((r) =>
    r.diagnostics.map(
      (d) => `- \`${d.code}\` (${d.severity}) at ${cell(where(d))}: ${cell(d.message)}`,
    ),
  );
  return [
    ...table(["rule", "severity", "result", "checks"], rows),
    "",
    ...(findings.length === 0 ? ["No findings."] : ["Findings:", "", ...findings]),
  ];
}

function workflowSection(w: WorkflowAudit): string[] {
  const reasons =
    w.reasons.length === 0
      ? ["- no loop, branch, delegation or planner: level 1 is justified"]
      : w.reasons.map(
          (r) =>
            `- level ${r.level}: ${r.feature} at ${[...r.nodeIds].join(", ") || "edges " + r.edgeIndexes.join(", ")}`,
        );
  const lines = [
    `## Workflow ${w.id}@${w.version}`,
    "",
    `**${cell(w.name)}** — from ${cell(w.source)}, content hash \`${w.contentHash}\`.`,
    "",
    "### Autonomy",
    "",
    `Declared level ${w.declaredLevel}; the graph justifies level ${w.justifiedLevel}. A gate downstream is **${w.gateRequirement}**.`,
    "",
    ...reasons,
    "",
    "### Diagram",
    "",
    "```mermaid",
    w.mermaid.trimEnd(),
    "```",
    "",
    "### Rules",
    "",
    ...ruleTable(w.rules),
    "",
  ];
  for (const sim of w.simulations) {
    const on = sim.kind === "fixtures" ? "on the given fixtures" : "of the first explored run";
    lines.push(`### Simulation ${on}: ${sim.status} in ${sim.steps} steps`, "");
    lines.push(
      ...table(
        ["step", "type", "node", "what happened"],
        sim.trail.map((t) => [t.step, t.type, t.nodeId ?? "", t.message]),
      ),
      "",
    );
  }
  const x = w.exploration;
  if (x !== undefined) {
    const limits = [
      x.truncated ? "the run bound cut the search" : "",
      x.bounded ? "loops were revisited at most 3 times" : "",
    ].filter((s) => s !== "");
    if (x.outputs === "placeholders") limits.unshift("llm outputs are schema placeholders");
    lines.push(
      `### Route coverage (${x.runs} explored run(s)${limits.length > 0 ? "; " + limits.join("; ") : ""})`,
      "",
    );
    lines.push(
      ...table(
        ["decision", "route", "to", "coverage", "runs"],
        x.coverage.map((c) => [
          c.nodeId,
          c.route,
          c.next,
          c.status + (c.reason === undefined ? "" : ` (${c.reason})`),
          c.runs,
        ]),
      ),
      "",
    );
    lines.push(...x.ends.map((e) => `- completes at ${e.nodeId} in ${e.runs} run(s)`));
    lines.push(
      ...x.blocks.map((b) => `- stops at ${b.nodeId} in ${b.runs} run(s): ${cell(b.reason)}`),
      "",
    );
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
    `- ${mark[item.status]} **${item.reference}** — ${item.question} *(${word[item.status]})*`,
    ...item.evidence.map((e) => `  - ${e}`),
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
 * // → ["# Agent workflow review: Research Agent (agnt-rsch@2.1.0)", "", "## What was reviewed"]
 * markdown.includes("```mermaid"); // → true
 * ```
 */
export function renderAuditMarkdown(report: AuditReport): string {
  const lines = [`# ${report.title}`, ""];
  lines.push("## What was reviewed", "");
  const reviewed: (readonly string[])[] = [
    [report.subject.kind, report.subject.file, report.subject.fileHash],
  ];
  for (const w of report.workflows)
    reviewed.push(["workflow", `${w.id}@${w.version}`, w.contentHash]);
  lines.push(...table(["kind", "what", "hash"], reviewed), "");
  lines.push(
    `Checked with ${Object.entries(report.tools)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
  );
  const process = report.process;
  if (process !== undefined) {
    lines.push(`## Promotion decision: ${process.allowed ? "ALLOWED" : "BLOCKED"}`, "");
    lines.push(
      ...table(
        AGENT_TASK_COLUMNS,
        process.agentTasks.map((t) => agentTaskCells(t)),
      ),
      "",
      "### Process rules",
      "",
      ...ruleTable(process.rules),
      "",
    );
  }
  for (const w of report.workflows) lines.push(...workflowSection(w));
  lines.push("## Oversight checklist", "");
  lines.push(
    "What this review found that bears on each provision. It is evidence for a reviewer, not a statement that the system complies.",
    "",
  );
  lines.push(...checklistLines(report.checklist), "");
  return lines.join("\n");
}
