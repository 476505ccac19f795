/**
 * The audit report as one self-contained HTML5 page (SPEC 8): inline CSS and SVG, no script, and
 * nothing fetched — a Content-Security-Policy that allows no source at all makes that hold even
 * in a browser that would try. It says what the Markdown report says, in the same order, and the
 * same report gives the same bytes (no clock, no random ids).
 */
import { approvalTag } from "./approval-text.js";
import { escapeXml as esc } from "./escape.js";
import { approvalSection } from "./html-approval.js";
import {
  checklistSection,
  numberFindings,
  promotionSection,
  reviewedSection,
  tag,
  taskBlocker,
} from "./html-parts.js";
import { derivedAgentsHtml, derivedAnchor } from "./html-derived.js";
import { REPORT_CSS } from "./html-style.js";
import { OPERATION_ANCHOR, operationSection } from "./operation-html.js";
import { headline } from "./operation.js";
import { workflowSection } from "./html-workflow.js";
import { concat } from "./rows.js";
import type { AuditReport, RuleResult } from "./types.js";

function count(rules: readonly RuleResult[]): number {
  return rules.reduce((sum, r) => sum + r.diagnostics.length, 0);
}

function summary(report: AuditReport, findings: number): string {
  const tags: string[] = [];
  const process = report.process;
  if (process !== undefined) {
    tags.push(
      process.allowed ? tag("✔ Promotion ALLOWED", "ok") : tag("✖ Promotion BLOCKED", "strong"),
    );
    const blocked = process.agentTasks.filter(taskBlocker(process)).length;
    tags.push(
      tag(
        `${String(process.agentTasks.length)} agent task(s), ${String(blocked)} blocked`,
        blocked > 0 ? "bad" : "ok",
      ),
    );
  }
  tags.push(tag(`${String(report.workflows.length)} workflow(s) reviewed`));
  tags.push(
    findings === 0 ? tag("✔ no findings", "ok") : tag(`✖ ${String(findings)} finding(s)`, "bad"),
  );
  if (report.approval !== undefined) {
    const approval = approvalTag(report.approval);
    tags.push(tag(approval.text, approval.kind));
  }
  const op = report.operation;
  if (op !== undefined) {
    const text =
      op.runs === 0 && op.instances.checked === 0
        ? headline(op)
        : `${op.ok ? "✔" : "✖"} ${String(op.conforming.count)} of ${String(op.runs)} run(s) conform`;
    tags.push(tag(text, op.ok ? "ok" : "bad"));
  }
  return `<div class="summary">${tags.join(" ")}</div>`;
}

function toc(report: AuditReport): string {
  const items = [`<li><a href="#reviewed">What was reviewed</a></li>`];
  if (report.approval !== undefined) items.push(`<li><a href="#approval">Approval</a></li>`);
  if (report.process !== undefined) {
    items.push(`<li><a href="#decision">Promotion decision</a></li>`);
    if (report.process.diagrams.length > 0) {
      items.push(`<li><a href="#process-diagram">Process diagram</a></li>`);
    }
    report.process.derivedAgents.forEach((a, i) => {
      items.push(
        `<li><a href="#${derivedAnchor(i)}">${esc(`Camunda agent ${a.elementId}`)}</a></li>`,
      );
    });
  }
  report.workflows.forEach((w, i) => {
    items.push(`<li><a href="#wf-${String(i + 1)}">${esc(`${w.id}@${w.version}`)}</a></li>`);
  });
  if (report.operation !== undefined) {
    items.push(`<li><a href="#${OPERATION_ANCHOR}">Operation</a></li>`);
  }
  items.push(`<li><a href="#checklist">Oversight checklist</a></li>`);
  return `<nav class="toc" aria-label="Contents"><ol>${items.join("")}</ol></nav>`;
}

/**
 * Renders the report as a self-contained HTML5 page: open it from disk, print it, or archive it
 * with the review; it needs no network and runs no script.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { auditWorkflowReport, renderAuditHtml } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const text = JSON.stringify(wf, null, 2);
 * const report = await auditWorkflowReport(wf, { file: "research.agent.json", text, tools: { agentflow: "0.1.0" } });
 * const html = renderAuditHtml(report);
 * html.startsWith("<!DOCTYPE html>"); // → true
 * // self-contained: no script, no request, the diagram drawn inline
 * html.includes("<script"); // → false
 * html.includes("<svg"); // → true
 * ```
 */
export function renderAuditHtml(report: AuditReport): string {
  const processFindings = numberFindings(report.process?.rules ?? [], 0).flat();
  // Findings are numbered in reading order: the process rules first, then each workflow's.
  const starts: number[] = [];
  let findings = count(report.process?.rules ?? []);
  for (const w of report.workflows) {
    starts.push(findings);
    findings += count(w.rules);
  }
  const tools = Object.entries(report.tools)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const kind = report.subject.kind === "process" ? "BPMN process review" : "Agent workflow review";
  const body = [
    `<header class="report">`,
    `<div class="eyebrow">${esc(kind)}</div>`,
    `<h1>${esc(report.title)}</h1>`,
    `<p class="subject"><code>${esc(report.subject.file)}</code> · <code class="hash">${esc(report.subject.fileHash)}</code></p>`,
    summary(report, findings),
    toc(report),
    `</header>`,
    reviewedSection(report),
    report.approval === undefined ? "" : approvalSection(report.approval),
    report.process === undefined ? "" : promotionSection(report.process),
    report.process === undefined ? "" : derivedAgentsHtml(report.process.derivedAgents),
    ...report.workflows.map((w, i) => workflowSection(w, i, starts[i] ?? 0, processFindings)),
    report.operation === undefined ? "" : operationSection(report.operation, report.workflows),
    checklistSection(report.checklist),
    `<footer>${esc(`Generated by ${tools}. This page is self-contained: it loads nothing from the network and runs no script.`)}</footer>`,
  ].filter((part) => part !== "");
  return concat([
    `<!DOCTYPE html>`,
    `<html lang="en">`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="generator" content="${esc(tools)}">`,
    `<title>${esc(report.title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    `</head>`,
    `<body>`,
    `<main class="page">`,
    concat(body),
    `</main>`,
    `</body>`,
    `</html>`,
    ``,
  ]);
}
