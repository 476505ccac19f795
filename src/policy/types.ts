/**
 * The shapes of policy packs (docs/policies.md, `schemas/policy-pack.schema.json`), of waivers,
 * and of the readable views a pack's (or a plugin's) rules read a workflow or a process through.
 */
import type { DiagnosticTarget, Severity } from "../model/index.js";
import type { ReportBase, RuleDefinition } from "../rules/index.js";
import type {
  AgentTaskFacts,
  GateFacts,
  PolicySubject,
  ProcessFacts,
  ToolFacts,
  WorkflowFacts,
} from "./facts.js";

/** What a rule requires on every path from an agent task to an end of its process. */
export interface GatePathRequirement {
  /** Every path passes at least this many gates. */
  readonly min?: number;
  /** Every path passes at least this many gates whose approvers do not overlap. */
  readonly distinctRoles?: number;
  /** Every path passes a gate of each of these approver roles. */
  readonly roles?: readonly string[];
}

/** Whether a {@link GatePathRequirement} holds, with a counter-example path when it does not. */
export type GatePathResult =
  | { readonly holds: true }
  | {
      readonly holds: false;
      readonly failed: "min" | "distinctRoles" | "roles";
      /** Element ids from the task to the end reached. */
      readonly path: readonly string[];
      /** The approver roles of the gates passed on that path, sorted, distinct. */
      readonly rolesOnPath: readonly string[];
      /** The gates passed on that path. */
      readonly gatesOnPath: number;
      /** For `roles`: the first role no gate on the path has. */
      readonly missingRole?: string;
    }
  | {
      readonly holds: false;
      readonly failed: "undecidable";
      readonly reason: string;
      readonly path: readonly [];
    };

/** One rule of a pack, as written. */
export interface PackRuleSpec {
  readonly id: string;
  readonly severity: Severity;
  readonly for: PolicySubject;
  /** A FEEL expression over the subject's facts; absent: every subject of the kind. */
  readonly when?: string;
  /** The finding's words, a template over the facts (`{{element.name}}`). */
  readonly message?: string;
  /** One line: what the rule finds (the rule index and SARIF show it). */
  readonly description?: string;
  /** What to do about a finding, a template like `message`. */
  readonly remediation?: string;
  /** Where the rule is explained (a URL); `<pack source>#<id>` when absent. */
  readonly docs?: string;
  /** Path predicates (agent tasks only); a subject `when` selects must meet them. */
  readonly require?: { readonly gates: GatePathRequirement };
}

/** A waiver: a finding the organisation accepts, for a time, on one subject. */
export interface Waiver {
  /** The rule: a built-in code, `<plugin>/<CODE>`, or a pack rule's id with or without `<pack>/`. */
  readonly rule: string;
  /** The process (with `element`) the waiver covers. */
  readonly process?: string;
  readonly element?: string;
  /** A workflow subject, `id@version`. */
  readonly workflow?: string;
  readonly reason: string;
  readonly grantedBy: string;
  /** `YYYY-MM-DD`: the last day it holds. */
  readonly expires: string;
}

/** A policy pack, as written (YAML or JSON). */
export interface PolicyPackSpec {
  readonly kind: "PolicyPack";
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly rules: readonly PackRuleSpec[];
  readonly waivers?: readonly Waiver[];
}

/** Where a finding on an agent task or a process goes (the BPMN report's place). */
export interface ElementPlace {
  readonly elementId: string;
  /** JSON Pointer into the moddle tree from `bpmn:Definitions`. */
  readonly path: string;
}

