/**
 * The HTML report's building blocks and its page-wide sections: tables, rule results with their
 * numbered findings, what was reviewed, the promotion decision and the oversight checklist. Each
 * says what the Markdown section of the same name says; every mark carries text as well as colour.
 */
import type { AgentTaskSummary } from "../../bpmn/index.js";
import type { Diagnostic, Severity } from "../../model/index.js";
import { escapeXml as esc } from "./escape.js";
import { processDiagramsHtml } from "./html-process.js";
import { FINDINGS_LIMIT, unlistedNote } from "./limits.js";
import { joinRows } from "./rows.js";
import { ruleCheck } from "./rule-checks.js";
import { resultText } from "./rule-results.js";
import { waiverText } from "../extension.js";
import type { AuditReport, ChecklistItem, ProcessAudit, RuleResult } from "./types.js";

/** A finding with its page-wide number; its anchor is `finding-<n>` when it is listed. */
export interface NumberedFinding {
  readonly diagnostic: Diagnostic;
  readonly n: number;
  /** Among the first `FINDINGS_LIMIT` of its rule, which the page lists. */
  readonly listed: boolean;
}

/**
 * Numbers the findings of `rules`, rule by rule, after the `start` findings of the sections
 * above. Numbers go by position, not by object, so a diagnostic shown twice gets two anchors;
 * a finding past its rule's listing limit keeps its number, so later numbers do not move.
 */
export function numberFindings(rules: readonly RuleResult[], start: number): NumberedFinding[][] {
  let n = start;
  return rules.map((r) =>
    r.diagnostics.map((diagnostic, i) => ({ diagnostic, n: ++n, listed: i < FINDINGS_LIMIT })),
  );
}

/** The in-page link of a numbered finding. */
export function findingHref(n: number): string {
  return `#finding-${String(n)}`;
}

/** A table; `rows` hold HTML already escaped, `rowClass` marks rows (e.g. a blocked task). */
export function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  rowClass: (index: number) => string = () => "",
): string {
  return tableOf(head, rows, (cells) => cells, rowClass);
}

/**
 * A table of a row per item, its cells (HTML already escaped) made by `cells`: the rows of a big
 * table are built and joined a chunk at a time, never all kept as cell arrays first.
 */
