/**
 * A pack's rules made into rules of the kit (`defineRule`), coded `<pack>/<rule id>`: one process
 * rule per pack rule (it decides agent tasks, processes, and the workflows and tools of the
 * process's agents) and one workflow rule per `workflow` or `tool` rule. Only a pack without
 * problems (rule-check.ts) is compiled.
 */
import { WORKFLOW_TARGET } from "../model/index.js";
import { defineRule } from "../rules/index.js";
import type { PolicySubject } from "./facts.js";
import type { WhenCheck } from "./feel-check.js";
import { TryBudget } from "./feel.js";
import type { JudgedRule, Verdict } from "./judge.js";
import { judge } from "./judge.js";
import { packMessages } from "./messages.js";
import type {
  ElementPlace,
  PackProcessRule,
  PackRuleSpec,
  PackWorkflowRule,
  PolicyPackSpec,
  ProcessView,
} from "./types.js";

/** The compiled rules of a pack. */
export interface CompiledRules {
  readonly processRules: readonly PackProcessRule[];
  readonly workflowRules: readonly PackWorkflowRule[];
}

const SUBJECT_WORDS: Readonly<Record<PolicySubject, string>> = {
  agentTask: "Agent tasks",
  workflow: "Workflows",
  tool: "Tools",
  process: "Processes",
};

/** The one line the rule index and SARIF show when the rule has no `description`. */
function describeRule(rule: PackRuleSpec): string {
  const which = rule.when === undefined ? "every one" : `where ${rule.when}`;
  const must = rule.require === undefined ? "" : " must pass the required approval gates";
  return `${SUBJECT_WORDS[rule.for]} ${which}${must}`.replace(/\s+/g, " ");
}

/** Each subject of a kind in a process view, with the place its findings go. */
function subjectsOf(
  view: ProcessView,
  subject: PolicySubject,
): readonly { readonly place: ElementPlace }[] {
  switch (subject) {
    case "agentTask":
      return view.agentTasks;
    case "process":
      return view.processes;
    case "workflow":
      return view.workflows;
    case "tool":
      return view.tools;
  }
}

/** The kit rules of one pack rule (its `when` already checked). */
function kitRules(
  pack: PolicyPackSpec,
  rule: PackRuleSpec,
  judged: JudgedRule,
  source: string,
): { process: PackProcessRule; workflow?: PackWorkflowRule } {
  const meta = {
    code: `${pack.name}/${rule.id}`,
    defaultSeverity: rule.severity,
    description: rule.description ?? describeRule(rule),
    docs: rule.docs ?? `${source}#${rule.id}`,
    messages: packMessages(rule),
    ...(rule.remediation === undefined ? {} : { remediation: rule.remediation }),
  };
  const process = defineRule<Parameters<PackProcessRule["check"]>[0]>({
    meta: { ...meta, scope: "process" },
    check(context) {
      const view = context.view;
      if (view === undefined) return;
      // One bound on trying unknown values for all the subjects of the document (feel.ts).
      const budget = new TryBudget();
      for (const entry of subjectsOf(view, rule.for)) {
        const { place } = entry;
        const gate =
          rule.for === "agentTask"
            ? (requirement: Parameters<ProcessView["checkGatePath"]>[1]) =>
                view.checkGatePath(place.elementId, requirement)
            : undefined;
        const verdict = judge(judged, entry, gate, budget);
        if (verdict !== undefined) {
          context.report({ elementId: place.elementId, path: place.path, ...verdict });
        }
      }
    },
  });
  if (rule.for !== "workflow" && rule.for !== "tool") return { process };
  const workflow = defineRule<Parameters<PackWorkflowRule["check"]>[0]>({
    meta: { ...meta, scope: "workflow" },
    check(context) {
      const { view } = context;
      const budget = new TryBudget();
      const found = (
        verdict: Verdict | undefined,
        target: typeof WORKFLOW_TARGET,
        path: string,
      ) => {
        if (verdict !== undefined) context.report({ target, path, ...verdict });
      };
      if (rule.for === "workflow") {
        found(judge(judged, view.workflow, undefined, budget), WORKFLOW_TARGET, "");
        return;
      }
      for (const call of view.toolCalls) {
        const verdict = judge(judged, call, undefined, budget);
        found(verdict, { kind: "node", nodeId: call.nodeId }, call.path);
      }
    },
  });
  return { process, workflow };
}

/**
 * The kit rules of a pack whose rules all passed `ruleProblems` (`checks` holds each rule's
 * checked `when`, by index).
 */
export function compileRules(
  pack: PolicyPackSpec,
  source: string,
  checks: ReadonlyMap<number, WhenCheck>,
): CompiledRules {
  const processRules: PackProcessRule[] = [];
  const workflowRules: PackWorkflowRule[] = [];
  pack.rules.forEach((rule, i) => {
    const check = checks.get(i);
    const judged: JudgedRule = {
      pack: pack.name,
      id: rule.id,
      subject: rule.for,
      ...(rule.when === undefined || check === undefined
        ? {}
        : { when: { text: rule.when, reads: check } }),
      ...(rule.require === undefined ? {} : { require: rule.require.gates }),
    };
    const made = kitRules(pack, rule, judged, source);
    processRules.push(made.process);
    if (made.workflow !== undefined) workflowRules.push(made.workflow);
  });
  return { processRules, workflowRules };
}
