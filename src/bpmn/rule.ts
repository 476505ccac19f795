/**
 * The BPMN rule contract and the loop that runs rules into diagnostics (the same shape and the
 * same message interpolation as the workflow rules; SPEC 3 and 7).
 */
import type { Diagnostic, Severity } from "../model/index.js";
import { interpolate } from "../validate/message.js";
import type { GateAnalysis } from "./analysis.js";
import type { ParseIssue } from "./rules/BPMN_PARSE.js";
import type { BpmnReport, BpmnRuleMeta } from "./types.js";

/** What a BPMN rule's check receives. */
export interface BpmnRuleContext {
  /** The shared facts; `undefined` when only parse issues are being reported. */
  readonly analysis: GateAnalysis | undefined;
  readonly parseIssues: readonly ParseIssue[];
  report(report: BpmnReport): void;
}

/** One BPMN rule: metadata and a check that reports ids and data. */
export interface BpmnRule {
  readonly meta: BpmnRuleMeta;
  check(context: BpmnRuleContext): void;
}

/** A rule with the severity it runs at. */
export interface ActiveBpmnRule {
  readonly rule: BpmnRule;
  readonly severity: Severity;
}

/** The severity of one report: a rule's per-kind severity never exceeds the configured one. */
function severityOf(configured: Severity, reported: Severity | undefined): Severity {
  if (reported === undefined || configured !== "error") return configured;
  return reported;
}

/** Runs rules over the facts; a rule that throws becomes a `RULE_CRASHED` error on the document. */
export function runBpmnRules(
  rules: readonly ActiveBpmnRule[],
  facts: {
    readonly analysis: GateAnalysis | undefined;
    readonly parseIssues: readonly ParseIssue[];
  },
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { rule, severity } of rules) {
    const { meta } = rule;
    try {
      rule.check({
        ...facts,
        report(r) {
          const template = meta.messages[r.messageId ?? "default"] ?? meta.messages.default;
          const diagnostic: Diagnostic = {
            code: meta.code,
            severity: severityOf(severity, r.severity),
            message: interpolate(template, r.data),
            target: { kind: "bpmn-element", elementId: r.elementId, path: r.path },
            path: r.path,
            data: r.data,
            ...(r.location === undefined ? {} : { location: r.location }),
          };
          out.push(
            meta.remediation === undefined
              ? diagnostic
              : { ...diagnostic, remediation: interpolate(meta.remediation, r.data) },
          );
        },
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      out.push({
        code: "RULE_CRASHED",
        severity: "error",
        message: `rule ${meta.code} failed on this process (${detail}); its check did not run`,
        remediation: "report this as a bug in agentflow",
        target: { kind: "bpmn-element", elementId: "" },
        path: "",
        data: { rule: meta.code, error: detail },
      });
    }
  }
  return out;
}