export function tableOf<T>(
  head: readonly string[],
  items: readonly T[],
  cells: (item: T) => readonly string[],
  rowClass: (index: number) => string = () => "",
): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join("");
  const body = joinRows(items, (item, i) => {
    const cls = rowClass(i);
    return `<tr${cls === "" ? "" : ` class="${cls}"`}><td>${cells(item).join("</td><td>")}</td></tr>`;
  });
  // In a box of its own that scrolls sideways: on a phone a wide table never widens the page.
  return `<div class="table-scroll"><table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

/** Text as inline code. */
export function code(text: string | number): string {
  return `<code>${esc(text)}</code>`;
}

/** A content hash, wrapped anywhere so it never widens a table. */
export function hash(text: string): string {
  return `<code class="hash">${esc(text)}</code>`;
}

/** A pill with a text mark; `kind` only adds colour to what the text already says. */
export function tag(text: string, kind: "ok" | "bad" | "warn" | "strong" | "" = ""): string {
  return `<span class="tag${kind === "" ? "" : ` ${kind}`}">${esc(text)}</span>`;
}

const SEVERITY: Readonly<Record<Severity, string>> = {
  error: tag("✖ error", "bad"),
  warning: tag("⚠ warning", "warn"),
  info: tag("ℹ info"),
};

function where(d: Diagnostic): string {
  if (d.location !== undefined) return `${String(d.location.line)}:${String(d.location.column)}`;
  return d.path === "" ? "(document)" : d.path;
}

function onWhat(d: Diagnostic): string {
  switch (d.target.kind) {
    case "node":
      return ` on node ${code(d.target.nodeId)}`;
    case "bpmn-element":
      return ` on element ${code(d.target.elementId)}`;
    case "edge":
      return ` on edge ${code(`${d.target.from} → ${d.target.to}`)}`;
    case "workflow":
      return "";
  }
}

/** Every rule result (passed ones too), then the findings, each with its page-wide anchor. */
export function ruleSection(rules: readonly RuleResult[], start: number): string {
  // Numbers by position, as numberFindings gives them, without an object per finding: only
  // the listed ones are written.
  const firsts: number[] = [];
  let n = start;
  for (const r of rules) {
    firsts.push(n + 1);
    n += r.diagnostics.length;
  }
  const rows = rules.map((r, i) => {
    const failed = resultText(r);
    let result = tag(failed, "ok");
    if (!r.passed) {
      result =
        r.diagnostics.length === 0
          ? tag(failed, "bad")
          : `<a class="tag bad" href="${findingHref(firsts[i] ?? 0)}">${esc(failed)}</a>`;
    }
    return [code(r.code), esc(r.severity), result, esc(ruleCheck(r.code, r.description))];
  });
  const passed = rules.filter((r) => r.passed).length;
  const findings: string[] = [];
  rules.forEach((rule, i) => {
    const first = firsts[i] ?? 0;
    const listed = rule.diagnostics.slice(0, FINDINGS_LIMIT);
    listed.forEach((d, k) => {
      const num = String(first + k);
      findings.push(
        `<li class="finding ${d.severity}" id="finding-${num}"><span class="num">#${num}</span>` +
          `${code(d.code)} ${SEVERITY[d.severity]} at ${code(where(d))}${onWhat(d)}: ${esc(d.message)}` +
          `${d.waived === undefined ? "" : ` ${tag(waiverText(d.waived), "warn")}`}</li>`,
      );
    });
    const more = unlistedNote(rule.code, rule.diagnostics.length);
    if (more !== undefined) findings.push(`<li class="note">${esc(more)}</li>`);
  });
  return [
    `<p>${String(passed)} of ${String(rules.length)} rules passed.</p>`,
    table(["rule", "severity", "result", "checks"], rows, (i) =>
      rules[i]?.passed === false ? "failed" : "",
    ),
    findings.length === 0
      ? `<p class="none">✔ No findings.</p>`
      : `<h4>Findings</h4>\n<ol class="findings">\n${findings.join("\n")}\n</ol>`,
  ].join("\n");
}

/**
 * What was reviewed: every input the verdict rests on with its hash (the file, the workflows,
 * the tool contracts and delegates, the config, the rule set), and the checking tools.
 */
export function reviewedSection(report: AuditReport): string {
  const rows = report.reviewed.map((r) => [
    esc(r.kind),
    esc(r.what),
    r.hash === null ? "not read" : hash(r.hash),
    esc(r.note ?? ""),
  ]);
  const tools = Object.entries(report.tools)
    .map(([k, v]) => `${esc(k)} ${esc(v)}`)
    .join(", ");
  return [
    `<section id="reviewed">`,
    `<h2>What was reviewed</h2>`,
    table(["kind", "what", "hash", "note"], rows),
    `<p>Checked with ${tools}.</p>`,
    `</section>`,
  ].join("\n");
}

/**
 * Whether a task of `process` blocks promotion: it needs a gate it does not reach, or an error
 * names it. The errors are read once, so asking for every task stays linear.
 */
export function taskBlocker(process: ProcessAudit): (task: AgentTaskSummary) => boolean {
  const named = new Set<string>();
  // A task whose findings a waiver covers no longer blocks, though its gate is still missing.
  const waived = new Set<string>();
  for (const r of process.rules) {
    for (const d of r.diagnostics) {
      if (d.target.kind !== "bpmn-element") continue;
      if (d.waived !== undefined) waived.add(d.target.elementId);
      else if (d.severity === "error") named.add(d.target.elementId);
    }
  }
  return (task) =>
    named.has(task.elementId) ||
    (task.requirement === "required" && task.gate !== "reached" && !waived.has(task.elementId));
}

