/**
 * Builds the {@link AuditReport} of a workflow or of a BPMN process with its agent workflows:
 * validation (every rule, passed ones too), autonomy with reasons, the gate verdicts, a
 * simulation on fixtures when given, and route coverage from `explore`. Pure and deterministic:
 * versions and file bytes are passed in, nothing reads a clock or the file system.
 */
import type { GateRequirement } from "../../autonomy/index.js";
import { assessAutonomy, gateRequirement } from "../../autonomy/index.js";
import type { AgentTaskSummary, GateOptions } from "../../bpmn/index.js";
import { checkProcess, hasGateMarker, readProcessDiagrams } from "../../bpmn/index.js";
import { exportMermaid } from "../../interop/index.js";
import type { AgentWorkflow, Diagnostic } from "../../model/index.js";
import { contentHash, parseWorkflow, sha256 } from "../../model/index.js";
import type {
  Fixtures,
  JsonObject,
  SimulateOptions,
  SimulationState,
} from "../../simulate/index.js";
import {
  explore,
  lintSimulationOptions,
  runUsage,
  sampleInput,
  simulate,
} from "../../simulate/index.js";
import type { PresetName, RuleSetting } from "../../validate/index.js";
import { createValidator } from "../../validate/index.js";
import { oversightChecklist } from "./checklist.js";
import type { OperationInput } from "./operation-types.js";
import { operationAudit } from "./operation.js";
import { derivedAgentAudits } from "./derived.js";
import { processDrawing } from "./process/index.js";
import { processTitle } from "./process-title.js";
import { reviewedInputs, reviewSettings } from "./reviewed.js";
import type { AuditPolicyOptions } from "./rule-results.js";
import { processRuleRows, ruleResults } from "./rule-results.js";
import { workflowGraph } from "./graph.js";
import {
  cutMermaidLabels,
  drawingVerdict,
  exploreRunBound,
  REPORT_STEPS,
  runStatus,
} from "./limits.js";
import type {
  AuditReport,
  ExplorationEvidence,
  ImportEvidence,
  SimulationEvidence,
  WorkflowAudit,
} from "./types.js";

/** What a report is built from, besides the document itself. */
export interface AuditOptions extends AuditPolicyOptions {
  /** The file name shown in the report (as the user gave it). */
  readonly file: string;
  /** The file's text, hashed so the report names exactly what it read. */
  readonly text: string;
  /** Versions of agentflow and of the libraries that did the checking. */
  readonly tools: Readonly<Record<string, string>>;
  readonly resolveWorkflow?: (ref: string) => unknown;
  readonly resolveTool?: (ref: string) => unknown;
  /** Fixtures for the simulation of the reviewed workflow (a workflow report). */
  readonly fixtures?: Fixtures;
  readonly preset?: PresetName;
  /** Workflow rule settings over the preset, as `createValidator`'s `rules`. */
  readonly workflowRules?: Readonly<Record<string, RuleSetting>>;
  /** Gate options for a process report (isGate, policy, BPMN rule settings). */
  readonly gate?: Pick<GateOptions, "isGate" | "policy" | "rules" | "toolEffects" | "gates">;
  /**
   * The config file the settings came from (path and canonical hash), named in the report;
   * `null` or absent when none was used.
   */
  readonly config?: { readonly file: string; readonly contentHash: string } | null;
  /**
   * What the registry could not use of its own files (a folder registry's problems). An error
   * among them blocks a process's promotion, as `agentflow gate` decides: a document that cannot
   * be read may be the one a decision needed.
   */
  readonly registryProblems?: readonly {
    readonly file: string;
    readonly diagnostics: readonly Diagnostic[];
  }[];
  /** What the import declared, when the reviewed workflow was imported from another format. */
  readonly imported?: ImportEvidence;
  /**
   * A process report's: what the import declared of each workflow the registry read from another
   * format, by its `id@version`. Each such workflow's section lists it, as a workflow report does.
   */
  readonly importedWorkflows?: ReadonlyMap<string, ImportEvidence>;
  /** Recorded runs as `agentflow conform` checked them: the report gains its Operation section. */
  readonly operation?: OperationInput;
}

