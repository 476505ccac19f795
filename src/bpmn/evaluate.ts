/**
 * The promotion decision (SPEC 7): may this process go to production? `evaluateGates` resolves
 * every agent task's workflow, validates it, checks the gates, and returns the verdict with one
 * line per agent task; `checkProcess` does the same from XML text, adding parse problems and
 * source positions.
 */
import type { Diagnostic } from "../model/index.js";
import { splitSetting } from "../rules/internal.js";
import { compiledOptions } from "./compiled-options.js";
import { decide } from "./decision.js";
import type { GateDecision } from "./decision.js";
import { evaluateCompiled, evaluateCompiledSync } from "./evaluate-run.js";
import { ruleSetOf } from "./evaluate-setup.js";
import type { GateOptions } from "./gate-options.js";
import type { ModdleObject } from "./moddle.js";
import type { ReadOptions } from "./read.js";
import { readProcess } from "./read.js";

export type { AgentTaskSummary, GateDecision } from "./decision.js";

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
  return evaluateCompiled(definitions, compiledOptions(options));
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
  return evaluateCompiledSync(definitions, compiledOptions(options));
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
      ...decide(read.diagnostics, [], ruleSetOf(compiledOptions(options))),
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
