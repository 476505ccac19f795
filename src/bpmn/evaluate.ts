/**
 * The promotion decision (SPEC 7): may this process go to production? `evaluateGates` resolves
 * every agent task's workflow, validates it, checks the gates, and returns the verdict with one
 * line per agent task; `checkProcess` does the same from XML text, adding parse problems and
 * source positions.
 */
import type { Diagnostic } from "../model/index.js";
import { waiveFindings } from "./waive.js";
import { splitSetting } from "../rules/internal.js";
import { analyze, prepareProcess } from "./analysis.js";
import type { AgentDeclaration } from "./agents.js";
import type { GateDecision } from "./decision.js";
import { decide, summary } from "./decision.js";
import type { LookupLimits } from "./lookup.js";
import { onceAsync, onceSync } from "./lookup.js";
import type { ModdleObject } from "./moddle.js";
import type { ReadOptions } from "./read.js";
import { readProcess } from "./read.js";
import type { TaskResolution, TaskResolvers } from "./resolve-tasks.js";
import { derivedResolution, resolveTaskAsync, resolveTaskSync } from "./resolve-tasks.js";
import { nodeId } from "./process-index.js";
import { runBpmnRules } from "./rule.js";
import type { EvaluationSetup } from "./evaluate-setup.js";
import type { GateOptions } from "./gate-options.js";
import {
  mappingOf,
  readsView,
  ruleSetOf,
  selectorsOf,
  setupOf,
  timeoutOf,
  validatorFor,
} from "./evaluate-setup.js";

export type { AgentTaskSummary, GateDecision } from "./decision.js";

/**
 * Tasks that name the same ref with the same snapshot resolve identically, so one evaluation
 * resolves and validates each such pair once (a process may run one agent in many tasks).
 */
function resolutionKey(declaration: AgentDeclaration): string {
  const snapshots =
    declaration.snapshots ?? (declaration.snapshot === undefined ? [] : [declaration.snapshot]);
  // Every snapshot counts: two tasks whose first snapshots agree may differ in a second one.
  const snap = snapshots.map((s) => `${s.version ?? ""}\u0000${s.body}`).join("\u0001");
  return `${declaration.ref ?? ""}\u0000${snap}`;
}

/** The decision from the resolutions, one per prepared agent. */
function finish(
  options: GateOptions,
  setup: EvaluationSetup,
  prepared: ReturnType<typeof prepareProcess>,
  resolutions: readonly TaskResolution[],
): GateDecision {
  const analysis = analyze(
    prepared,
    resolutions,
    options.policy?.camundaAgents ?? "gate-required",
    options.resolveWorkflow !== undefined,
  );
  const found = runBpmnRules(setup.rules, { analysis, parseIssues: [] });
  const diagnostics = waiveFindings(found, analysis, setup.waivers, setup.today, setup.packs);
  const gates = prepared.gates.map(({ node, role }) => ({
    elementId: nodeId(prepared.graph.index, node),
    role: role ?? null,
  }));
  return decide(diagnostics, analysis.tasks.map(summary), setup.ruleSet, gates);
}

/**
 * Evaluates the gates of parsed definitions; resolvers may return promises.
 *
 * @example
 * ```ts
 * import { evaluateGates, readProcess } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * // resolvers may be async: a registry over HTTP, say
 * const decision = await evaluateGates(definitions, {
 *   resolveWorkflow: async (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * decision.allowed; // → true
 * decision.agentTasks[0]?.gate; // → "reached"
 * decision.agentTasks[0]?.contentHash?.startsWith("sha256:"); // → true
 * ```
 */
export async function evaluateGates(
  definitions: ModdleObject,
  options: GateOptions = {},
): Promise<GateDecision> {
  const setup = setupOf(options);
  const mapping = mappingOf(options);
  const prepared = prepareProcess(
    definitions,
    options.isGate,
    selectorsOf(options),
    readsView(setup.rules),
  );
  const limits: LookupLimits = { signal: options.signal, timeoutMs: timeoutOf(options) };
  const lookups: TaskResolvers = {
    resolveWorkflow: onceAsync(options.resolveWorkflow, limits),
    resolveTool: onceAsync(options.resolveTool, limits),
  };
  const validator = validatorFor(options, lookups);
  const cache = new Map<string, TaskResolution>();
  const resolutions: TaskResolution[] = [];
  for (const { declaration } of prepared.agents) {
    const derived = derivedResolution(declaration, mapping);
    if (derived !== undefined) {
      resolutions.push(derived);
      continue;
    }
    const key = resolutionKey(declaration);
    let resolution = cache.get(key);
    if (resolution === undefined) {
      resolution = await resolveTaskAsync(declaration, lookups, validator);
      cache.set(key, resolution);
    }
    resolutions.push(resolution);
  }
  return finish(options, setup, prepared, resolutions);
}

