/**
 * Reading a policy pack: YAML or JSON text (the reader workflows use, with its limits), its
 * shape against the published schema, its waivers, then each rule compiled. Every problem is
 * found and placed (file, rule id, place in the pack, line and column — inside a `when` down to
 * the FEEL token), never a silent pass: a pack that does not compile judges nothing.
 */
import type { SourceLocation } from "../model/index.js";
import { contentHash } from "../model/index.js";
import { readDocumentText } from "../model/internal.js";
import { compileRules } from "./compile.js";
import type { RuleProblem } from "./rule-check.js";
import { ruleProblems } from "./rule-check.js";
import type { PackText } from "./positions.js";
import { packText, placeOfPointer, pointerOfPlace } from "./positions.js";
import { quoteHint, shapeProblems } from "./shape.js";
import type { CompiledPack, PackReading, PolicyPackSpec, PolicyProblem } from "./types.js";
import { foreignWaiverProblem, waiverIssues } from "./waivers.js";

/** A pack that does not compile, for callers that pass packs as data. */
export class PolicyPackError extends Error {
  /** Every problem found, in document order when the pack was text. */
  readonly problems: readonly PolicyProblem[];

  constructor(problems: readonly PolicyProblem[]) {
    super(problems.map(formatPolicyProblem).join("\n"));
    this.name = "PolicyPackError";
    this.problems = problems;
  }
}

/**
 * One line for a problem, as a compiler prints one: file, line and column, rule, place, message.
 *
 * @example
 * ```ts
 * import { formatPolicyProblem } from "agentflow/policy";
 *
 * formatPolicyProblem({ source: "bank.policy.yaml", ruleId: "four-eyes", place: "rules[1].when", line: 14, column: 12, message: "unknown fact 'tool'" });
 * // → "bank.policy.yaml:14:12: rule four-eyes: when: unknown fact 'tool'"
 * ```
 */
export function formatPolicyProblem(problem: PolicyProblem): string {
  const where = problem.line === undefined ? "" : `:${problem.line}:${problem.column ?? 1}`;
  let place = problem.place;
  let rule = "";
  if (problem.ruleId !== undefined) {
    rule = `rule ${problem.ruleId}: `;
    place = place.replace(/^rules\[\d+\]\.?/, "");
  }
  return `${problem.source}${where}: ${rule}${place === "" ? "" : `${place}: `}${problem.message}`;
}

/**
 * A problem before it is placed in the text: its place, an offset inside a `when`, and a value
 * to advise quoting (shape.ts `quoteHint`).
 */
type Unplaced = Omit<RuleProblem, "ruleId"> & {
  readonly ruleId?: string;
  readonly quote?: number | boolean;
};

