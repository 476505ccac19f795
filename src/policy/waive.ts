/**
 * Applying waivers to findings. A waiver that matches a finding (its rule, with or without a
 * pack's `<pack>/` prefix, and its subject) and has not expired marks the finding `waived`: the
 * finding keeps its severity and stays in the output, and whoever decides the verdict stops
 * counting it. An expired waiver applies to nothing and is itself an error; a waiver whose
 * element (or workflow version) is gone from a process (or workflow) that is present is a
 * warning. Waivers about processes and workflows this run did not read are not judged here. A
 * `workflow` waiver never matches a workflow whose `id@version` its importer made up
 * ({@link waiversForUnnamed}): it would match every document imported under that name.
 */
import type { Diagnostic, DiagnosticTarget } from "../model/index.js";
import { WORKFLOW_TARGET } from "../model/index.js";
import type { RuleMeta } from "../rules/index.js";
import { interpolate } from "../rules/internal.js";
import type { Waiver } from "./types.js";
import { WAIVER_EXPIRED, WAIVER_SUBJECT_MISSING } from "./waiver-meta.js";
import type { WaiverPack } from "./waivers.js";
import { duplicatePackProblems } from "./waiver-packs.js";
import { ambiguousWaiverProblems, isCalendarDate, waiverProblems } from "./waivers.js";

/** Today's date, `YYYY-MM-DD` in UTC: the day waivers are judged on unless a caller says. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** What a finding is about, as waivers name subjects. */
export interface WaiverSubject {
  readonly process?: string;
  readonly element?: string;
  /** `id@version`. */
  readonly workflow?: string;
}

/** The subjects the run read: process id → its element ids, and workflows as `id@version`. */
export interface SubjectsPresent {
  readonly processes: ReadonlyMap<string, ReadonlySet<string>>;
  readonly workflows: ReadonlySet<string>;
}

/** The findings with waivers applied, and what the waivers themselves give. */
export interface WaiverOutcome {
  readonly diagnostics: Diagnostic[];
  readonly findings: Diagnostic[];
}

const idOf = (ref: string): string => ref.slice(0, ref.lastIndexOf("@"));

function finding(
  meta: RuleMeta,
  messageId: string,
  target: DiagnosticTarget,
  data: Record<string, unknown>,
): Diagnostic {
  const template = meta.messages[messageId] ?? meta.messages.default;
  return {
    code: meta.code,
    severity: meta.defaultSeverity,
    message: interpolate(template, data),
    ...(meta.remediation === undefined ? {} : { remediation: interpolate(meta.remediation, data) }),
    target,
    path: "",
    data,
  };
}

/** The data of a waiver finding: the waiver as written, and the day it was judged. */
function waiverData(w: Waiver, today: string): Record<string, unknown> {
  return { ...w, today };
}

/** True when `w` covers `subject`. */
function covers(w: Waiver, subject: WaiverSubject): boolean {
  if (w.workflow !== undefined) return subject.workflow === w.workflow;
  return (
    subject.process === w.process && (w.element === undefined || subject.element === w.element)
  );
}

/**
 * Marks the findings the waivers cover, and reports expired waivers and waivers whose subject is
 * gone. `subjectOf` says what a finding is about (`undefined`: nothing a waiver can name);
 * `today` is `YYYY-MM-DD` (a waiver holds through its `expires` day); `packs` gives the pack
 * names whose prefix a waiver's rule may leave out, and their rules: a bare id that two packs
 * have names neither for sure, so it is refused (see `ambiguousWaiverProblems`), and so are two
 * packs of one name, whose waivers would each waive the other's rules, and a pack named as one
 * of `plugins` is (the names the plugins are given under, which prefix their rules' codes), whose
 * waivers would waive the plugin's (see `duplicatePackProblems`): every evaluation with packs
 * comes through here, so each refuses them.
 *
 * @throws TypeError when `today` is no calendar date, a waiver is malformed (see
 * `waiverProblems`), its bare rule id is more than one pack's, or two packs, or a pack and a
 * plugin, share a name.
 *
 * @example
 * ```ts
 * import { applyWaivers } from "agentflow/policy";
 *
 * const finding = { code: "bank/four-eyes", severity: "error" as const, message: "…", target: { kind: "bpmn-element" as const, elementId: "Send" }, path: "", data: {} };
 * const waiver = { rule: "four-eyes", process: "Loans", element: "Send", reason: "pilot", grantedBy: "cro", expires: "2027-03-31" };
 * const present = { processes: new Map([["Loans", new Set(["Send"])]]), workflows: new Set<string>() };
 * const { diagnostics } = applyWaivers([finding], [waiver], () => ({ process: "Loans", element: "Send" }), present, "2027-01-15", [{ name: "bank" }]);
 * diagnostics[0]?.waived; // → { reason: "pilot", grantedBy: "cro", expires: "2027-03-31" }
 * ```
 */
