/**
 * The BPMN rule contract and the loop that runs rules into diagnostics (the same shape and the
 * same message interpolation as the workflow rules; SPEC 3 and 7).
 */
import type { Diagnostic, Severity } from "../model/index.js";
import type { RuleDefinition } from "../rules/index.js";
import type { ActiveRule } from "../rules/internal.js";
import { RULE_CRASHED } from "../rules/index.js";
import {
  interpolate,
  reportLocation,
  reportSeverity,
  runRules,
  stringField,
} from "../rules/internal.js";
import type { GateAnalysis } from "./analysis.js";
import type { BpmnReport, ParseIssue } from "./types.js";
import type { ProcessView } from "../policy/index.js";
import { processView } from "./view/process-view.js";

/** What a BPMN (process) rule's check receives. */
export interface BpmnRuleContext {
  /** The shared facts; `undefined` when only parse issues are being reported. */
  readonly analysis: GateAnalysis | undefined;
  readonly parseIssues: readonly ParseIssue[];
  /** Options given for this rule (`rules: { CODE: ["error", options] }`), or `{}`. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * The process as the policy fact model has it (docs/policies.md): agent tasks, processes,
   * gates, their workflows and tools, and `checkGatePath`. Built on first read; `undefined` when
   * only parse issues are being reported.
   */
  readonly view: ProcessView | undefined;
  report(report: BpmnReport): void;
}

/** One BPMN rule, made with `defineRule` (`meta.scope: "process"`): a check that reports ids and data. */
export type BpmnRule = RuleDefinition<BpmnRuleContext>;

/** A rule with the severity and options it runs with. */
export type ActiveBpmnRule = ActiveRule<BpmnRuleContext>;

/** The severity of one report: a rule's per-kind severity never exceeds the configured one. */
function severityOf(configured: Severity, reported: Severity | undefined): Severity {
  if (reported === undefined || configured !== "error") return configured;
  return reported;
}

/**
 * bpmn-moddle's methods that write through the real element (`element.set(name, value)` and
 * the `$model.properties` it calls), found from an element of the analysis: a guarded rule's
 * read-only view refuses them as it refuses an assignment.
 */
function moddleMutators(analysis: GateAnalysis | undefined): (fn: unknown) => boolean {
  const element: unknown = analysis?.prepared.graph.index.elements[0];
  if (typeof element !== "object" || element === null) return () => false;
  const found = new Set<unknown>([Reflect.get(element, "set")]);
  const properties: unknown = Reflect.get(Reflect.get(element, "$model") ?? {}, "properties");
  if (typeof properties === "object" && properties !== null) {
    for (const key of ["set", "define", "defineDescriptor", "defineModel"]) {
      found.add(Reflect.get(properties, key));
    }
  }
  found.delete(undefined);
  return (fn) => found.has(fn);
}

/** Runs rules over the facts; a rule that throws becomes a `RULE_CRASHED` error on the document. */
export function runBpmnRules(
  rules: readonly ActiveBpmnRule[],
  facts: {
    readonly analysis: GateAnalysis | undefined;
    readonly parseIssues: readonly ParseIssue[];
  },
): Diagnostic[] {
  const { analysis } = facts;
  // Built when a rule first reads it: the built-in rules read the analysis itself.
  let view: ProcessView | undefined;
  let mutators: ((fn: unknown) => boolean) | undefined;
  const viewOf = (): ProcessView | undefined => {
    if (analysis === undefined) return undefined;
    const subjects = analysis.prepared.subjects;
    // Names and lanes decide facts: a view without them would judge on blanks (fail closed).
    if (subjects === undefined) throw new Error("the process was prepared without its subjects");
    view ??= processView(analysis, subjects);
    return view;
  };
  return runRules<BpmnRuleContext, BpmnReport>(rules, {
    context: (report, options) => ({
      ...facts,
      options,
      report,
      get view() {
        return viewOf();
      },
    }),
    accept(r, data) {
      const severity = reportSeverity(r);
      const location = reportLocation(r);
      return {
        elementId: stringField(r, "elementId", 'an element id ("" for the document)'),
        path: stringField(r, "path", 'a JSON Pointer string ("" when unknown)'),
        data,
        ...(severity === undefined ? {} : { severity }),
        ...(location === undefined ? {} : { location }),
      };
    },
    mutating(fn) {
      mutators ??= moddleMutators(analysis);
      return mutators(fn);
    },
    diagnostic(meta, severity, r, message) {
      const diagnostic: Diagnostic = {
        code: meta.code,
        severity: severityOf(severity, r.severity),
        message,
        target: { kind: "bpmn-element", elementId: r.elementId, path: r.path },
        path: r.path,
        data: r.data,
        ...(r.location === undefined ? {} : { location: r.location }),
      };
      return meta.remediation === undefined
        ? diagnostic
        : { ...diagnostic, remediation: interpolate(meta.remediation, r.data) };
    },
    crashed: (meta, detail) => ({
      code: RULE_CRASHED,
      severity: "error",
      message: `rule ${meta.code} failed on this process (${detail}); its check did not run`,
      remediation: "report this as a bug in agentflow (or in the custom rule)",
      target: { kind: "bpmn-element", elementId: "" },
      path: "",
      data: { rule: meta.code, error: detail },
    }),
  });
}