/** The id of rule `index` in a value that may not be a pack, if it has a usable one. */
function ruleIdAt(value: unknown, place: string): string | undefined {
  const index = /^rules\[(\d+)\]/.exec(place)?.[1];
  if (index === undefined) return undefined;
  const rules = (value as { rules?: unknown } | null)?.rules;
  const rule: unknown = Array.isArray(rules) ? rules[Number(index)] : undefined;
  const id = (rule as { id?: unknown } | undefined)?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** A pack's compiled rules, with the spec they were compiled from and its hash. */
type Compiled = ReturnType<typeof compileRules> & {
  readonly spec: PolicyPackSpec;
  readonly sha256: string;
};

/**
 * Every problem of a pack value, unplaced; none when it compiles (then `compiled` is set). The
 * rules and waivers are checked further even when the shape of others is wrong, so one run names
 * every problem of the file. Waivers are checked by `waiverIssues` alone (it checks what their
 * schema says, and the calendar and the subject), so their problems are not named twice.
 */
function check(value: unknown, source: string): { problems: Unplaced[]; compiled?: Compiled } {
  const problems: Unplaced[] = [];
  for (const p of shapeProblems(value)) {
    const place = placeOfPointer(p.pointer);
    if (/^waivers\[\d+\]/.test(place)) continue;
    const ruleId = ruleIdAt(value, place);
    problems.push({
      place,
      message: p.message,
      ...(ruleId === undefined ? {} : { ruleId }),
      ...(p.quote === undefined ? {} : { quote: p.quote }),
    });
  }
  const root = value as Partial<Record<keyof PolicyPackSpec, unknown>> | null;
  if (typeof root !== "object" || root === null || Array.isArray(root)) return { problems };
  const waivers: unknown[] = Array.isArray(root.waivers) ? root.waivers : [];
  const rules: unknown[] = Array.isArray(root.rules) ? root.rules : [];
  const ids = rules.flatMap((r) => {
    const id = (r as { id?: unknown } | null)?.id;
    return typeof id === "string" ? [id] : [];
  });
  waivers.forEach((waiver, i) => {
    const issues = waiverIssues(waiver);
    for (const issue of issues) {
      const place = `waivers[${i}]${issue.key === "" ? "" : `.${issue.key}`}`;
      problems.push({ place, message: issue.message });
    }
    const rule = (waiver as { rule?: unknown } | null)?.rule;
    if (typeof rule !== "string" || typeof root.name !== "string") return;
    if (issues.some((issue) => issue.key === "rule")) return;
    const foreign = foreignWaiverProblem(rule, root.name, ids);
    if (foreign !== undefined) problems.push({ place: `waivers[${i}].rule`, message: foreign });
  });
  const checked = ruleProblems(rules);
  problems.push(...checked.problems);
  if (problems.length > 0) return { problems };
  // A sound shape holds only JSON data: the copy keeps the compiled rules from the caller's edits.
  const spec = JSON.parse(JSON.stringify(value)) as PolicyPackSpec;
  let sha256: string;
  try {
    sha256 = contentHash(spec);
  } catch (error) {
    // A lone surrogate: valid JavaScript, no Unicode text, so no canonical form to name.
    return { problems: [{ place: "", message: `has no canonical JSON form: ${String(error)}` }] };
  }
  return { problems, compiled: { ...compileRules(spec, source, checked.checks), spec, sha256 } };
}

function packOf(compiled: Compiled, source: string): CompiledPack {
  const { spec } = compiled;
  return {
    name: spec.name,
    version: spec.version,
    source,
    sha256: compiled.sha256,
    spec,
    waivers: spec.waivers ?? [],
    processRules: compiled.processRules,
    workflowRules: compiled.workflowRules,
  };
}

/** Places problems in the text, in document order. */
function placed(
  value: unknown,
  problems: readonly Unplaced[],
  source: string,
  text: PackText,
): PolicyProblem[] {
  const located = text.places(problems.map((p) => p.place));
  const out = problems.map((p, i) => {
    let location: SourceLocation | undefined = located.get(p.place);
    if (location !== undefined && p.offset !== undefined) {
      const expr = readAt(value, p.place);
      if (typeof expr === "string") location = text.inside(location, expr, p.offset);
    }
    const written =
      location === undefined || p.quote === undefined ? undefined : text.token(location);
    return { problem: toProblem(p, source, location, written), i };
  });
  const key = (p: PolicyProblem): number => (p.line ?? 0) * 1e7 + (p.column ?? 0);
  out.sort((a, b) => key(a.problem) - key(b.problem) || a.i - b.i);
  return out.map((o) => o.problem);
}

/** The value at a place of a plain value. */
function readAt(value: unknown, place: string): unknown {
  let at: unknown = value;
  for (const token of pointerOfPlace(place).split("/").slice(1)) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return at;
}

/** A problem placed (or not: a pack given as data), its quoting advice worded as `written`. */
function toProblem(
  p: Unplaced,
  source: string,
  location?: SourceLocation,
  written?: string,
): PolicyProblem {
  const hint = p.quote === undefined ? "" : quoteHint(p.quote, written);
  return {
    source,
    ...(p.ruleId === undefined ? {} : { ruleId: p.ruleId }),
    place: p.place,
    ...(location === undefined ? {} : { line: location.line, column: location.column }),
    message: `${p.message}${hint}`,
  };
}

/**
 * Reads, checks and compiles a pack from its text (YAML or JSON); `source` names the file in
 * problems and in the rules' docs links.
 *
 * @example
 * ```ts
 * import { formatPolicyProblem, readPolicyPack } from "agentflow/policy";
 *
 * const text = "kind: PolicyPack\nname: bank\nversion: 1.0.0\nrules:\n  - id: high\n    severity: error\n    for: agentTask\n    when: levl >= 4\n";
 * const reading = readPolicyPack(text, "bank.policy.yaml");
 * "problems" in reading ? reading.problems.map(formatPolicyProblem) : [];
 * // → ["bank.policy.yaml:8:11: rule high: when: unknown fact 'levl' (facts of agentTask: process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread)"]
 * ```
 */
export function readPolicyPack(text: string, source: string): PackReading {
  const read = readDocumentText(text);
  if (!read.ok) {
    return {
      problems: read.problems.map((p) => ({
        source,
        place: "",
        line: p.location.line,
        column: p.location.column,
        message: `cannot be read as YAML or JSON: ${p.message}`,
      })),
    };
  }
  const result = check(read.value, source);
  if (result.compiled === undefined) {
    return { problems: placed(read.value, result.problems, source, packText(text, read.format)) };
  }
  return { pack: packOf(result.compiled, source) };
}

/**
 * Checks and compiles a pack given as plain data (as a browser or a library caller holds it).
 *
 * @throws PolicyPackError listing every problem (without line numbers: there is no text).
 *
 * @example
 * ```ts
 * import { compilePolicyPack } from "agentflow/policy";
 *
 * const pack = compilePolicyPack({
 *   kind: "PolicyPack",
 *   name: "bank",
 *   version: "1.0.0",
 *   rules: [{ id: "no-level-5", severity: "error", for: "agentTask", when: "level = 5" }],
 * });
 * pack.processRules.map((rule) => rule.meta.code); // → ["bank/no-level-5"]
 * ```
 */
export function compilePolicyPack(spec: unknown, source = "<pack>"): CompiledPack {
  const result = check(spec, source);
  if (result.compiled === undefined) {
    throw new PolicyPackError(result.problems.map((p) => toProblem(p, source)));
  }
  return packOf(result.compiled, source);
}
