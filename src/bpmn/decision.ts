/**
 * The promotion decision's shape (SPEC 7): the verdict, the findings, one line per agent task
 * with every document the task's review used (by content hash), and the rule set it was judged
 * by. Plain data, so every output format and a worker thread carry it as it is.
 */
import type { Diagnostic } from "../model/index.js";
import type { GateRequirement } from "../autonomy/index.js";
import type { AgentTaskFacts } from "./analysis.js";
import type { Dependency } from "./dependency.js";
import type { DerivedAgent } from "./camunda/index.js";
import type { RuleSet } from "./rule-set.js";
import type { AgentTaskSource, GateStatus, WorkflowResolution } from "./types.js";

/** One agent task in the promotion decision. */
export interface AgentTaskSummary {
  readonly elementId: string;
  readonly source: AgentTaskSource;
  /** The canonical ref (`null` for a Camunda agent or an invalid ref). */
  readonly ref: string | null;
  /** The level the task runs at; `null` when unknown. */
  readonly level: number | null;
  /** The level the resolved workflow's graph justifies; `null` when unresolved. */
  readonly justifiedLevel: number | null;
  readonly resolution: WorkflowResolution;
  /** `sha256:` of the canonical resolved workflow: what exactly was reviewed. */
  readonly contentHash: string | null;
  readonly requirement: GateRequirement;
  readonly gate: GateStatus;
  /**
   * Every tool contract and delegate workflow the review looked up, with the content hash of
   * the document used, or the failure that made it count as needing a gate.
   */
  readonly dependencies: readonly Dependency[];
  /**
   * For a Camunda AI agent read from the BPMN (resolution `derived`): the agent as derived —
   * model, provider, prompt hash, limits, tools with their effects and where each came from,
   * the level with its reasons. Absent for every other task.
   */
  readonly derived?: DerivedAgent;
}

/** An approval gate of the process, as the decision names it. */
export interface ApprovalGate {
  readonly elementId: string;
  /** `btv:approverRole`, else the role its selector gives (a candidate group); `null` if none. */
  readonly role: string | null;
}

/** The promotion decision. */
export interface GateDecision {
  /** True when nothing blocks: no error among the diagnostics that no waiver covers. */
  readonly allowed: boolean;
  /** The errors no waiver covers. */
  readonly blocking: readonly Diagnostic[];
  /** Everything else: warnings, infos, and waived errors (each with its `waived`). */
  readonly warnings: readonly Diagnostic[];
  readonly agentTasks: readonly AgentTaskSummary[];
  /** The rules and settings the decision was judged by, with their digest. */
  readonly ruleSet: RuleSet;
  /** Every approval gate of the process (marked, chosen by `isGate` or by a selector). */
  readonly gates: readonly ApprovalGate[];
}

/** One task's line of the decision. */
export function summary(task: AgentTaskFacts): AgentTaskSummary {
  return {
    elementId: task.node.id,
    source: task.declaration.source,
    ref: task.ref?.ok === true ? task.ref.canonical : null,
    level: task.level ?? null,
    justifiedLevel: task.justifiedLevel ?? null,
    resolution: task.resolution.resolution,
    contentHash: task.contentHash ?? null,
    requirement: task.requirement,
    gate: task.gate.status,
    dependencies: task.resolution.dependencies,
    ...(task.resolution.derived === undefined ? {} : { derived: task.resolution.derived }),
  };
}

/** The decision from the findings: any error blocks, unless a waiver covers it. */
export function decide(
  diagnostics: readonly Diagnostic[],
  agentTasks: readonly AgentTaskSummary[],
  ruleSet: RuleSet,
  gates: readonly ApprovalGate[] = [],
): GateDecision {
  // A waived error is still shown, with its waiver, among what does not block.
  const blocks = (d: Diagnostic) => d.severity === "error" && d.waived === undefined;
  const blocking = diagnostics.filter(blocks);
  return {
    allowed: blocking.length === 0,
    blocking,
    warnings: diagnostics.filter((d) => !blocks(d)),
    agentTasks,
    ruleSet,
    gates,
  };
}