/**
 * {@link evaluateGates} for synchronous resolvers (a promise from one is a `TypeError`).
 *
 * @example
 * ```ts
 * import { evaluateGatesSync, readProcess } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * const decision = evaluateGatesSync(definitions, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * decision.allowed; // → true
 * decision.agentTasks.map((t) => `${t.elementId}: ${t.requirement} gate ${t.gate}`);
 * // → ["Research: required gate reached"]
 * ```
 */
export function evaluateGatesSync(
  definitions: ModdleObject,
  options: GateOptions = {},
): GateDecision {
  const setup = setupOf(options);
  const mapping = mappingOf(options);
  const prepared = prepareProcess(
    definitions,
    options.isGate,
    selectorsOf(options),
    readsView(setup.rules),
  );
  const lookups: TaskResolvers = {
    resolveWorkflow: onceSync(options.resolveWorkflow),
    resolveTool: onceSync(options.resolveTool),
  };
  const validator = validatorFor(options, lookups);
  const cache = new Map<string, TaskResolution>();
  const resolutions = prepared.agents.map(({ declaration }) => {
    const derived = derivedResolution(declaration, mapping);
    if (derived !== undefined) return derived;
    const key = resolutionKey(declaration);
    const resolution = cache.get(key) ?? resolveTaskSync(declaration, lookups, validator);
    cache.set(key, resolution);
    return resolution;
  });
  return finish(options, setup, prepared, resolutions);
}

/** What {@link checkProcess} returns. */
export interface ProcessCheck extends GateDecision {
  /** The parsed definitions, when the XML could be read. */
  readonly definitions: ModdleObject | undefined;
}

/**
 * Reads XML and evaluates its gates: parse problems (`BPMN_PARSE`) come first, and every
 * diagnostic gets the line and column of its element. Never throws for bad input.
 *
 * @example
 * ```ts
 * import { checkProcess } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 *
 * // a research agent (agnt-rsch@2.1.0, autonomy 2) whose result nobody approves
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
 * const registry = (ref: string) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined);
 * const decision = await checkProcess(xml, { resolveWorkflow: registry });
 * decision.allowed; // → false
 * // the template calls tool:browser-search@1.2.0, and no resolveTool says what that does:
 * // its effect is unknown, so it needs a gate too (agentflow fails closed)
 * decision.blocking.map((d) => `${d.location?.line ?? "?"}: ${d.code}`);
 * // → ["5: AGENT_GATE_UNREACHABLE", "5: TOOL_EFFECT_NEEDS_GATE"]
 * decision.agentTasks.map((t) => `${t.elementId} ${t.ref ?? ""} level ${t.level ?? "?"}: gate ${t.gate}`);
 * // → ["Research agnt-rsch@2.1.0 level 2: gate missing"]
 *
 * // the same process, where every user task counts as an approval gate
 * const withReview = await checkProcess(xml, {
 *   resolveWorkflow: registry,
 *   isGate: (element) => element.$type === "bpmn:UserTask",
 * });
 * withReview.allowed; // → true
 * ```
 */
export async function checkProcess(
  xml: string,
  options: GateOptions & ReadOptions = {},
): Promise<ProcessCheck> {
  const read = await readProcess(xml, options);
  const parseSetting =
    options.rules?.BPMN_PARSE === undefined ? undefined : splitSetting(options.rules.BPMN_PARSE)[0];
  // The reader words BPMN_PARSE at its own per-kind severities; a configured severity caps them.
  const parsed =
    parseSetting === "off"
      ? []
      : parseSetting === undefined || parseSetting === "error"
        ? read.diagnostics
        : read.diagnostics.map((d) => ({ ...d, severity: parseSetting }));
  if (read.definitions === undefined) {
    // Nothing was read, so nothing was reviewed: whatever the settings say of BPMN_PARSE, the
    // reader's own findings stand and the promotion is never allowed (fail closed).
    return {
      ...decide(read.diagnostics, [], ruleSetOf(options)),
      allowed: false,
      definitions: undefined,
    };
  }
  const decision = await evaluateGates(read.definitions, options);
  const locate = (d: Diagnostic): Diagnostic => {
    if (d.location !== undefined || d.target.kind !== "bpmn-element") return d;
    const location = read.source.locateId(d.target.elementId);
    return location === undefined ? d : { ...d, location };
  };
  const all = [...parsed, ...decision.blocking, ...decision.warnings].map(locate);
  return {
    ...decide(all, decision.agentTasks, decision.ruleSet, decision.gates),
    definitions: read.definitions,
  };
}
