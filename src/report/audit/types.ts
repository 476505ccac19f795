/**
 * The audit report as data (SPEC 8): what was reviewed, what agentflow found, and the evidence a
 * reviewer needs, before any rendering. The Markdown and HTML renderers only lay this out, so the
 * two always say the same thing, and the same inputs give the same bytes (nothing here reads a
 * clock).
 */
import type { AutonomyReason, GateRequirement } from "../../autonomy/index.js";
import type { AgentTaskSummary, ProcessDiagram, RuleSet } from "../../bpmn/index.js";
import type { Diagnostic, Severity } from "../../model/index.js";
import type { RouteCoverage, TransitionRecord } from "../../simulate/index.js";
import type { DerivedFact, DerivedToolRow } from "../derived-agent.js";
import type { ApprovalView } from "./approval-view.js";
import type { OperationAudit } from "./operation-types.js";

export type * from "./approval-view.js";
export type * from "./operation-types.js";

/** The result of one rule on one document: every active rule appears, passed ones too. */
export interface RuleResult {
  readonly code: string;
  readonly description: string;
  /** The severity the rule ran at. */
  readonly severity: Severity;
  /** No finding that counts: a waived finding is listed but does not fail its rule. */
  readonly passed: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** A node of a workflow's graph, for drawing. */
export interface GraphNode {
  readonly id: string;
  readonly type: "llm" | "tool" | "decision" | "delegate" | "end";
  readonly label: string;
  /** Codes of the diagnostics that target this node (a marked node in the diagram). */
  readonly findings: readonly string[];
}

/** An edge of a workflow's graph, for drawing; `back` marks an edge that closes a loop. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly back: boolean;
}

/**
 * Whether a workflow's graph is drawn (SPEC 8 diagrams): a graph over the drawing limit is not,
 * and the report lists its nodes and edges in tables instead.
 */
export interface DrawingVerdict {
  readonly drawn: boolean;
  /** Nodes of the graph. */
  readonly nodes: number;
  /** Every edge a picture would draw: the graph's, and those to a missing node. */
  readonly edges: number;
  /** Edges to a missing node: the graph leaves them out (validation reports each one). */
  readonly dangling: number;
  /** The most nodes, and the most edges, that are drawn. */
  readonly limit: number;
}

/** How a process diagram is drawn, and its size. */
export interface ProcessDrawing {
  /** `di`: as the modeller laid it out; `dagre`: laid out by agentflow; `none`: not drawn. */
  readonly mode: "di" | "dagre" | "none";
  /** Whether every flow node shown has a DI shape. */
  readonly hasDi: boolean;
  /** Whether a DI coordinate or size is past `DI_COORDINATE_LIMIT` (1,000,000 px): the DI is not used. */
  readonly diOutOfRange: boolean;
  /** Flow nodes shown that have no DI shape (all of them in a file without DI). */
  readonly missingShapes: number;
  readonly nodes: number;
  /** Sequence and message flows. */
  readonly flows: number;
  /** The limit that applied: {@link PROCESS_DI_LIMIT} with DI, `DRAWING_LIMIT` without. */
  readonly limit: number;
}

/** The document was another format's: what its import declared lost or guessed. */
export interface ImportEvidence {
  /** The importer's format id (`langgraph-graph`, `openagentflow`, ...). */
  readonly format: string;
  /** The format's name for people. */
  readonly title: string;
  /** Every declared loss or guess, as warning diagnostics pointing into the source document. */
  readonly warnings: readonly Diagnostic[];
}

/** A simulation run shown in the report. */
export interface SimulationEvidence {
  /** `fixtures` for a run on the given fixtures, `explore` for the forced-route runs. */
  readonly kind: "fixtures" | "explore";
  readonly status: string;
  /** llm/tool executions that produced an output (the budget's steps). */
  readonly steps: number;
  /** Attempts and decision evaluations (what the report's bound counts). */
  readonly moves: number;
  readonly trail: readonly TransitionRecord[];
}

/** Route coverage and the ways a run can end, from `explore`. */
export interface ExplorationEvidence {
  /** `fixtures` when the user's fixtures were used, `placeholders` for generated outputs. */
  readonly outputs: "fixtures" | "placeholders";
  readonly runs: number;
  readonly coverage: readonly RouteCoverage[];
  /** Each distinct completion: the node it ended at and how many runs reached it. */
  readonly ends: readonly { readonly nodeId: string; readonly runs: number }[];
  /** Each distinct stop: where, why, and how many runs met it. */
  readonly blocks: readonly {
    readonly nodeId: string;
    readonly reason: string;
    readonly runs: number;
  }[];
  /** The most runs explored: 200, fewer for a big workflow (see `exploreRunBound`). */
  readonly maxRuns: number;
  /** The search was cut by its run bound, or a loop by its revisit bound. */
  readonly truncated: boolean;
  /**
   * Runs the review's own step bound (`REPORT_STEPS` moves) stopped: they neither ended nor met
   * a stop of the workflow's, so nothing shows that the workflow's bounds would stop them.
   */
  readonly unstopped: number;
  readonly bounded: boolean;
}

/** Everything the report says about one agent workflow. */
export interface WorkflowAudit {
  readonly id: string;
  readonly version: string;
  readonly name: string;
  readonly contentHash: string;
  /** Where it came from: a file, or an agent task's ref resolved from the registry/snapshot. */
  readonly source: string;
  readonly declaredLevel: number;
  readonly justifiedLevel: number;
  readonly reasons: readonly AutonomyReason[];
  readonly gateRequirement: GateRequirement;
  readonly rules: readonly RuleResult[];
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Whether the diagrams draw the graph; when they do not, the report lists it in tables. */
  readonly drawing: DrawingVerdict;
  /** The workflow as a Mermaid flowchart (Markdown report); empty when the graph is not drawn. */
  readonly mermaid: string;
  readonly simulations: readonly SimulationEvidence[];
  readonly exploration: ExplorationEvidence | undefined;
  /** Set when the reviewed file was another format's document, imported. */
  readonly imported?: ImportEvidence;
}

/** The process part of a report on a BPMN file. */
export interface ProcessAudit {
  readonly id: string;
  /**
   * False when the file could not be read as BPMN at all (not XML, or not `bpmn:definitions`):
   * then there is no process to review, and `rules` holds only the BPMN_PARSE errors.
   */
  readonly readable: boolean;
  readonly allowed: boolean;
  readonly agentTasks: readonly AgentTaskSummary[];
  readonly rules: readonly RuleResult[];
  /**
   * The process drawn: one diagram per collaboration (a pool per participant) and per process
   * outside any, each with how it is drawn (empty when the file could not be read).
   */
  readonly diagrams: readonly ProcessDiagramAudit[];
  /** Each Camunda agent read from the BPMN (docs/bpmn.md), in the agent tasks' order. */
  readonly derivedAgents: readonly DerivedAgentAudit[];
}

/**
 * A Camunda agent read from the BPMN: what was read, its loop drawn, and each tool with its
 * effect and where the effect came from. Not a {@link WorkflowAudit}: the derived workflow is
 * not checked with the workflow rules nor simulated (its tools are synthesised from the effects
 * read, not registry documents), so it has no rule results or runs to show.
 */
export interface DerivedAgentAudit {
  readonly elementId: string;
  readonly workflowRef: string;
  readonly level: number;
  readonly facts: readonly DerivedFact[];
  /** The reasons for the level, in words naming the elements. */
  readonly reasons: readonly string[];
  readonly tools: readonly DerivedToolRow[];
  /** The user tasks among the tools, in words, when there are any. */
  readonly people: string | undefined;
  /** The derived workflow's graph: the model, its choice, the tools and the loop back. */
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly drawing: DrawingVerdict;
  /** The loop as a Mermaid flowchart; empty when the graph is not drawn. */
  readonly mermaid: string;
}

/** One process picture of the report: what it shows, and whether and how it is drawn. */
export interface ProcessDiagramAudit {
  readonly diagram: ProcessDiagram;
  readonly drawing: ProcessDrawing;
}

/** Whether the reviewed material holds evidence for one oversight question. */
export type ChecklistStatus = "evidence" | "partial" | "no-evidence";

/** One item of the oversight checklist: a question, and what in this review bears on it. */
export interface ChecklistItem {
  /** e.g. `EU AI Act Art. 14`, `NIST AI RMF MAP 3.5`. */
  readonly reference: string;
  readonly question: string;
  readonly status: ChecklistStatus;
  /** Facts from this review, one sentence each; never a claim of compliance. */
  readonly evidence: readonly string[];
}

/** One input the review used, with the hash of exactly what was read. */
export interface ReviewedInput {
  readonly kind:
    | "process"
    | "workflow"
    | "tool contract"
    | "delegate"
    | "registry document"
    | "config"
    | "policy pack"
    | "plugin"
    | "rule set";
  /** The file, the `id@version`, or the rule set's description. */
  readonly what: string;
  /** `sha256:…`; `null` when it could not be read (then `note` says why). */
  readonly hash: string | null;
  /** Who used it, or why it could not be read. */
  readonly note?: string;
}

/** The settings a review ran with: the config file (or none) and the rule set. */
export interface ReviewSettings {
  /** The config file, by path and canonical hash; `null` when none was used. */
  readonly config: { readonly file: string; readonly contentHash: string } | null;
  readonly ruleSet: RuleSet;
  /** The day waivers were judged on, when one was given and any waiver was in force. */
  readonly today?: string;
}

/** The whole report. */
export interface AuditReport {
  readonly title: string;
  readonly subject: {
    readonly kind: "process" | "workflow";
    readonly file: string;
    /** `sha256:` of the file's bytes as read. */
    readonly fileHash: string;
  };
  /** agentflow's version and the versions of the libraries that did the checking. */
  readonly tools: Readonly<Record<string, string>>;
  /**
   * Every input the verdict rests on, each with its hash: the subject, each workflow, each tool
   * contract and delegate an agent task used (or could not read), the config and the rule set.
   */
  readonly reviewed: readonly ReviewedInput[];
  readonly settings: ReviewSettings;
  readonly process: ProcessAudit | undefined;
  readonly workflows: readonly WorkflowAudit[];
  readonly checklist: readonly ChecklistItem[];
  /** The approval given with the review (`--approval`), when one was. */
  readonly approval?: ApprovalView;
  /** What recorded runs did against what was approved (`--runs`), when runs were given. */
  readonly operation?: OperationAudit;
}
