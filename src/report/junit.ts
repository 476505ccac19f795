/**
 * The `junit` format: JUnit XML, which GitLab (merge-request test reports), Jenkins, Azure DevOps
 * and most CI servers read. A checked file is a test suite and a diagnostic a test case, named by
 * its code and the element or node id it is about.
 *
 * Errors are `<failure>`s, so the pipeline and its test report fail exactly when promotion would
 * be blocked. Warnings and infos are passing test cases whose `<system-out>` holds the finding:
 * a warning never blocks (SPEC 3), so it must not turn a CI report red, yet GitLab and Jenkins both
 * show a test case's output in its details, so the finding stays visible. `<skipped>` was rejected
 * because the check did run, and test-case `<properties>` because neither GitLab nor Jenkins shows
 * them. A rule that crashed (`RULE_CRASHED`) is an `<error>`: the check itself could not run.
 * A waived error (a waiver the organisation granted) passes like a warning, its output naming
 * the waiver: it no longer blocks, and it is still shown.
 */
import type { Diagnostic } from "../model/index.js";
import { waiverText } from "./extension.js";
import type { RuleDescriptor } from "./rule-descriptor.js";
import { DOCS_BASE_URL } from "../rules/index.js";
import { collectRules } from "./rule-descriptor.js";
import type { CheckedFile } from "./types.js";

/** Options of {@link formatJunit}. */
export interface JunitFormatOptions {
  /** Descriptions of the codes, whose documentation links go into each finding's details. */
  readonly rules?: readonly RuleDescriptor[];
  /** Where codes without a descriptor link to; defaults to {@link DOCS_BASE_URL}. */
  readonly docsBaseUrl?: string;
  /**
   * `<properties>` of every test suite, as JUnit readers show them: what judged the run (the
   * config file, the rule set's digest).
   */
  readonly properties?: Readonly<Record<string, string>>;
}

/** The code whose errors mean the check could not run, reported as JUnit `<error>`s. */
const CRASH_CODE = "RULE_CRASHED";

/**
 * Characters XML 1.0 forbids anywhere (C0 controls other than tab, LF and CR; lone surrogates;
 * U+FFFE and U+FFFF). A parser rejects the whole report if one slips through, even escaped as a
 * character reference, so they are removed.
 */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Escapes text for an attribute value. Tab, LF and CR are written as character references because
 * a parser would otherwise normalise them to spaces (XML 1.0 §3.3.3) and lose the message's lines.
 */