const STRICTNESS: Readonly<Record<GateRequirement, number>> = { none: 0, optional: 1, required: 2 };

/** The policy options a validator and a gate take, left out when not given. */
function policyOf(options: AuditPolicyOptions): AuditPolicyOptions {
  return {
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    ...(options.policies === undefined ? {} : { policies: options.policies }),
    ...(options.waivers === undefined ? {} : { waivers: options.waivers }),
    ...(options.today === undefined ? {} : { today: options.today }),
  };
}

/**
 * Explores every route, in at most `maxRuns` runs, and shows the first explored run that
 * completes (or the first run) as a trail the reviewer can read step by step.
 */
function exploration(
  wf: AgentWorkflow,
  input: JsonObject,
  fixtures: Fixtures | undefined,
  maxRuns: number,
): { evidence: ExplorationEvidence; trail: SimulationEvidence | undefined } {
  // Placeholders are sampled as runs reach their nodes: a run of 1,000 steps through 100,000
  // nodes samples 1,000 of them.
  const options = {
    input,
    ...(fixtures === undefined ? { sampleOutputs: true } : { fixtures }),
    maxRuns,
    maxSteps: REPORT_STEPS,
  };
  const report = explore(wf, { ...options, keepStates: true });
  const shown = report.runs.find((r) => r.complete) ?? report.runs[0];
  const state = shown === undefined ? undefined : report.states?.[shown.index];
  const trail = state === undefined ? undefined : evidenceOf(state, "explore");
  const evidence: ExplorationEvidence = {
    outputs: fixtures === undefined ? "placeholders" : "fixtures",
    runs: report.runs.length,
    maxRuns,
    coverage: report.coverage,
    ends: report.ends.map((e) => ({ nodeId: e.nodeId, runs: e.runs.length })),
    blocks: report.blocks.map((b) => ({ nodeId: b.nodeId, reason: b.reason, runs: b.runs.length })),
    truncated: report.truncated,
    unstopped: (report.states ?? []).filter((s) => s.trail.at(-1)?.limit === "maxSteps").length,
    bounded: report.bounded,
  };
  return { evidence, trail };
}

function run(
  wf: AgentWorkflow,
  options: SimulateOptions,
  kind: SimulationEvidence["kind"],
): SimulationEvidence {
  return evidenceOf(simulate(wf, { ...options, maxSteps: REPORT_STEPS }), kind);
}

function evidenceOf(state: SimulationState, kind: SimulationEvidence["kind"]): SimulationEvidence {
  const status = runStatus(state.complete, state.blockedDecision);
  const { steps, moves } = runUsage(state);
  return { kind, status, steps, moves, trail: state.trail };
}

