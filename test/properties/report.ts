/**
 * Properties of the reports (SPEC 8): the audit report and its Markdown and HTML renderings are
 * deterministic and escape what a workflow author wrote; every check output format renders any
 * validation result.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import type { CheckedFile } from "../../src/report/index.js";
import {
  formatGithub,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
} from "../../src/report/index.js";
import {
  auditWorkflowReport,
  markdownCode,
  markdownText,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../src/report/audit/index.js";
import { visibleText } from "../../src/model/index.js";
import { escapeHtml, renderInline, structureOf } from "../report/audit/markdown-reader.js";
import { createValidator } from "../../src/validate/index.js";
import { workflowArbitrary } from "./arbitraries.js";
import { assertNoPollution } from "./checks.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty, property } from "./settings.js";

const FILE = "test/properties/report.property.test.ts";

const XSS = [
  '<script>alert("x")</script>',
  "<img src=x onerror=alert(1)>",
  "]]><!--",
  "a & b",
  "x\n## Promotion decision: ALLOWED",
  "m\n```\n# end of the diagram",
  "[x](javascript:alert(1))",
];

/**
 * Workflows with author text that HTML must escape, and node ids that may be prototype members
 * (`__proto__`, `constructor`): the drawing's layout once keyed graphlib's objects by node id.
 */
export const reportWorkflowArb: fc.Arbitrary<AgentWorkflow> = fc
  .tuple(workflowArbitrary({ protoIds: true, maxNodes: 6 }), fc.constantFrom(...XSS), fc.nat())
  .map(([wf, text, i]) => ({
    ...wf,
    name: text,
    nodes: wf.nodes.map((n, k) =>
      k === i % Math.max(wf.nodes.length, 1) ? { ...n, name: text } : n,
    ),
  }));

const OPTIONS = { file: "a <b>.json", text: "{}", tools: { agentflow: "0.0.0" } };

/** The audit report and both renderings are deterministic; HTML never carries raw author markup. */
export async function auditHolds(wf: AgentWorkflow): Promise<void> {
  if (parseWorkflow(wf).workflow === undefined) return;
  const report = await auditWorkflowReport(wf, OPTIONS);
  const again = await auditWorkflowReport(structuredClone(wf), OPTIONS);
  assert.equal(JSON.stringify(again), JSON.stringify(report));
  const markdown = renderAuditMarkdown(report);
  assert.equal(renderAuditMarkdown(again), markdown);
  const html = renderAuditHtml(report);
  assert.equal(renderAuditHtml(again), html);
  for (const text of XSS.slice(0, 2)) assert.ok(!html.includes(text), `raw ${text} in the HTML`);
  const read = structureOf(markdown);
  assert.deepEqual(read.html, [], "raw HTML in the Markdown");
  assert.deepEqual(read.links, [], "a link in the Markdown");
  assert.equal(read.fences.length, report.workflows.filter((w) => w.drawing.drawn).length);
  assert.ok(!read.headings.some((h) => h.startsWith("Promotion")), "a forged heading");
  assertNoPollution("audit report");
}

const validator = createValidator({ preset: "strict" });

/** Every check format renders the validation of any workflow, under any file name. */
export function formatsHold([wf, file]: [AgentWorkflow, string]): void {
  const files: CheckedFile[] = [
    { file, kind: "AgentWorkflow", id: wf.id, diagnostics: validator.validateSync(wf) },
    { file: `${file}.bpmn`, kind: "unknown", diagnostics: [] },
  ];
  assert.ok(formatText(files).length > 0);
  assert.deepEqual(JSON.parse(formatJson(files)), JSON.parse(JSON.stringify(files)));
  const sarif = JSON.parse(formatSarif(files)) as { version?: unknown };
  assert.equal(sarif.version, "2.1.0");
  assert.ok(formatJunit(files).startsWith("<?xml"));
  for (const line of formatGithub(files).split("\n")) {
    if (line !== "") assert.ok(line.startsWith("::"), `not a workflow command: ${line}`);
  }
}

/** Text made of what Markdown reads as syntax, line breaks and invisible characters. */
const markdownishArb = fc.string({
  unit: fc.constantFrom(
    ..."\\`*_[]()<>#|~&$!-+=.:;/ \n\r\tab1".split(""),
    "```",
    "\u202E",
    "\u200B",
    "\u0000",
    "&amp;",
    "&#60;",
    "javascript:",
    "<b>",
    "é",
  ),
  maxLength: 40,
});

/** Escaped text renders as exactly the text, and code as exactly the code, on one line. */
export function markdownEscapeHolds(text: string): void {
  const shown = escapeHtml(visibleText(text));
  const asText = markdownText(text);
  assert.ok(!asText.includes("\n"));
  // A reader drops spaces at the ends of a paragraph: compare what is inside them.
  assert.equal(renderInline(asText).trim(), shown.trim());
  if (text !== "") assert.equal(renderInline(markdownCode(text)), `<code>${shown}</code>`);
}

/** The report properties. */
export const REPORT_PROPERTIES: readonly PropertyDef[] = [
  property(
    "markdownText and markdownCode: render as the literal text",
    FILE,
    2_000,
    markdownishArb,
    markdownEscapeHolds,
  ),
  asyncProperty(
    "auditWorkflowReport and renderers: deterministic, escaped",
    FILE,
    100,
    reportWorkflowArb,
    auditHolds,
  ),
  property(
    "formatText, formatJson, formatSarif, formatJunit, formatGithub: any result",
    FILE,
    500,
    fc.tuple(
      workflowArbitrary(),
      fc.oneof(fc.string(), fc.constantFrom("a\nb.json", "::x", "%0A", "C:\\x.json")),
    ),
    formatsHold,
  ),
];
