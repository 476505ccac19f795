/**
 * Judging one subject by one pack rule: does `when` select it (failing closed, feel.ts), and if
 * the rule has a `require`, does every path from the agent task to an end meet it (the gate
 * engine's answer, as AGENT_GATE_BYPASS reports it). The verdict is a message id and the
 * finding's data, or nothing.
 *
 * FEEL's `today()` and `now()` read the system clock, as `check` and `gate` document; a policy
 * test judges on the day it names instead ({@link judgedOn}), or its case would flip on a date.
 */
import { date, dateAndTime } from "feelin";
import type { PolicySubject } from "./facts.js";
import type { CompiledWhen, TryBudget } from "./feel.js";
import { assumptionText, decideWhen } from "./feel.js";
import type { PackMessageId } from "./messages.js";
import { TOOL_DATA, toolWords } from "./messages.js";
import type { GatePathRequirement, GatePathResult } from "./types.js";
import type { Projection } from "./unknowns.js";
import { project } from "./unknowns.js";
import { isCalendarDate } from "./waivers.js";

/** A pack rule ready to judge subjects. */
export interface JudgedRule {
  readonly pack: string;
  readonly id: string;
  readonly subject: PolicySubject;
  /** Absent: every subject of its kind is selected. */
  readonly when?: CompiledWhen;
  readonly require?: GatePathRequirement;
}

/** A finding: which message, and its data. */
export interface Verdict {
  readonly messageId: PackMessageId;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What failing a requirement adds to the data, by the predicate that failed. */
function requireData(
  requirement: GatePathRequirement,
  result: Extract<GatePathResult, { holds: false }>,
): { messageId: PackMessageId; data: Record<string, unknown> } {
  if (result.failed === "undecidable") {
    return {
      messageId: "requireUndecided",
      data: { failed: result.failed, reason: result.reason },
    };
  }
  const messageId: PackMessageId =
    result.failed === "min"
      ? "requireMin"
      : result.failed === "distinctRoles"
        ? "requireDistinctRoles"
        : "requireRoles";
  return {
    messageId,
    data: {
      failed: result.failed,
      required: requirement[result.failed] ?? null,
      bypassPath: result.path.join(" → "),
      pathIds: result.path,
      rolesOnPath: result.rolesOnPath,
      rolesOnPathCount: result.rolesOnPath.length,
      // Words for the message: a list in brackets says nothing when it is empty.
      rolesText:
        result.rolesOnPath.length === 0
          ? "no gate with an approver role"
          : `only gates of ${result.rolesOnPath.map((r) => JSON.stringify(r)).join(", ")}`,
      gatesOnPath: result.gatesOnPath,
      ...(result.missingRole === undefined ? {} : { missingRole: result.missingRole }),
    },
  };
}

/**
 * Projections by facts object: every rule of every pack judges the same subjects, and copying an
 * agent task's facts (its downstream gates can number in the thousands) once per rule was most
 * of a pack's cost. The evaluator restores every slot it fills, so one copy serves each rule.
 */
const projections = new WeakMap<object, Map<PolicySubject, Projection>>();

function projectionOf(facts: unknown, subject: PolicySubject): Projection {
  if (typeof facts !== "object" || facts === null) return project(facts, subject);
  let bySubject = projections.get(facts);
  if (bySubject === undefined)
    projections.set(facts, (bySubject = new Map<PolicySubject, Projection>()));
  let projection = bySubject.get(subject);
  if (projection === undefined) bySubject.set(subject, (projection = project(facts, subject)));
  return projection;
}

/** The day `today()` reads while {@link judgedOn} runs, and how many runs hold it. */
let clock: { readonly day: string; holders: number } | undefined;

/**
 * Judges every pack rule `run` judges on `day` (`YYYY-MM-DD`): FEEL's `today()` is that day and
 * `now()` its first instant, 00:00 UTC, instead of the system clock. For `agentflow policy test`,
 * whose cases name their day; the module holds the day while `run` runs (the rules are judged
 * deep inside a check that passes no clock), so every judging it overlaps must be on the same day.
 *
 * @throws TypeError when `day` is no calendar date, or another day is held.
 */
export async function judgedOn<T>(day: string, run: () => Promise<T>): Promise<T> {
  if (!isCalendarDate(day)) {
    throw new TypeError(`judgedOn: ${JSON.stringify(day)} is not a date written YYYY-MM-DD`);
  }
  if (clock !== undefined && clock.day !== day) {
    throw new TypeError(`judgedOn: already judging on ${clock.day}, not ${day}`);
  }
  const held = (clock ??= { day, holders: 0 });
  held.holders += 1;
  try {
    return await run();
  } finally {
    held.holders -= 1;
    if (held.holders === 0) clock = undefined;
  }
}

/** Each `when` that reads the clock, made to read `today` and `now` from its facts. */
const clocked = new WeakMap<CompiledWhen, CompiledWhen>();

/**
 * Decides `when` on `day`: a FEEL name in the context shadows the built-in function of that name,
 * so the facts hold `today` and `now` for the one evaluation (judging is synchronous; they are
 * gone before the facts become the finding's data).
 */
function decideOn(
  day: string,
  when: CompiledWhen,
  subject: Projection,
  budget: TryBudget | undefined,
): ReturnType<typeof decideWhen> {
  let reading = clocked.get(when);
  if (reading === undefined) {
    const roots = new Set([...when.reads.roots, "today", "now"]);
    clocked.set(when, (reading = { text: when.text, reads: { ...when.reads, roots } }));
  }
  const facts = subject.facts;
  facts.today = () => date(day);
  facts.now = () => dateAndTime(`${day}T00:00:00@UTC`);
  try {
    return decideWhen(reading, subject, budget);
  } finally {
    delete facts.today;
    delete facts.now;
  }
}

/**
 * The verdict of `rule` on one subject (`facts` as the view holds them), or `undefined` when the
 * subject passes. `checkGatePath` answers the rule's `require` (agent tasks only); `budget`
 * bounds the tries of unknown values the rule makes on the subjects of one document.
 */
export function judge(
  rule: JudgedRule,
  facts: unknown,
  checkGatePath?: (requirement: GatePathRequirement) => GatePathResult,
  budget?: TryBudget,
): Verdict | undefined {
  const subject = projectionOf(facts, rule.subject);
  const outcome =
    rule.when === undefined
      ? { kind: "yes" as const }
      : clock !== undefined && rule.when.reads.volatile
        ? decideOn(clock.day, rule.when, subject, budget)
        : decideWhen(rule.when, subject, budget);
  if (outcome.kind === "no") return undefined;
  const base: Record<string, unknown> = { ...subject.facts, ruleId: rule.id, pack: rule.pack };
  if (rule.subject === "tool") base[TOOL_DATA] = toolWords(subject.facts.ref);
  if (outcome.kind === "yes" && outcome.assumed !== undefined) {
    base.assumed = outcome.assumed;
    base.assumption = assumptionText(outcome.assumed);
  }
  if (rule.require !== undefined) {
    if (checkGatePath === undefined) return undefined; // only agent tasks have paths (compile.ts)
    const result = checkGatePath(rule.require);
    if (result.holds) return undefined;
    const failure = requireData(rule.require, result);
    // An undecided `when` is kept apart from the gate engine's own `reason`.
    if (outcome.kind === "undecided") base.whenReason = outcome.reason;
    return { messageId: failure.messageId, data: { ...base, ...failure.data } };
  }
  if (outcome.kind === "undecided") {
    return { messageId: "undecided", data: { ...base, reason: outcome.reason } };
  }
  return { messageId: outcome.assumed === undefined ? "default" : "assumed", data: base };
}