/** A process as rules read it: facts per subject, and the gate engine's path predicates. */
export interface ProcessView {
  readonly processes: readonly (ProcessFacts & { readonly place: ElementPlace })[];
  readonly agentTasks: readonly (AgentTaskFacts & { readonly place: ElementPlace })[];
  /**
   * The workflow each agent task runs, placed at the task: a `workflow` rule judges it where it
   * runs in the process. The resolved one; for a Camunda AI agent, the one derived from the BPMN
   * (`camunda.<element id>@1.0.0`); for a task whose workflow could not be read, one whose every
   * fact but `id` and `version` is unknown (one per declaration of a task that declares two).
   */
  readonly workflows: readonly (WorkflowFacts & { readonly place: ElementPlace })[];
  /** Each agent task's tools (one entry per task and tool), placed at the task. */
  readonly tools: readonly (ToolFacts & { readonly place: ElementPlace })[];
  /** Every approval gate of the definitions. */
  readonly gates: readonly GateFacts[];
  /** The flow nodes a token may go to next from `elementId` (sequence flows, boundary events, …). */
  next(elementId: string): readonly string[];
  /** Whether some path of the process leads from flow node `from` to flow node `to`. */
  reaches(from: string, to: string): boolean;
  /**
   * Whether every path from the agent task (by element id) to an end meets `requirement`,
   * under the same BPMN semantics as AGENT_GATE_BYPASS.
   */
  checkGatePath(elementId: string, requirement: GatePathRequirement): GatePathResult;
}

/** A workflow as rules read it: its facts, and each tool it calls with where the call is. */
export interface WorkflowView {
  readonly workflow: WorkflowFacts;
  /** The node ids a run may go to next from `nodeId` (route and edge targets); `[]` if unknown. */
  next(nodeId: string): readonly string[];
  /** Whether a run from the entry can reach `nodeId`. */
  reachable(nodeId: string): boolean;
  /** The tools its nodes call, one per node, with the node and the JSON Pointer of the call. */
  readonly toolCalls: readonly (ToolFacts & {
    readonly nodeId: string;
    readonly path: string;
  })[];
}

/** A finding of a pack rule on a process, at an element (the BPMN report's place). */
export interface PackProcessReport extends ReportBase {
  readonly elementId: string;
  /** JSON Pointer into the moddle tree from `bpmn:Definitions`. */
  readonly path: string;
}

/** What a pack rule of `meta.scope: "process"` sees: the process's view and its options. */
export interface PackProcessContext {
  /** `undefined` when the process could not be read (then pack rules have nothing to judge). */
  readonly view: ProcessView | undefined;
  readonly options: Readonly<Record<string, unknown>>;
  report(report: PackProcessReport): void;
}

/** A finding of a pack rule on a workflow: the workflow, or the node that calls a tool. */
export interface PackWorkflowReport extends ReportBase {
  readonly target: DiagnosticTarget;
  /** JSON Pointer into the workflow document. */
  readonly path: string;
}

/** What a pack rule of `meta.scope: "workflow"` sees: the workflow's view and its options. */
export interface PackWorkflowContext {
  readonly view: WorkflowView;
  readonly options: Readonly<Record<string, unknown>>;
  report(report: PackWorkflowReport): void;
}

/** A pack rule made into a rule of the kit, for processes. */
export type PackProcessRule = RuleDefinition<PackProcessContext>;

/** A pack rule made into a rule of the kit, for workflows. */
export type PackWorkflowRule = RuleDefinition<PackWorkflowContext>;

/** A policy pack read, checked and compiled into rules of the kit. */
export interface CompiledPack {
  readonly name: string;
  readonly version: string;
  /** Where it was read from (a path as the user named it, or `<pack>` for plain data). */
  readonly source: string;
  /** `sha256:` of the canonical JSON (RFC 8785) of `spec`: what the rule-set digest names. */
  readonly sha256: string;
  readonly spec: PolicyPackSpec;
  readonly waivers: readonly Waiver[];
  /** One rule per pack rule, deciding all four subjects in a process. */
  readonly processRules: readonly PackProcessRule[];
  /** One rule per `workflow` or `tool` pack rule, deciding them in a workflow. */
  readonly workflowRules: readonly PackWorkflowRule[];
}

/** One thing wrong with a pack: where (file, rule, place, line and column) and what. */
export interface PolicyProblem {
  /** The file (or `<pack>`). */
  readonly source: string;
  /** The id of the rule it is in, when the rule has one. */
  readonly ruleId?: string;
  /** Where in the pack: `rules[1].when`, `rules[0].require.gates.min`, `""` for the whole. */
  readonly place: string;
  /** 1-based, when the pack was text. */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

/** What reading a pack gives: the compiled pack, or every problem found. */
export type PackReading =
  { readonly pack: CompiledPack } | { readonly problems: readonly PolicyProblem[] };
