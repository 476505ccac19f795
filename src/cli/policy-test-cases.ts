/**
 * The cases of a policy test, as pure data work: each subject a result lists is one case, planned
 * from the test file (its rule found in the packs, its name read by the rule's subject kind) and
 * judged from the findings on the inputs. Failing closed: a subject that is not in its input is a
 * failed case, never a vacuous pass; a rule the packs do not have, or a name that does not fit
 * the grammar, is a problem of the test file (a usage error).
 */
import type { Diagnostic, DiagnosticWaiver } from "../model/index.js";
import type { CompiledPack, PolicySubject } from "../policy/index.js";
import type { Expectation, PolicyTestSpec, Unplaced } from "./policy-test-read.js";
import { EXPECTATIONS } from "./policy-test-read.js";
import type { InputKind, InputVerdicts } from "./policy-test-subjects.js";
import { subjectNameProblem } from "./policy-test-subjects.js";

/** A pack under test, as a test file named it. */
export interface TestedPack {
  /** The file's absolute path: one pack however many test files name it. */
  readonly key: string;
  /** The file as the output shows it. */
  readonly source: string;
  readonly pack: CompiledPack;
}

/** A rule of a pack under test. */
export interface TestedRule {
  /** `<pack>/<id>`, the code its findings carry. */
  readonly code: string;
  readonly kind: PolicySubject;
  readonly pack: TestedPack;
}

/** One case: a subject a result lists, and what the rule must say of it. */
export interface PlannedCase {
  readonly rule: TestedRule;
  readonly expected: Expectation;
  /** As written: `<input>#<name>`. */
  readonly subject: string;
  readonly input: string;
  readonly name: string;
}

/** What a case found. */
export interface CaseResult {
  readonly rule: string;
  readonly subject: string;
  readonly expected: Expectation;
  /** `fail`: the rule reported a finding on the subject; `missing`: no such subject. */
  readonly actual: "fail" | "pass" | "missing";
  readonly ok: boolean;
  /** The first finding's message, when the rule reported one. */
  readonly message?: string;
  /** How many findings the rule reported on the subject. */
  readonly findings: number;
  /** Set when a waiver covers every finding of the rule on the subject. */
  readonly waived?: DiagnosticWaiver;
  /** Why the subject is missing. */
  readonly reason?: string;
  /**
   * Set when the rule could not decide (a `when` that gave null, a path it could not judge): the
   * finding fails closed, which a `fail` case accepts, but a rule that cannot decide on known
   * facts is usually a rule written wrong, so the output says so.
   */
  readonly undecided?: string;
}

/** The rules of the packs, by `<pack>/<id>`, with the kind of subject each is for. */
export function rulesOf(packs: readonly TestedPack[]): Map<string, TestedRule> {
  const rules = new Map<string, TestedRule>();
  for (const tested of packs) {
    for (const rule of tested.pack.spec.rules) {
      const code = `${tested.pack.name}/${rule.id}`;
      rules.set(code, { code, kind: rule.for, pack: tested });
    }
  }
  return rules;
}

/** The rule a result names (`<id>` or `<pack>/<id>`), or why none. */
function findRule(
  written: string,
  rules: ReadonlyMap<string, TestedRule>,
): TestedRule | { readonly problem: string } {
  if (written.includes("/")) {
    const rule = rules.get(written);
    if (rule !== undefined) return rule;
  } else {
    const matches = [...rules.values()].filter((r) => r.code.endsWith(`/${written}`));
    const [only] = matches;
    if (only !== undefined && matches.length === 1) return only;
    if (matches.length > 1) {
      const codes = matches.map((r) => r.code).join(", ");
      return {
        problem: `rule '${written}' is in more than one pack (${codes}): write <pack>/<id>`,
      };
    }
  }
  const known = [...rules.keys()].join(", ");
  return { problem: `no pack under test has rule '${written}' (rules: ${known || "none"})` };
}

/**
 * Every case of a test file, or the problems of its results: a rule the packs do not have, an
 * input the test does not list, a name that does not fit the rule's subject kind.
 */
