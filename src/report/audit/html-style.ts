/**
 * The HTML report's stylesheet, inlined in the page: system fonts only (nothing to fetch), colour
 * that always doubles a text mark (✔, ✖, ⚠), and print rules so the page can be handed on as
 * paper or PDF with every table and the diagrams intact.
 */
import { PROCESS_CSS } from "./process/index.js";
import { DIAGRAM_CSS } from "./svg.js";

const PAGE_CSS = `
:root {
  color-scheme: light;
  --ink: #0f172a; --muted: #526075; --line: #e2e8f0; --soft: #f8fafc;
  --ok: #1b7f3b; --ok-bg: #e9f6ee; --ok-line: #b5dfc3;
  --bad: #b42318; --bad-bg: #fdeceb; --bad-line: #f2b8b2;
  --warn: #8a5a00; --warn-bg: #fff5db; --warn-line: #f1d48a;
  --accent: #3057b8;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: #eef1f5; color: var(--ink);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", "Liberation Sans", "DejaVu Sans", sans-serif;
}
.page {
  max-width: 1120px; margin: 0 auto; padding: 36px 40px 40px; background: #ffffff;
  overflow-wrap: break-word;
}
a { color: var(--accent); }
code, .mono {
  font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
  font-size: 12.5px;
}
.nowrap { white-space: nowrap; }
.hash { font-size: 11.5px; color: var(--muted); word-break: break-all; }
h1 { font-size: 26px; line-height: 1.25; margin: 4px 0 6px; }
h2 { font-size: 20px; margin: 44px 0 14px; padding-bottom: 6px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 26px 0 8px; }
h4 { font-size: 12px; margin: 14px 0 4px; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
p { margin: 6px 0 10px; }
.eyebrow { font-size: 12px; font-weight: 600; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); }
.subject { color: var(--muted); margin: 0; }
header.report { padding-bottom: 20px; border-bottom: 3px solid var(--ink); }
.summary { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 16px; }
.summary .tag { font-size: 13px; padding: 4px 12px; }
nav.toc { margin: 18px 0 0; font-size: 13px; }
nav.toc ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 6px 18px; }
nav.toc a { text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
table { width: 100%; border-collapse: collapse; margin: 8px 0 14px; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: 5px 10px; border-bottom: 1px solid var(--line); }
th {
  background: #f1f5f9; color: var(--muted); font-size: 11.5px; font-weight: 700;
  letter-spacing: .04em; text-transform: uppercase; white-space: nowrap;
}
tbody tr:nth-child(even) td { background: #fbfcfd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr.failed td { background: #fff7f6; }
tbody tr.blocked td { background: var(--bad-bg); }
tr.blocked td:first-child { box-shadow: inset 5px 0 0 var(--bad); font-weight: 700; }
.tag {
  display: inline-block; padding: 0 9px; border: 1px solid var(--line); border-radius: 999px;
  background: var(--soft); font-size: 12px; font-weight: 600; white-space: nowrap; text-decoration: none;
}
.tag.ok { color: var(--ok); background: var(--ok-bg); border-color: var(--ok-line); }
.tag.bad { color: var(--bad); background: var(--bad-bg); border-color: var(--bad-line); }
.tag.warn { color: var(--warn); background: var(--warn-bg); border-color: var(--warn-line); }
.tag.strong { color: #ffffff; background: var(--bad); border-color: var(--bad); }
.verdict {
  display: flex; align-items: center; gap: 14px; margin: 10px 0 16px; padding: 14px 20px;
  border: 1px solid; border-left-width: 8px; border-radius: 8px; font-size: 15px;
}
.verdict strong { font-size: 22px; letter-spacing: .04em; white-space: nowrap; }
.verdict.blocked { color: var(--bad); background: var(--bad-bg); border-color: var(--bad); }
.verdict.allowed { color: var(--ok); background: var(--ok-bg); border-color: var(--ok); }
.verdict span { color: var(--ink); }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 12px; margin: 10px 0; }
.fact { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; background: var(--soft); }
.fact .k { font-size: 11.5px; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
.fact .v { font-size: 17px; font-weight: 700; }
.fact .d { font-size: 12.5px; color: var(--muted); }
ul.plain { margin: 6px 0 12px; padding-left: 20px; }
ol.findings { list-style: none; margin: 8px 0 14px; padding: 0; }
.finding {
  margin: 6px 0; padding: 8px 12px; border: 1px solid var(--bad-line); border-left: 5px solid var(--bad);
  border-radius: 6px; background: #fffafa;
}
.finding.warning { border-color: var(--warn-line); border-left-color: var(--warn); background: #fffdf5; }
.finding:target { outline: 3px solid #f59e0b; outline-offset: 2px; }
.finding .num { font-weight: 700; color: var(--muted); margin-right: 6px; }
.none { color: var(--ok); font-weight: 600; }
figure.diagram-box { margin: 8px 0 16px; padding: 18px; border: 1px solid var(--line); border-radius: 8px; background: #fcfdff; }
figure.diagram-box figcaption { margin-top: 12px; padding-top: 10px; border-top: 1px solid var(--line); font-size: 12px; color: var(--muted); }
figure.diagram-box .legend { margin: 0 0 6px; }
.note { margin: 10px 0 16px; padding: 10px 14px; border-left: 4px solid var(--accent); background: #f2f6fd; }
ol.checklist { list-style: none; margin: 0; padding: 0; }
ol.checklist > li { margin: 10px 0; padding: 12px 16px; border: 1px solid var(--line); border-radius: 8px; }
ol.checklist .ref { font-weight: 700; }
ol.checklist ul { margin: 6px 0 0; padding-left: 20px; color: #273449; }
footer { margin-top: 48px; padding-top: 12px; border-top: 1px solid var(--line); font-size: 12px; color: var(--muted); }
.table-scroll { max-width: 100%; overflow-x: auto; }
.table-scroll > table { margin: 8px 0 14px; }
.diagram-scroll { max-width: 100%; overflow-x: auto; }
code { overflow-wrap: break-word; }
.hash { overflow-wrap: anywhere; word-break: normal; }
ul.process-key { list-style: none; margin: 6px 0 12px; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; font-size: 12.5px; }
.key-badge {
  display: inline-block; padding: 0 9px; border-radius: 999px; color: #ffffff; font-size: 11.5px;
  font-weight: 700; white-space: nowrap;
}
.key-badge.status-reached { background: var(--ok); }
.key-badge.status-missing, .key-badge.status-bypassed { background: var(--bad); }
.key-badge.status-optional { background: var(--warn); }
.key-badge.status-not-needed { background: var(--muted); }
.key-badge.status-unresolved { background: #6b3fa0; }
.key-badge.gate { background: var(--accent); }
.key-bypass {
  display: inline-block; width: 28px; height: 0; vertical-align: middle;
  border-top: 3px dashed var(--bad); box-shadow: 0 0 0 3px rgba(180, 35, 24, .2);
}
@media (max-width: 640px) {
  .page { padding: 18px 12px 24px; }
  h1 { font-size: 21px; }
  .verdict { flex-wrap: wrap; padding: 10px 12px; }
  .tag { white-space: normal; }
  figure.diagram-box { padding: 8px; margin: 8px 0 12px; }
  svg.process:not(.legend) { max-width: none; }
}
@page { margin: 14mm; }
@media print {
  body { background: #ffffff; font-size: 10.5pt; }
  .page { max-width: none; padding: 0; }
  nav.toc { display: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2, h3 { break-after: avoid; }
  tr, figure, .finding, .fact, ol.checklist > li, .verdict { break-inside: avoid; }
  section.workflow { break-before: page; }
  a { color: inherit; text-decoration: none; }
  table { font-size: 9pt; }
  th, td { padding: 4px 6px; }
  th, .nowrap { white-space: normal; }
  .fact .v { font-size: 13pt; }
  .table-scroll, .diagram-scroll { overflow: visible; }
  svg.diagram { max-width: 100% !important; height: auto; }
  figure.process-box { break-inside: auto; }
}
`;

/** The whole stylesheet of the page. */
export const REPORT_CSS = PAGE_CSS + DIAGRAM_CSS + PROCESS_CSS;