async function auditWorkflow(
  wf: AgentWorkflow,
  source: string,
  options: AuditOptions,
  fixtures: Fixtures | undefined,
): Promise<WorkflowAudit> {
  const resolvers = {
    ...(options.resolveTool === undefined ? {} : { resolveTool: options.resolveTool }),
    ...(options.resolveWorkflow === undefined ? {} : { resolveDelegate: options.resolveWorkflow }),
  };
  const validator = createValidator({
    preset: options.preset ?? "recommended",
    rules: options.workflowRules ?? {},
    ...policyOf(options),
    resolvers,
  });
  const diagnostics = await validator.validate(wf);
  const rules = validator.activeRules.map(({ rule, severity }) => ({
    code: rule.meta.code,
    description: rule.meta.description,
    severity,
  }));
  const assessment = assessAutonomy(wf);
  const declared = gateRequirement(wf.autonomyLevel);
  const justified = gateRequirement(assessment.level);
  const { nodes, edges, dangling } = workflowGraph(wf, diagnostics);
  const drawing = drawingVerdict(nodes.length, edges.length + dangling, dangling);
  // Sampled once: a schema of 100,000 fields makes an input of 100,000 values.
  const input = sampleInput(wf);
  // The runs copy only the outputs they use; a fixtures object holding what JSON cannot anywhere
  // is refused whole (an OptionTypeError that says where), as the simulate command refuses it.
  if (fixtures !== undefined) lintSimulationOptions(wf, { fixtures });
  const maxRuns = exploreRunBound(nodes.length + edges.length);
  const explored = exploration(wf, input, fixtures, maxRuns);
  const simulations: SimulationEvidence[] = [];
  if (fixtures !== undefined) {
    simulations.push(run(wf, { fixtures, input }, "fixtures"));
  } else if (explored.trail !== undefined) simulations.push(explored.trail);
  return {
    id: wf.id,
    version: wf.version,
    name: wf.name,
    contentHash: contentHash(wf),
    source,
    declaredLevel: wf.autonomyLevel,
    justifiedLevel: assessment.level,
    reasons: assessment.reasons,
    gateRequirement: STRICTNESS[declared] >= STRICTNESS[justified] ? declared : justified,
    rules: ruleResults(rules, diagnostics),
    nodes,
    edges,
    drawing,
    // Not exported when not drawn: the text would be as big as the workflow, for nothing.
    mermaid: drawing.drawn ? cutMermaidLabels(exportMermaid(wf)) : "",
    simulations,
    exploration: explored.evidence,
  };
}

/** The Operation section, when runs were given. */
function operationOf(options: AuditOptions): Pick<AuditReport, "operation"> {
  return options.operation === undefined ? {} : { operation: operationAudit(options.operation) };
}

function subject(options: AuditOptions, kind: "process" | "workflow"): AuditReport["subject"] {
  return { kind, file: options.file, fileHash: `sha256:${sha256(options.text)}` };
}

/**
 * The report on one agent workflow.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { auditWorkflowReport } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const report = await auditWorkflowReport(wf, {
 *   file: "agents/research.agent.json",
 *   text: JSON.stringify(wf, null, 2), // the file as read: its hash names what was reviewed
 *   tools: { agentflow: "0.1.0" },
 * });
 * report.title; // → "Agent workflow review: Research Agent (agnt-rsch@2.1.0)"
 * const [audit] = report.workflows;
 * audit?.rules.every((r) => r.passed); // → true
 * audit?.simulations.map((s) => `${s.kind}: ${s.status}`); // → ["explore: complete"]
 * report.checklist.map((item) => item.reference)[1]; // → "EU AI Act Art. 14 (human oversight)"
 * // renderAuditMarkdown(report) and renderAuditHtml(report) render it for a reviewer
 * ```
 */
export async function auditWorkflowReport(
  wf: AgentWorkflow,
  options: AuditOptions,
): Promise<AuditReport> {
  const audited = await auditWorkflow(wf, options.file, options, options.fixtures);
  const workflow =
    options.imported === undefined ? audited : { ...audited, imported: options.imported };
  const settings = reviewSettings(options);
  const about = subject(options, "workflow");
  return {
    title: `Agent workflow review: ${wf.name} (${wf.id}@${wf.version})`,
    subject: about,
    tools: options.tools,
    reviewed: reviewedInputs(about, [workflow], [], settings),
    settings,
    process: undefined,
    workflows: [workflow],
    checklist: oversightChecklist(undefined, [workflow]),
    ...operationOf(options),
  };
}

async function resolvedWorkflows(
  tasks: readonly AgentTaskSummary[],
  options: AuditOptions,
): Promise<{ readonly task: AgentTaskSummary; readonly workflow: AgentWorkflow }[]> {
  const out: { task: AgentTaskSummary; workflow: AgentWorkflow }[] = [];
  const seen = new Set<string>();
  for (const task of tasks) {
    if (task.ref === null || seen.has(task.ref)) continue;
    seen.add(task.ref);
    // Only what the decision resolved from the registry is reviewed here; a lookup that fails now
    // (a conflict the decision already blocks on, a registry gone) adds no workflow, and no crash.
    if (task.resolution !== "registry") continue;
    let answer: unknown;
    try {
      answer = await options.resolveWorkflow?.(task.ref);
    } catch {
      continue;
    }
    const parsed = parseWorkflow(answer);
    if (parsed.workflow?.id !== undefined && contentHash(parsed.workflow) === task.contentHash) {
      out.push({ task, workflow: parsed.workflow });
    }
  }
  return out;
}