export function planCases(
  spec: PolicyTestSpec,
  rules: ReadonlyMap<string, TestedRule>,
  inputKinds: ReadonlyMap<string, InputKind>,
): { readonly cases: PlannedCase[]; readonly problems: Unplaced[] } {
  const cases: PlannedCase[] = [];
  const problems: Unplaced[] = [];
  spec.results.forEach((result, r) => {
    const rule = findRule(result.rule, rules);
    if ("problem" in rule) {
      problems.push({ place: `results[${r}].rule`, message: rule.problem });
      return;
    }
    for (const expected of EXPECTATIONS) {
      (result[expected] ?? []).forEach((subject, i) => {
        const at = `results[${r}].${expected}[${i}]`;
        const hash = subject.indexOf("#");
        const input = hash < 0 ? "" : subject.slice(0, hash);
        const name = subject.slice(hash + 1);
        const kind = inputKinds.get(input);
        if (hash < 0 || kind === undefined) {
          const listed = [...inputKinds.keys()].join(", ");
          const message = `"${subject}" names no input of this test: a subject is <input>#<name>, its input one of ${listed}`;
          problems.push({ place: at, message });
          return;
        }
        const problem = subjectNameProblem(name, rule.kind, kind);
        if (problem !== undefined) {
          problems.push({
            place: at,
            message: `rule ${rule.code} is for ${rule.kind}: ${problem}`,
          });
          return;
        }
        cases.push({ rule, expected, subject, input, name });
      });
    }
  });
  return { cases, problems };
}

/** At most this many subjects are named when one is missing. */
const KNOWN_SHOWN = 8;

/** Why a subject is missing: what the input holds of its kind instead. */
function missingReason(planned: PlannedCase, verdicts: InputVerdicts): string {
  const known = [...(verdicts.subjects.get(planned.rule.kind) ?? [])];
  const shown = known.slice(0, KNOWN_SHOWN).join(", ");
  const more = known.length > KNOWN_SHOWN ? `, … (${String(known.length)} in all)` : "";
  const list = known.length === 0 ? "it has none" : `it has ${shown}${more}`;
  return `no ${planned.rule.kind} "${planned.name}" in ${planned.input} (${list})`;
}

/** Judges one case from the subjects of its input and the findings on them. */
export function judgeCase(planned: PlannedCase, verdicts: InputVerdicts): CaseResult {
  const base = { rule: planned.rule.code, subject: planned.subject, expected: planned.expected };
  if (!(verdicts.subjects.get(planned.rule.kind)?.has(planned.name) ?? false)) {
    return {
      ...base,
      actual: "missing",
      ok: false,
      findings: 0,
      reason: missingReason(planned, verdicts),
    };
  }
  const found: readonly Diagnostic[] =
    verdicts.findings.get(planned.rule.code)?.get(planned.name) ?? [];
  const [first] = found;
  if (first === undefined) {
    return { ...base, actual: "pass", ok: planned.expected === "pass", findings: 0 };
  }
  // Waived only when a waiver covers every finding: one that still blocks is a plain failure.
  const waived = found.every((d) => d.waived !== undefined) ? first.waived : undefined;
  const ok = planned.expected === "fail" || (planned.expected === "waived" && waived !== undefined);
  const undecided = found.map((d) => d.data.reason).find((r) => typeof r === "string");
  return {
    ...base,
    actual: "fail",
    ok,
    message: first.message,
    findings: found.length,
    ...(waived === undefined ? {} : { waived }),
    ...(typeof undecided === "string" ? { undecided } : {}),
  };
}

/** One rule's coverage: how many cases expect it to fail (waived too) and to pass. */
export interface RuleCoverage {
  readonly rule: string;
  readonly pack: string;
  /** The pack file, as the output shows it. */
  readonly source: string;
  readonly failing: number;
  readonly passing: number;
  /** Covered: at least one failing and one passing case. */
  readonly covered: boolean;
}

/** The coverage of every rule of every pack under test, in pack and rule order. */
export function coverageOf(
  packs: readonly TestedPack[],
  cases: readonly PlannedCase[],
): RuleCoverage[] {
  const counts = new Map<string, { failing: number; passing: number }>();
  for (const c of cases) {
    const key = `${c.rule.pack.key}\u0000${c.rule.code}`;
    const count = counts.get(key) ?? { failing: 0, passing: 0 };
    if (c.expected === "pass") count.passing += 1;
    else count.failing += 1;
    counts.set(key, count);
  }
  const out: RuleCoverage[] = [];
  const seen = new Set<string>();
  for (const tested of packs) {
    if (seen.has(tested.key)) continue;
    seen.add(tested.key);
    for (const rule of tested.pack.spec.rules) {
      const code = `${tested.pack.name}/${rule.id}`;
      const { failing, passing } = counts.get(`${tested.key}\u0000${code}`) ?? {
        failing: 0,
        passing: 0,
      };
      out.push({
        rule: code,
        pack: tested.pack.name,
        source: tested.source,
        failing,
        passing,
        covered: failing > 0 && passing > 0,
      });
    }
  }
  return out;
}
