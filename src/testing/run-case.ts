/**
 * Runs one case as agentflow runs the rule for real: a workflow rule through `createValidator`,
 * a process rule through `checkProcess`, each with the rule under test alone in the rule set.
 * A process case is also evaluated synchronously from the parsed definitions, which must give
 * the same findings: a rule must not depend on which of the two entry points a host calls.
 */
import { strict as assert } from "node:assert";
import type { GateOptions, HostResolver, ModdleObject } from "../bpmn/index.js";
import { checkProcess, evaluateGatesSync } from "../bpmn/index.js";
import type { AgentWorkflow, Diagnostic, Severity } from "../model/index.js";
import { parseWorkflowText, withLocations } from "../model/index.js";
import type { AnyRule, RuleSetting, RuleSettings } from "../rules/index.js";
import { RULE_CRASHED } from "../rules/index.js";
import { createValidator } from "../validate/index.js";
import type { ReportLog } from "./capture.js";
import { capturing } from "./capture.js";
import type { CaseBase, ProcessValidCase, RuleTesterDefaults, WorkflowValidCase } from "./types.js";

/** What one case's run gave. */
export interface Outcome {
  /** Every diagnostic of the run, `RULE_CRASHED` included. */
  readonly all: readonly Diagnostic[];
  /** The rule's own findings, in the order the run lists them. */
  readonly findings: readonly Diagnostic[];
  /** What the rule reported, to tell each finding's messageId. */
  readonly log: ReportLog;
  /** Checks that run after the case's own (a second evaluation that must agree). */
  readonly agree?: () => void;
}

/** The setting the case configures the rule with. */
function settingOf(rule: AnyRule, c: CaseBase): RuleSetting {
  const severity = c.severity ?? rule.meta.defaultSeverity;
  return c.options === undefined ? severity : [severity, c.options];
}

/** The severity findings have unless a report says otherwise. */
export function configuredSeverity(rule: AnyRule, c: CaseBase): Severity {
  const severity = c.severity ?? rule.meta.defaultSeverity;
  return severity === "off" ? rule.meta.defaultSeverity : severity;
}

function settingsOf(rule: AnyRule, c: CaseBase): RuleSettings {
  const settings: Record<string, RuleSetting> = {};
  Object.defineProperty(settings, rule.meta.code, {
    value: settingOf(rule, c),
    enumerable: true,
  });
  return settings;
}

function own(rule: AnyRule, all: readonly Diagnostic[]): Diagnostic[] {
  return all.filter((d) => d.code === rule.meta.code);
}

/** The case's workflow, parsed when given as text. */
function workflowOf(c: WorkflowValidCase): {
  readonly workflow: AgentWorkflow;
  readonly place: (diagnostics: Diagnostic[]) => Diagnostic[];
} {
  const given = c.workflow;
  if (typeof given !== "string") return { workflow: given, place: (d) => d };
  const parsed = parseWorkflowText(given);
  if (parsed.workflow === undefined) {
    const problems = parsed.diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => `${d.code} at ${d.path === "" ? "/" : d.path}: ${d.message}`);
    throw new TypeError(`the workflow text does not parse: ${problems.join("; ")}`);
  }
  return {
    workflow: parsed.workflow,
    place: (diagnostics) => withLocations(given, parsed.format, diagnostics),
  };
}

/** Runs a workflow case through `createValidator`. */
export async function workflowOutcome(
  rule: AnyRule,
  c: WorkflowValidCase,
  defaults: RuleTesterDefaults,
): Promise<Outcome> {
  const { workflow, place } = workflowOf(c);
  const run = capturing(rule);
  const validator = createValidator({
    ruleSet: [run.rule],
    rules: settingsOf(rule, c),
    resolvers: { ...defaults.resolvers, ...c.resolvers },
  });
  const all = place(await validator.validate(workflow));
  return { all, findings: own(rule, all), log: run.log };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** The shape two evaluations must agree on. */
function shape(d: Diagnostic) {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    target: d.target,
    path: d.path,
    data: d.data,
  };
}

/**
 * `evaluateGatesSync` on the definitions `checkProcess` read must give the findings the rule's
 * check gave there. Skipped when a resolver answers with a promise: the synchronous API refuses
 * those by design.
 */
function agreeSync(
  rule: AnyRule,
  definitions: ModdleObject,
  gate: GateOptions,
  outcome: Outcome,
): void {
  const seen = { promise: false };
  const watch = (fn: HostResolver | undefined): HostResolver | undefined =>
    fn === undefined
      ? undefined
      : (ref, context) => {
          const value = fn(ref, context);
          if (isThenable(value)) {
            seen.promise = true;
            Promise.resolve(value).catch(() => undefined);
          }
          return value;
        };
  const run = capturing(rule);
  let sync: Diagnostic[];
  try {
    const decision = evaluateGatesSync(definitions, {
      ...gate,
      resolveWorkflow: watch(gate.resolveWorkflow),
      resolveTool: watch(gate.resolveTool),
      ruleSet: [run.rule],
    });
    sync = [...decision.blocking, ...decision.warnings];
  } catch (error) {
    if (seen.promise) return;
    throw error;
  }
  if (seen.promise) return;
  const crashed = sync.find((d) => d.code === RULE_CRASHED);
  if (crashed !== undefined) assert.fail(`evaluateGatesSync: ${crashed.message}`);
  assert.deepStrictEqual(
    own(rule, sync).map(shape),
    outcome.findings.filter((d) => outcome.log.fromCheck(d)).map(shape),
    `evaluateGatesSync on the parsed definitions gives other findings of ${rule.meta.code} than checkProcess`,
  );
}

/** Runs a process case through `checkProcess`, then synchronously from its definitions. */
export async function processOutcome(
  rule: AnyRule,
  c: ProcessValidCase,
  defaults: RuleTesterDefaults,
): Promise<Outcome> {
  const { moddleExtensions, maxLength, ...options } = { ...defaults.gate, ...c.gate };
  const gate: GateOptions = { ...options, rules: settingsOf(rule, c) };
  const run = capturing(rule);
  const result = await checkProcess(c.xml, {
    ...gate,
    ...(moddleExtensions === undefined ? {} : { moddleExtensions }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ruleSet: [run.rule],
  });
  const all = [...result.blocking, ...result.warnings];
  const outcome: Outcome = { all, findings: own(rule, all), log: run.log };
  const { definitions } = result;
  if (definitions === undefined) return outcome;
  return {
    ...outcome,
    agree: () => {
      agreeSync(rule, definitions, gate, outcome);
    },
  };
}