/**
 * The report on a BPMN process: the promotion decision, then each agent workflow the registry
 * resolves (a workflow run by several tasks appears once).
 *
 * @example
 * ```ts
 * import { auditProcessReport, renderAuditMarkdown } from "agentflow/report";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review" />
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const report = await auditProcessReport({
 *   file: "processes/market-study.bpmn",
 *   text: xml,
 *   tools: { agentflow: "0.1.0" },
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * // titled by the process's name, else its id
 * report.title; // → "Process review: Study"
 * report.process?.allowed; // → false
 * // no resolveTool: the template's search tool has an unknown effect, which needs a gate too
 * report.process?.rules.filter((r) => !r.passed).map((r) => r.code);
 * // → ["AGENT_DEPENDENCY_UNRESOLVED", "AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE"]
 * // each resolved workflow is reviewed too, once
 * report.workflows.map((w) => `${w.id}@${w.version}`); // → ["agnt-rsch@2.1.0"]
 * // the same report as Markdown (or renderAuditHtml: one self-contained page)
 * renderAuditMarkdown(report).startsWith("# Process review: Study\n"); // → true
 * ```
 */
export async function auditProcessReport(options: AuditOptions): Promise<AuditReport> {
  const settings = reviewSettings(options);
  const check = await checkProcess(options.text, {
    ...options.gate,
    ...policyOf(options),
    ...(options.resolveTool === undefined ? {} : { resolveTool: options.resolveTool }),
    ...(options.resolveWorkflow === undefined ? {} : { resolveWorkflow: options.resolveWorkflow }),
    workflowValidation: { preset: settings.ruleSet.preset, rules: settings.ruleSet.workflowRules },
  });
  const diagnostics = [...check.blocking, ...check.warnings];
  const rules = processRuleRows(options, settings.ruleSet.bpmnRules);
  const id = typeof check.definitions?.id === "string" ? check.definitions.id : options.file;
  const broken = (options.registryProblems ?? []).filter((p) =>
    p.diagnostics.some((d) => d.severity === "error"),
  );
  const process = {
    id,
    readable: check.definitions !== undefined,
    allowed: check.allowed && broken.length === 0,
    agentTasks: check.agentTasks,
    rules: ruleResults(rules, diagnostics),
    diagrams:
      check.definitions === undefined
        ? []
        : readProcessDiagrams(check.definitions, options.gate?.isGate ?? hasGateMarker).map(
            (diagram) => ({ diagram, drawing: processDrawing(diagram) }),
          ),
    // In a section of their own, not among `workflows`: a derived workflow has no document to
    // validate or simulate (see DerivedAgentAudit), and its tools come from the BPMN.
    derivedAgents: derivedAgentAudits(check.agentTasks),
  };
  const workflows: WorkflowAudit[] = [];
  for (const { task, workflow } of await resolvedWorkflows(check.agentTasks, options)) {
    const audited = await auditWorkflow(
      workflow,
      `${task.ref ?? ""} (${task.resolution})`,
      options,
      undefined,
    );
    const imported = options.importedWorkflows?.get(`${workflow.id}@${workflow.version}`);
    workflows.push(imported === undefined ? audited : { ...audited, imported });
  }
  const about = subject(options, "process");
  return {
    title: `Process review: ${processTitle(check.definitions, options.file)}`,
    subject: about,
    tools: options.tools,
    reviewed: reviewedInputs(about, workflows, check.agentTasks, settings, broken),
    settings,
    process,
    workflows,
    checklist: oversightChecklist(process, workflows),
    ...operationOf(options),
  };
}
