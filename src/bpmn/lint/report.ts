/**
 * Which findings of one evaluation each rule reports. bpmnlint gives every report its rule's
 * category and has no "waived" state, so a finding a waiver covers is left out of its own rule
 * (it no longer blocks, as in `agentflow gate`) and shown by the `waived` rule instead, at the
 * category the configuration gives that rule; the findings waivers themselves give
 * (`WAIVER_EXPIRED`, `WAIVER_SUBJECT_MISSING`) go to the rule of the code the waiver names.
 */
import type { Diagnostic, Severity } from "../../model/index.js";
import { WAIVER_FINDINGS } from "../../policy/index.js";
import { RULE_CRASHED } from "../../rules/index.js";
import type { GateDecision } from "../evaluate.js";
import type { ModdleObject } from "../moddle.js";
import { GATE_RULE_CODES } from "./names.js";
import { pathBelow } from "./path.js";
import type { BpmnlintReporter, BpmnlintRule } from "./types.js";

/**
 * A misconfigured rule: it reports each problem on the root, once per lint pass, where
 * bpmnlint's CLI prints it in its table and bpmn-js shows it on the diagram. A throw would end
 * the whole lint pass with a stack trace and lint nothing; a pass would hide the problem.
 */
export function misconfigured(
  name: string,
  url: string,
  problems: readonly string[],
): BpmnlintRule {
  return {
    meta: { documentation: { url } },
    check(element, reporter) {
      if (element.$type === "bpmn:Definitions") {
        const id = typeof element.id === "string" ? element.id : "";
        for (const problem of problems) {
          reporter.report(id, `agentflow/${name}: ${problem}; the rule did not run`);
        }
      }
      return false;
    },
  };
}

function findings(decision: GateDecision): readonly Diagnostic[] {
  return [...decision.blocking, ...decision.warnings];
}

function report(
  definitions: ModdleObject,
  d: Diagnostic,
  reporter: BpmnlintReporter,
  message: string = d.message,
): void {
  const elementId = d.target.kind === "bpmn-element" ? d.target.elementId : "";
  const path = pathBelow(definitions, d.path, elementId);
  if (path === undefined) reporter.report(elementId, message);
  else reporter.report(elementId, message, path);
}

/** The rule a waiver names, for a finding about the waiver itself; `undefined` otherwise. */
function waiverRule(d: Diagnostic): string | undefined {
  if (!Object.hasOwn(WAIVER_FINDINGS, d.code)) return undefined;
  const rule = d.data.rule;
  return typeof rule === "string" ? rule : "";
}

/**
 * A gate rule's reports: the findings of its code no waiver covers, and the findings about
 * waivers of its code (prefixed with their own code). Its code's crash is thrown, for bpmnlint
 * to show as the rule's `rule-error`, which is what it is.
 */
export function reportCode(
  definitions: ModdleObject,
  decision: GateDecision,
  code: string,
  reporter: BpmnlintReporter,
): void {
  for (const d of findings(decision)) {
    if (d.code === RULE_CRASHED && d.data.rule === code) throw new Error(d.message);
    if (d.code === code && d.waived === undefined) report(definitions, d, reporter);
    else if (waiverRule(d) === code) report(definitions, d, reporter, `${d.code}: ${d.message}`);
  }
}

/** Codes of policy packs and plugins are `<name>/<id>`; the gate rules' codes have no `/`. */
function isExtensionCode(code: string): boolean {
  return code.includes("/");
}

/**
 * The `policy` rule's reports, each message prefixed with its code (a pack rule's
 * `<pack>/<id>`): the findings of packs and plugins no waiver covers, at the pack severities
 * asked for; the findings about waivers of rules that no gate rule reports; and a pack rule
 * that crashed (always: a check that could not run must not pass silently).
 */
export function reportPolicy(
  definitions: ModdleObject,
  decision: GateDecision,
  severities: ReadonlySet<Severity>,
  reporter: BpmnlintReporter,
): void {
  for (const d of findings(decision)) {
    const crashed =
      d.code === RULE_CRASHED && typeof d.data.rule === "string" && isExtensionCode(d.data.rule);
    const own = isExtensionCode(d.code) && d.waived === undefined;
    const rule = waiverRule(d);
    const aboutWaiver = rule !== undefined && !GATE_RULE_CODES.has(rule);
    if (crashed || ((own || aboutWaiver) && severities.has(d.severity))) {
      report(definitions, d, reporter, `${d.code}: ${d.message}`);
    }
  }
}

/**
 * The `waived` rule's reports: every finding a waiver covers, with its code, the waiver's
 * owner, end date and reason, so that a waived finding is shown, never silently dropped.
 */
export function reportWaived(
  definitions: ModdleObject,
  decision: GateDecision,
  reporter: BpmnlintReporter,
): void {
  for (const d of findings(decision)) {
    if (d.waived === undefined) continue;
    const { grantedBy, expires, reason } = d.waived;
    const note = `waived by ${grantedBy} until ${expires}: ${reason}`;
    report(definitions, d, reporter, `${d.code}: ${d.message} (${note})`);
  }
}