function attr(text: string): string {
  return text.replace(INVALID_XML, "").replace(/[&<>"'\t\n\r]/g, (c) => ENTITIES[c] ?? c);
}

/** Escapes element content; CR is a reference so that a parser does not fold CRLF into LF. */
function content(text: string): string {
  return text.replace(INVALID_XML, "").replace(/[&<>"'\r]/g, (c) => ENTITIES[c] ?? c);
}

function element(name: string, attributes: Readonly<Record<string, string | number>>): string {
  const rendered = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${attr(String(value))}"`)
    .join("");
  return `<${name}${rendered}`;
}

/** An error that blocks: a waived one passes, its output saying so (as a warning's does). */
function isError(d: Diagnostic): boolean {
  return d.severity === "error" && d.code !== CRASH_CODE && d.waived === undefined;
}

function isCrash(d: Diagnostic): boolean {
  return d.severity === "error" && d.code === CRASH_CODE;
}

/**
 * A test case's name: the code and what it is about, by the id a reader knows (the BPMN element,
 * the workflow node, an edge's ends); the JSON Pointer only for a finding with no such id.
 */
function caseName(d: Diagnostic): string {
  const target = d.target;
  if (target.kind === "bpmn-element") return `${d.code} ${target.elementId}`;
  if (target.kind === "node") return `${d.code} ${target.nodeId}`;
  if (target.kind === "edge") return `${d.code} ${target.from}->${target.to}`;
  return d.path === "" ? d.code : `${d.code} ${d.path}`;
}

/** The full finding, for the body of a failure or the output of a passing case. */
function details(file: string, d: Diagnostic, helpUri: string | undefined): string {
  const at = d.location === undefined ? "" : `:${d.location.line}:${d.location.column}`;
  const lines = [`${d.severity}: ${d.message}`];
  if (d.remediation !== undefined && d.remediation !== "") lines.push(d.remediation);
  if (d.waived !== undefined) {
    lines.push(`${waiverText(d.waived)}; not a failure while the waiver holds`);
  }
  lines.push(`at ${file}${at} (${d.path === "" ? "the whole document" : d.path})`);
  if (helpUri !== undefined) lines.push(`see ${helpUri}`);
  return lines.join("\n");
}

function testCase(file: string, d: Diagnostic, helpUri: string | undefined): string[] {
  const open = `    ${element("testcase", { classname: file, name: caseName(d) })}>`;
  const body = content(details(file, d, helpUri));
  const tag = isCrash(d) ? "error" : isError(d) ? "failure" : undefined;
  const inner =
    tag === undefined
      ? `      <system-out>${body}</system-out>`
      : `      ${element(tag, { type: d.code, message: d.message })}>${body}</${tag}>`;
  return [open, inner, "    </testcase>"];
}

/**
 * Renders checked files as JUnit XML: one suite per file, one case per diagnostic in the order
 * given, and a single passing `no problems` case for a clean file so that CI counts it as checked.
 *
 * @example
 * ```ts
 * import { formatJunit, type CheckedFile } from "agentflow/report";
 *
 * const files: CheckedFile[] = [
 *   {
 *     file: "agents/triage.agent.yaml",
 *     kind: "AgentWorkflow",
 *     diagnostics: [
 *       {
 *         code: "BUDGET_MISSING",
 *         severity: "warning",
 *         message: 'workflow "agnt-triage" runs at autonomy 2 but states no budget',
 *         target: { kind: "workflow" },
 *         path: "",
 *         data: { level: 2 },
 *         location: { line: 1, column: 1 },
 *       },
 *     ],
 *   },
 * ];
 * const xml = formatJunit(files);
 * // a warning is a passing test case whose output holds the finding; an error is a failure
 * xml.includes('<testsuites name="agentflow" tests="1" failures="0" errors="0">'); // → true
 * xml.includes("see https://agentflow.dev/docs/rules/BUDGET_MISSING.md"); // → true
 * ```
 */
export function formatJunit(
  files: readonly CheckedFile[],
  options: JunitFormatOptions = {},
): string {
  const rules = collectRules(
    files.flatMap((f) => f.diagnostics),
    options.rules,
    options.docsBaseUrl ?? DOCS_BASE_URL,
  );
  const helpUris = new Map(rules.map((rule) => [rule.code, rule.helpUri]));
  const totals = { tests: 0, failures: 0, errors: 0 };
  const properties = Object.entries(options.properties ?? {}).map(
    ([name, value]) => `      ${element("property", { name, value })}/>`,
  );
  const suites: string[] = [];
  for (const { file, diagnostics } of files) {
    const counts = {
      tests: Math.max(diagnostics.length, 1),
      failures: diagnostics.filter(isError).length,
      errors: diagnostics.filter(isCrash).length,
    };
    totals.tests += counts.tests;
    totals.failures += counts.failures;
    totals.errors += counts.errors;
    suites.push(`  ${element("testsuite", { name: file, ...counts })}>`);
    if (properties.length > 0) suites.push("    <properties>", ...properties, "    </properties>");
    if (diagnostics.length === 0) {
      suites.push(`    ${element("testcase", { classname: file, name: "no problems" })}/>`);
    }
    for (const d of diagnostics) suites.push(...testCase(file, d, helpUris.get(d.code)));
    suites.push("  </testsuite>");
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `${element("testsuites", { name: "agentflow", ...totals })}>`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