function gateCell(task: AgentTaskSummary): string {
  if (task.gate === "reached") return tag("✔ reached", "ok");
  if (task.requirement === "required") return tag(`✖ ${task.gate}`, "bad");
  if (task.requirement === "optional") return tag(`⚠ ${task.gate}`, "warn");
  return tag(`— ${task.gate}`);
}

/** Per BPMN element: the links to its numbered findings, gathered in one pass. */
function elementFindings(process: ProcessAudit): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { diagnostic: d, n, listed } of numberFindings(process.rules, 0).flat()) {
    if (!listed || d.target.kind !== "bpmn-element") continue;
    const link = `<a href="${findingHref(n)}">#${String(n)}</a>`;
    const list = out.get(d.target.elementId);
    if (list === undefined) out.set(d.target.elementId, [link]);
    else list.push(link);
  }
  return out;
}

/**
 * The promotion decision, the agent tasks with their gate verdicts, and the process rules (the
 * first findings of the page, numbered from 1).
 */
export function promotionSection(process: ProcessAudit): string {
  const word = process.allowed ? "ALLOWED" : "BLOCKED";
  const taskBlocked = taskBlocker(process);
  const blocked = process.agentTasks.filter((t) => taskBlocked(t));
  const why = process.allowed
    ? "No error was found: the process may be promoted."
    : `Promotion is refused${blocked.length > 0 ? `: ${blocked.map((t) => esc(t.elementId)).join(", ")} cannot go live as modelled` : ""}.`;
  const links = elementFindings(process);
  const rows = process.agentTasks.map((t) => {
    const found = links.get(t.elementId) ?? [];
    const mark = taskBlocked(t) ? ` ${tag("✖ BLOCKED", "strong")}` : ` ${tag("✔ ok", "ok")}`;
    return [
      `${esc(t.elementId)}${mark}${found.length === 0 ? "" : `<br>findings ${found.join(" ")}`}`,
      (t.ref === null ? "—" : `<span class="nowrap">${esc(t.ref)}</span>`) +
        (t.contentHash === null ? "" : `<br>${hash(t.contentHash)}`),
      esc(t.level ?? "unknown"),
      esc(t.justifiedLevel ?? "—"),
      esc(t.requirement),
      gateCell(t),
      esc(t.resolution),
    ];
  });
  const head = [
    "agent task",
    "workflow and content hash",
    "level",
    "justified",
    "gate needed",
    "gate",
    "source",
  ];
  return [
    `<section id="decision">`,
    `<h2>Promotion decision: ${word}</h2>`,
    `<div class="verdict ${process.allowed ? "allowed" : "blocked"}"><strong>${process.allowed ? "✔" : "✖"} ${word}</strong><span>${why}</span></div>`,
    table(head, rows, (i) => {
      const t = process.agentTasks[i];
      return t !== undefined && taskBlocked(t) ? "blocked" : "";
    }),
    processDiagramsHtml(process),
    `<h3 id="process-rules">Process rules</h3>`,
    ruleSection(process.rules, 0),
    `</section>`,
  ].join("\n");
}

const CHECK: Readonly<Record<ChecklistItem["status"], string>> = {
  evidence: tag("✔ evidence found", "ok"),
  partial: tag("◐ partial evidence", "warn"),
  "no-evidence": tag("✖ evidence missing", "bad"),
};

/** The oversight checklist, with the disclaimer that it is evidence, not a compliance claim. */
export function checklistSection(items: readonly ChecklistItem[]): string {
  const list = items.map(
    (item) =>
      `<li>${CHECK[item.status]} <span class="ref">${esc(item.reference)}</span> — ${esc(item.question)}` +
      (item.evidence.length === 0
        ? ""
        : `\n<ul>${item.evidence.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>`) +
      `</li>`,
  );
  return [
    `<section id="checklist">`,
    `<h2>Oversight checklist</h2>`,
    `<p class="note">What this review found that bears on each provision. It is evidence for a reviewer, not a statement that the system complies.</p>`,
    `<ol class="checklist">\n${list.join("\n")}\n</ol>`,
    `</section>`,
  ].join("\n");
}
