/**
 * What the CI formats say about a diagnostic code beyond the diagnostic itself: a description, a
 * default severity and where its documentation lives. SARIF consumers (GitHub code scanning) show
 * this next to every alert, and JUnit bodies link to it, so a reader never has to guess what a
 * code means.
 */
import type { Severity } from "../model/index.js";
import { DOCS_BASE_URL, ruleHelpUri } from "../rules/index.js";

/** Describes one diagnostic code for report consumers. */
export interface RuleDescriptor {
  /** The stable code, e.g. `RETRY_WITHOUT_MAX`. */
  readonly code: string;
  /** What the rule checks; the first sentence doubles as the short description. */
  readonly description: string;
  /** The severity the rule has when no preset overrides it. */
  readonly defaultSeverity: Severity;
  /** Where the rule's page (`docs/rules/<code>.md`) is published. */
  readonly helpUri: string;
}

/** `STRUCTURE_INVALID` → `Structure invalid`: the best description a bare code allows. */
function codeInWords(code: string): string {
  const words = code.replaceAll("_", " ").trim().toLowerCase();
  return words === "" ? code : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A descriptor for a code the caller did not describe (parse codes such as `STRUCTURE_INVALID`, or
 * rules of a newer version), so that every code in a report is still described and linked.
 */
export function synthesiseRule(
  code: string,
  defaultSeverity: Severity,
  base: string = DOCS_BASE_URL,
): RuleDescriptor {
  return {
    code,
    description: codeInWords(code),
    defaultSeverity,
    helpUri: ruleHelpUri(code, base),
  };
}

const RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

/**
 * The descriptors a report needs, sorted by code so output does not depend on input order: every
 * descriptor given (the first wins when a code repeats) plus one synthesised for each code that
 * occurs without one. A synthesised rule defaults to the most severe level it was reported at,
 * which, unlike the first occurrence, does not depend on the order of files.
 */
export function collectRules(
  occurrences: Iterable<{ readonly code: string; readonly severity: Severity }>,
  rules: readonly RuleDescriptor[] = [],
  base: string = DOCS_BASE_URL,
): RuleDescriptor[] {
  const byCode = new Map<string, RuleDescriptor>();
  for (const rule of rules) if (!byCode.has(rule.code)) byCode.set(rule.code, rule);
  const seen = new Map<string, Severity>();
  for (const { code, severity } of occurrences) {
    const before = seen.get(code);
    if (before === undefined || RANK[severity] > RANK[before]) seen.set(code, severity);
  }
  for (const [code, severity] of seen) {
    if (!byCode.has(code)) byCode.set(code, synthesiseRule(code, severity, base));
  }
  return [...byCode.values()].sort((a, b) => compareCodes(a.code, b.code));
}

/** Code-unit order, not `localeCompare`: the same on every machine and locale. */
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