export function applyWaivers(
  diagnostics: readonly Diagnostic[],
  waivers: readonly Waiver[],
  subjectOf: (diagnostic: Diagnostic) => WaiverSubject | undefined,
  subjectsPresent: SubjectsPresent,
  today: string,
  packs: readonly WaiverPack[],
  plugins: readonly string[] = [],
): WaiverOutcome {
  if (!isCalendarDate(today)) {
    throw new TypeError(
      `applyWaivers: today must be a date written YYYY-MM-DD, not ${JSON.stringify(today)}`,
    );
  }
  const malformed = waivers.flatMap((w, i) => waiverProblems(w, `waivers[${i}]`));
  if (malformed.length > 0) throw new TypeError(`applyWaivers: ${malformed.join("; ")}`);
  const clashes = duplicatePackProblems(packs, plugins);
  if (clashes.length > 0) throw new TypeError(`applyWaivers: ${clashes.join("; ")}`);
  const ambiguous = ambiguousWaiverProblems(waivers, packs);
  if (ambiguous.length > 0) throw new TypeError(`applyWaivers: ${ambiguous.join("; ")}`);
  const versions = new Map<string, string[]>();
  for (const ref of subjectsPresent.workflows) {
    const list = versions.get(idOf(ref)) ?? [];
    list.push(ref);
    versions.set(idOf(ref), list);
  }
  const findings: Diagnostic[] = [];
  const byRule = new Map<string, Waiver[]>();
  for (const w of waivers) {
    const data = waiverData(w, today);
    const elements = w.process === undefined ? undefined : subjectsPresent.processes.get(w.process);
    const present = w.workflow === undefined ? undefined : versions.get(idOf(w.workflow));
    if (today > w.expires) {
      if (w.workflow !== undefined) {
        if (present !== undefined)
          findings.push(finding(WAIVER_EXPIRED, "workflow", WORKFLOW_TARGET, data));
      } else if (elements !== undefined && w.process !== undefined) {
        const at = w.element !== undefined && elements.has(w.element) ? w.element : w.process;
        const target = { kind: "bpmn-element" as const, elementId: at };
        findings.push(
          finding(WAIVER_EXPIRED, w.element === undefined ? "process" : "default", target, data),
        );
      }
      continue;
    }
    if (w.element !== undefined && w.process !== undefined && elements?.has(w.element) === false) {
      const target = { kind: "bpmn-element" as const, elementId: w.process };
      findings.push(finding(WAIVER_SUBJECT_MISSING, "default", target, data));
    }
    if (w.workflow !== undefined && present !== undefined && !present.includes(w.workflow)) {
      const missing = { ...data, workflowId: idOf(w.workflow), present: present };
      findings.push(finding(WAIVER_SUBJECT_MISSING, "workflow", WORKFLOW_TARGET, missing));
    }
    const list = byRule.get(w.rule) ?? [];
    list.push(w);
    byRule.set(w.rule, list);
  }
  const packNames = new Set(packs.map((p) => p.name));
  const out = diagnostics.map((d) => {
    if (d.waived !== undefined) return d;
    const slash = d.code.indexOf("/");
    const unprefixed =
      slash > 0 && packNames.has(d.code.slice(0, slash))
        ? byRule.get(d.code.slice(slash + 1))
        : undefined;
    const candidates = [...(byRule.get(d.code) ?? []), ...(unprefixed ?? [])];
    if (candidates.length === 0) return d;
    const subject = subjectOf(d);
    const w = subject === undefined ? undefined : candidates.find((c) => covers(c, subject));
    if (w === undefined) return d;
    return { ...d, waived: { reason: w.reason, grantedBy: w.grantedBy, expires: w.expires } };
  });
  return { diagnostics: out, findings };
}

/**
 * A workflow whose `id@version` is not its own: its importer made it up, its format stating none
 * (every LangGraph drawable graph imports as `langgraph-graph@0.0.0`).
 */
export interface UnnamedWorkflow {
  /** The `id@version` the importer made up. */
  readonly ref: string;
  /** The format it was imported from (`langgraph-graph`). */
  readonly format: string;
}

/** What an unnamed workflow is judged with, and what the waivers left out say of themselves. */
export interface UnnamedWaivers<P extends { readonly waivers: readonly Waiver[] }> {
  /** The waivers given, but those left out. */
  readonly waivers: readonly Waiver[];
  /** The packs given, each with its own waivers but those left out. */
  readonly packs: readonly P[];
  /** A WAIVER_SUBJECT_MISSING warning (message `unnamed`) on the workflow per waiver left out. */
  readonly findings: readonly Diagnostic[];
}

/**
 * The waivers — `waivers` (a config's) and each pack's own — that may apply to the findings of
 * an unnamed workflow: all but the `workflow` waivers in force on `today` that name its made-up
 * `id@version`. Such a waiver was written after reviewing some document imported under that
 * name, and nothing says it was this one; a waiver must not match documents its author never
 * saw, so it waives nothing here (its findings block, failing closed) and a warning says why.
 * An expired one is kept: it applies to nothing anyway, and is WAIVER_EXPIRED as anywhere.
 *
 * @example
 * ```ts
 * import { waiversForUnnamed } from "agentflow/policy";
 *
 * const waiver = { rule: "no-gpt-3", workflow: "langgraph-graph@0.0.0", reason: "reviewed a.graph.json", grantedBy: "cro", expires: "2027-03-31" };
 * const out = waiversForUnnamed([waiver], [], { ref: "langgraph-graph@0.0.0", format: "langgraph-graph" }, "2027-01-15");
 * out.waivers; // → []
 * out.findings.map((d) => [d.code, d.severity]); // → [["WAIVER_SUBJECT_MISSING", "warning"]]
 * ```
 */
export function waiversForUnnamed<P extends { readonly waivers: readonly Waiver[] }>(
  waivers: readonly Waiver[],
  packs: readonly P[],
  unnamed: UnnamedWorkflow,
  today: string,
): UnnamedWaivers<P> {
  const findings: Diagnostic[] = [];
  const keep = (list: readonly Waiver[]): Waiver[] =>
    list.filter((w) => {
      if (w.workflow !== unnamed.ref || today > w.expires) return true;
      const data = { ...waiverData(w, today), format: unnamed.format };
      findings.push(finding(WAIVER_SUBJECT_MISSING, "unnamed", WORKFLOW_TARGET, data));
      return false;
    });
  const own = keep(waivers);
  const kept = packs.map((p) => {
    const left = keep(p.waivers);
    return left.length === p.waivers.length ? p : { ...p, waivers: left };
  });
  return { waivers: own, packs: kept, findings };
}
