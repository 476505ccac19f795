/**
 * Every problem of a pack's rules beyond their shape: a duplicate id, a `require` on a subject
 * without paths, FEEL that does not parse or reads a name the fact model does not have, and a
 * placeholder that names no fact. Each rule is checked as far as its own shape allows (a rule
 * with an unknown `for` has no facts to check `when` against), so one run names every problem.
 */
import type { PolicySubject } from "./facts.js";
import { POLICY_SUBJECTS } from "./facts.js";
import type { WhenCheck } from "./feel-check.js";
import { checkWhen } from "./feel-check.js";
import { placeholderProblems } from "./placeholders.js";

/** A problem of one rule: its place in the pack, and for `when`, the offset in the expression. */
export interface RuleProblem {
  readonly place: string;
  readonly ruleId?: string;
  readonly message: string;
  /** For a problem in `when`: where in the expression text. */
  readonly offset?: number;
}

const isSubject = (value: unknown): value is PolicySubject =>
  (POLICY_SUBJECTS as readonly unknown[]).includes(value);

/** The problems of the rules (as written, shape not assumed), and each sound `when` checked. */
export function ruleProblems(rules: readonly unknown[]): {
  readonly problems: readonly RuleProblem[];
  readonly checks: ReadonlyMap<number, WhenCheck>;
} {
  const problems: RuleProblem[] = [];
  const checks = new Map<number, WhenCheck>();
  const firstIndex = new Map<string, number>();
  rules.forEach((value, i) => {
    if (typeof value !== "object" || value === null) return;
    const rule = value as Readonly<Record<string, unknown>>;
    const at = `rules[${i}]`;
    const id = typeof rule.id === "string" && rule.id !== "" ? rule.id : undefined;
    const problem = (place: string, message: string, offset?: number): void => {
      problems.push({
        place,
        ...(id === undefined ? {} : { ruleId: id }),
        message,
        ...(offset === undefined ? {} : { offset }),
      });
    };
    if (id !== undefined) {
      const earlier = firstIndex.get(id);
      if (earlier === undefined) firstIndex.set(id, i);
      else problem(`${at}.id`, `duplicate rule id '${id}' (also rules[${earlier}])`);
    }
    const subject = rule.for;
    if (!isSubject(subject)) return;
    if (rule.require !== undefined && subject !== "agentTask") {
      problem(
        `${at}.require`,
        `'require' needs paths from an agent task; this rule is for '${subject}' (only 'for: agentTask' rules can require gates)`,
      );
    }
    if (typeof rule.when === "string" && rule.when !== "") {
      const check = checkWhen(rule.when, subject);
      for (const p of check.problems) problem(`${at}.when`, p.message, p.from);
      if (check.problems.length === 0) checks.set(i, check);
    }
    for (const key of ["message", "remediation"] as const) {
      const template = rule[key];
      if (typeof template !== "string") continue;
      for (const message of placeholderProblems(template, subject))
        problem(`${at}.${key}`, message);
    }
  });
  return { problems, checks };
}
