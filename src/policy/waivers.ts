/**
 * What makes a waiver well formed, for a pack's `waivers` and the config's alike: the rule, a
 * reason, who granted it, the last day it holds (a real calendar date), and exactly one subject —
 * a process (with an optional element of it) or a workflow `id@version`. A waiver that cannot be
 * read would either waive nothing (and surprise its owner) or too much; both are usage errors.
 */
import { BPMN_RULE_CODES, WORKFLOW_RULE_CODES } from "../rules/builtin-codes.js";
import type { Waiver } from "./types.js";
import { kindOf, quoteValue } from "./shape.js";

/** One problem of a waiver: the key it is about (`""` for the whole) and what is wrong. */
export interface WaiverIssue {
  readonly key: string;
  readonly message: string;
}

const KEYS = ["rule", "process", "element", "workflow", "reason", "grantedBy", "expires"];
const REQUIRED = ["rule", "reason", "grantedBy", "expires"];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WORKFLOW_REF = /^[^@\s]+@[^@\s]+$/;

/** True for `YYYY-MM-DD` naming a day that exists (no 2027-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** Every problem of a waiver (empty when it is well formed). */
export function waiverIssues(value: unknown): WaiverIssue[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ key: "", message: `must be a mapping, not ${kindOf(value)}` }];
  }
  const w = value as Record<string, unknown>;
  const issues: WaiverIssue[] = [];
  for (const key of Object.keys(w)) {
    if (!KEYS.includes(key)) {
      issues.push({
        key,
        message: `unknown key ${quoteValue(key)} (keys here: ${KEYS.join(", ")})`,
      });
    }
  }
  for (const key of REQUIRED) {
    if (!Object.hasOwn(w, key)) issues.push({ key: "", message: `missing '${key}'` });
  }
  for (const key of KEYS) {
    const v = w[key];
    if (v === undefined) continue;
    if (typeof v !== "string") issues.push({ key, message: `must be a string, not ${kindOf(v)}` });
    else if (v.trim() === "") issues.push({ key, message: "must not be empty" });
  }
  const { expires, process, element, workflow } = w;
  if (typeof expires === "string" && expires.trim() !== "" && !isCalendarDate(expires)) {
    issues.push({
      key: "expires",
      message: `${quoteValue(expires)} is not a calendar date written YYYY-MM-DD`,
    });
  }
  if (process === undefined && workflow === undefined) {
    issues.push({
      key: "",
      message: "names no subject: give 'process' (with an optional 'element') or 'workflow'",
    });
  }
  if (process !== undefined && workflow !== undefined) {
    issues.push({
      key: "",
      message: "names both a process and a workflow; a waiver covers one subject",
    });
  }
  if (element !== undefined && process === undefined) {
    issues.push({ key: "element", message: "'element' needs 'process' (the process it is in)" });
  }
  if (typeof workflow === "string" && workflow.trim() !== "" && !WORKFLOW_REF.test(workflow)) {
    issues.push({ key: "workflow", message: `${quoteValue(workflow)} is not written id@version` });
  }
  return issues;
}

/**
 * Why a waiver of pack `pack` may not name `rule`, or `undefined` when it names one of the pack's
 * own rules (`ids`), bare or as `<pack>/<id>`. A pack waives only its own rules: a waiver of
 * another pack's rule, a plugin's or agentflow's would let any pack a config lists — a team's
 * own, perhaps — silence what others require, and one of a misspelt rule would waive nothing
 * while its owner believes it does. Waivers of other rules belong in the config.
 */
export function foreignWaiverProblem(
  rule: string,
  pack: string,
  ids: readonly string[],
): string | undefined {
  const prefix = `${pack}/`;
  const id = rule.startsWith(prefix) ? rule.slice(prefix.length) : rule;
  if (ids.includes(id)) return undefined;
  // Ids of letters, digits, `_` and `-` only (any other is a problem of its own): safe to show.
  const shown = ids.filter((i) => /^[\w-]+$/.test(i));
  const own =
    shown.length === 0
      ? "it has none"
      : `its rules: ${shown.slice(0, 8).join(", ")}${shown.length > 8 ? `, … (${shown.length})` : ""}`;
  return `${quoteValue(rule)} is no rule of pack '${pack}' (${own}): a pack waives only its own rules; waive another pack's, a plugin's or agentflow's in the config's waivers`;
}

