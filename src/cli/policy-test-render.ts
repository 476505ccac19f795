/**
 * What `agentflow policy test` prints: per test file one line per case and a summary, then the
 * coverage of every rule of the packs under test, then the verdict — as text, or the same as
 * JSON data (`--format json`). Ids, names and messages come from the inputs, so the text shows
 * their invisible characters escaped: a newline in an id must not forge a line.
 */
import { visibleText } from "../model/index.js";
import type { CaseResult, RuleCoverage } from "./policy-test-cases.js";

/** One test file's judged cases. */
export interface FileReport {
  readonly file: string;
  readonly name: string;
  readonly cases: readonly CaseResult[];
}

/** The whole run, as `--format json` gives it. */
export interface PolicyTestReport {
  readonly files: readonly (FileReport & { readonly passed: number; readonly failed: number })[];
  readonly coverage: readonly RuleCoverage[];
  readonly cases: number;
  readonly passed: number;
  readonly failed: number;
  /** Rules without a failing case or without a passing case. */
  readonly uncovered: number;
  /** Cases that hold only on a finding the rule could not decide. */
  readonly undecided: number;
}

/** A case that holds on a finding its rule could not decide. */
function holdsUndecided(c: CaseResult): boolean {
  return c.ok && c.undecided !== undefined;
}

/** The run's report from each file's cases and the coverage. */
export function policyTestReport(
  files: readonly FileReport[],
  coverage: readonly RuleCoverage[],
): PolicyTestReport {
  const counted = files.map((f) => {
    const failed = f.cases.filter((c) => !c.ok).length;
    return { ...f, passed: f.cases.length - failed, failed };
  });
  const failed = counted.reduce((n, f) => n + f.failed, 0);
  const cases = counted.reduce((n, f) => n + f.cases.length, 0);
  return {
    files: counted,
    coverage,
    cases,
    passed: cases - failed,
    failed,
    uncovered: coverage.filter((c) => !c.covered).length,
    undecided: counted.reduce((n, f) => n + f.cases.filter(holdsUndecided).length, 0),
  };
}

/** What a case found, in words: `fail`, `fail (waived until …)`, `pass`, `no such subject`. */
function actualWords(c: CaseResult): string {
  if (c.actual === "missing") return "no such subject";
  if (c.actual === "pass") return "pass";
  return c.waived === undefined
    ? "fail"
    : `fail, waived until ${c.waived.expires} by ${c.waived.grantedBy} (${c.waived.reason})`;
}

/** `✔ rule subject expected fail, got fail: message`. */
function caseLine(c: CaseResult): string {
  const detail = c.actual === "missing" ? c.reason : c.message;
  const more = c.findings > 1 ? ` (+${String(c.findings - 1)} more)` : "";
  const tail = detail === undefined ? "" : `: ${detail}${more}`;
  const mark = c.ok ? (c.undecided === undefined ? "✔" : "⚠") : "✘";
  const undecided = c.undecided === undefined ? "" : " (undecided)";
  return `  ${mark} ${c.rule} ${c.subject} expected ${c.expected}, got ${actualWords(c)}${undecided}${tail}`;
}

/** How many of something: `1 case`, `2 cases`. */
function count(n: number, what: string): string {
  return `${String(n)} ${what}${n === 1 ? "" : "s"}`;
}

/** The coverage line of a rule, and whether it is covered. */
function coverageLine(c: RuleCoverage, width: number): string {
  const counts = `${count(c.failing, "failing case")}, ${count(c.passing, "passing case")}`;
  if (c.covered) return `  ✔ ${c.rule.padEnd(width)}  ${counts}`;
  const lacks = [c.failing === 0 ? "no failing case" : "", c.passing === 0 ? "no passing case" : ""]
    .filter((s) => s !== "")
    .join(", ");
  return `  ⚠ ${c.rule.padEnd(width)}  ${counts}: not covered (${lacks})`;
}

/** The text report. */
export function policyTestText(report: PolicyTestReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    lines.push(`${f.file}: ${f.name}`);
    for (const c of f.cases) lines.push(caseLine(c));
    const failed = f.failed === 0 ? "" : `, ${String(f.failed)} failed`;
    lines.push(`  ${count(f.cases.length, "case")}: ${String(f.passed)} passed${failed}`, "");
  }
  const width = Math.max(0, ...report.coverage.map((c) => c.rule.length));
  const packs = new Set(report.coverage.map((c) => c.source)).size;
  lines.push(
    `rule coverage (${count(report.coverage.length, "rule")} in ${count(packs, "pack")}):`,
  );
  for (const c of report.coverage) lines.push(coverageLine(c, width));
  lines.push("");
  const where = `in ${count(report.files.length, "test file")}`;
  const verdict =
    report.failed === 0
      ? `✔ ${count(report.cases, "case")} passed ${where}`
      : `✘ ${String(report.failed)} of ${count(report.cases, "case")} failed ${where}`;
  const coverage =
    report.uncovered === 0
      ? "every rule covered"
      : `${count(report.uncovered, "rule")} not covered`;
  lines.push(`${verdict}; ${coverage}`);
  if (report.undecided > 0) {
    lines.push(
      `⚠ ${count(report.undecided, "case")} expecting a finding got one its rule could not decide (marked "undecided"): check the rule's when`,
    );
  }
  return lines.map(visibleText).join("\n") + "\n";
}