/**
 * Why `value` is no well-formed waiver, one line per problem, each starting with `where` (for
 * example `waivers[2]`, or `agentflow.config.json: /waivers/2`); empty when it is one.
 *
 * @example
 * ```ts
 * import { waiverProblems } from "agentflow/policy";
 *
 * waiverProblems({ rule: "four-eyes", process: "Loans", reason: "pilot", grantedBy: "cro", expires: "2027-02-30" }, "waivers[0]");
 * // → ["waivers[0].expires: \"2027-02-30\" is not a calendar date written YYYY-MM-DD"]
 * ```
 */
export function waiverProblems(value: unknown, where: string): string[] {
  return waiverIssues(value).map(
    (issue) => `${where}${issue.key === "" ? "" : `.${issue.key}`}: ${issue.message}`,
  );
}

/** True when `value` is a well-formed {@link Waiver}. */
export function isWaiver(value: unknown): value is Waiver {
  return waiverIssues(value).length === 0;
}

/**
 * A pack as waivers see it: its name (a waiver's rule may leave out `<name>/`) and, to tell
 * which packs a bare rule id names, its rules; its own waivers and file name place a problem.
 */
export interface WaiverPack {
  readonly name: string;
  readonly source?: string;
  readonly spec?: { readonly rules: readonly { readonly id: string }[] };
  readonly waivers?: readonly Waiver[];
}

/** agentflow's own rule codes, which a bare waiver id names as it is. */
const BUILT_IN_CODES: ReadonlySet<string> = new Set([...BPMN_RULE_CODES, ...WORKFLOW_RULE_CODES]);

/**
 * Waivers whose rule is a bare id that more than one pack has, or one pack and agentflow (a
 * built-in code), one line each: such a waiver would waive every rule of that id, where its owner
 * meant one (in the config or in a pack's own waivers alike). A waiver of a pack's `waivers` is placed as `<source>: waivers[j]`,
 * any other as `waivers[i]` of `waivers`; empty when none is ambiguous.
 *
 * @example
 * ```ts
 * import { ambiguousWaiverProblems } from "agentflow/policy";
 *
 * const rules = [{ id: "no-level-2" }];
 * const packs = [{ name: "security", spec: { rules } }, { name: "cost", spec: { rules } }];
 * const waiver = { rule: "no-level-2", process: "Loans", reason: "pilot", grantedBy: "cfo", expires: "2027-03-31" };
 * ambiguousWaiverProblems([waiver], packs);
 * // → ["waivers[0].rule: 'no-level-2' is a rule of more than one pack (security/no-level-2, cost/no-level-2): write <pack>/<id>"]
 * ```
 */
export function ambiguousWaiverProblems(
  waivers: readonly Waiver[],
  packs: readonly WaiverPack[],
): string[] {
  const out: string[] = [];
  waivers.forEach((w, i) => {
    if (w.rule.includes("/")) return;
    const owners = new Set(
      packs.filter((p) => p.spec?.rules.some((r) => r.id === w.rule) === true).map((p) => p.name),
    );
    // A pack rule may share its id with one of agentflow's codes: the bare id waives both.
    const builtIn = BUILT_IN_CODES.has(w.rule);
    if (owners.size + (builtIn ? 1 : 0) < 2) return;
    const codes = [...(builtIn ? [w.rule] : []), ...[...owners].map((n) => `${n}/${w.rule}`)].join(
      ", ",
    );
    const pack = packs.find((p) => p.waivers?.includes(w) === true);
    const where =
      pack === undefined
        ? `waivers[${i}]`
        : `${pack.source ?? pack.name}: waivers[${String(pack.waivers?.indexOf(w))}]`;
    // The id is a pack rule's, so of letters, digits, `_` and `-` only: safe to show as is.
    out.push(
      builtIn
        ? `${where}.rule: '${w.rule}' is agentflow's rule and a pack's (${codes}): write <pack>/<id> for a pack's; agentflow's can be waived once no pack's rule has its id`
        : `${where}.rule: '${w.rule}' is a rule of more than one pack (${codes}): write <pack>/<id>`,
    );
  });
  return out;
}
