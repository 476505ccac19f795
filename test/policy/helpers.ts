/**
 * Hand-built facts and views for pack rules, and the kit's run loop over them, as the lead's
 * wiring will run them (validate for workflows, bpmn for processes).
 */
import type { Diagnostic } from "../../src/model/index.js";
import type { ActiveRule } from "../../src/rules/internal.js";
import { runRules } from "../../src/rules/internal.js";
import type {
  AgentTaskFacts,
  CompiledPack,
  GatePathRequirement,
  GatePathResult,
  PackProcessContext,
  PackProcessReport,
  PackWorkflowContext,
  PackWorkflowReport,
  ProcessFacts,
  ProcessView,
  ToolFacts,
  WorkflowFacts,
  WorkflowView,
} from "../../src/policy/index.js";
import { compilePolicyPack } from "../../src/policy/index.js";

/** A finding with the message id it was reported with. */
export type Finding = Diagnostic & { readonly messageId: string };

export function tool(
  id: string,
  effect: string | null,
  authorization: string | null = "gate",
): ToolFacts {
  return { ref: `tool:${id}@1.0.0`, id: `tool:${id}`, version: "1.0.0", effect, authorization };
}

export function agentTask(id: string, facts: Partial<AgentTaskFacts> = {}): AgentTaskFacts {
  return {
    process: { id: "Loans", name: "Loan origination" },
    element: { id, name: `Task ${id}`, type: "bpmn:ServiceTask" },
    lane: null,
    ref: `agnt-${id.toLowerCase()}@1.0.0`,
    level: 2,
    declaredLevel: 2,
    declaredLevelText: "2",
    justifiedLevel: 2,
    camunda: false,
    tools: [],
    models: ["gpt-4o"],
    budget: { maxSteps: 10, maxTokens: null, maxWallTimeMs: null, maxCost: { USD: 5 } },
    gates: [],
    gateStatus: "missing",
    unread: [],
    ...facts,
  };
}

export function workflow(id: string, facts: Partial<WorkflowFacts> = {}): WorkflowFacts {
  return {
    id,
    version: "1.0.0",
    name: `Workflow ${id}`,
    level: 2,
    justifiedLevel: 2,
    nodes: [{ id: "draft", type: "llm", model: "gpt-4o", fallbackModel: null }],
    tools: [],
    models: ["gpt-4o"],
    budget: { maxSteps: 10, maxTokens: null, maxWallTimeMs: null, maxCost: {} },
    delegates: [],
    unread: [],
    ...facts,
  };
}

const place = (elementId: string) => ({
  elementId,
  path: `/rootElements/0/flowElements/${elementId}`,
});

/** A process view over agent tasks; `gatePaths` answers `checkGatePath` per task id. */
export function processView(
  tasks: readonly AgentTaskFacts[],
  options: {
    gatePaths?: Record<string, (r: GatePathRequirement) => GatePathResult>;
    workflows?: Record<string, WorkflowFacts>;
    process?: Partial<ProcessFacts>;
  } = {},
): ProcessView & { asked: [string, GatePathRequirement][] } {
  const asked: [string, GatePathRequirement][] = [];
  const processFacts: ProcessFacts = {
    id: "Loans",
    name: "Loan origination",
    agentTasks: tasks,
    gates: [],
    ...options.process,
  };
  return {
    asked,
    processes: [{ ...processFacts, place: place(processFacts.id) }],
    agentTasks: tasks.map((t) => ({ ...t, place: place(t.element.id) })),
    workflows: tasks.flatMap((t) => {
      const w = options.workflows?.[t.element.id];
      return w === undefined ? [] : [{ ...w, place: place(t.element.id) }];
    }),
    tools: tasks.flatMap((t) => (t.tools ?? []).map((x) => ({ ...x, place: place(t.element.id) }))),
    gates: [],
    // Packs read facts, never the flow: a hand-built view has none.
    next: () => [],
    reaches: () => false,
    checkGatePath(elementId, requirement) {
      asked.push([elementId, requirement]);
      const answer = options.gatePaths?.[elementId];
      return answer === undefined ? { holds: true } : answer(requirement);
    },
  };
}

/** A workflow view: the workflow and one tool call per node. */
export function workflowView(
  w: WorkflowFacts,
  calls: readonly (ToolFacts & { nodeId: string })[] = [],
): WorkflowView {
  return {
    workflow: w,
    toolCalls: calls.map((c, i) => ({ ...c, path: `/nodes/${i}/config/usesTool` })),
    next: () => [],
    reachable: () => true,
  };
}

/** Runs a pack's process rules over a view, as the BPMN layer will. */
export function runProcess(pack: CompiledPack, view: ProcessView | undefined): Finding[] {
  const active: ActiveRule<PackProcessContext>[] = pack.processRules.map((rule) => ({
    rule,
    severity: rule.meta.defaultSeverity,
    options: {},
  }));
  return runRules<PackProcessContext, PackProcessReport>(active, {
    context: (report, options) => ({ view, options, report }),
    diagnostic: (meta, severity, r, message) => ({
      code: meta.code,
      severity,
      message,
      target: { kind: "bpmn-element", elementId: r.elementId, path: r.path },
      path: r.path,
      data: r.data,
      messageId: r.messageId ?? "default",
    }),
    crashed: (meta, detail) => ({
      code: "RULE_CRASHED",
      severity: "error",
      message: `${meta.code}: ${detail}`,
      target: { kind: "bpmn-element", elementId: "" },
      path: "",
      data: {},
      messageId: "crashed",
    }),
  }) as Finding[];
}

/** Runs a pack's workflow rules over a view, as the workflow validator will. */
export function runWorkflow(pack: CompiledPack, view: WorkflowView): Finding[] {
  const active: ActiveRule<PackWorkflowContext>[] = pack.workflowRules.map((rule) => ({
    rule,
    severity: rule.meta.defaultSeverity,
    options: {},
  }));
  return runRules<PackWorkflowContext, PackWorkflowReport>(active, {
    context: (report, options) => ({ view, options, report }),
    diagnostic: (meta, severity, r, message) => ({
      code: meta.code,
      severity,
      message,
      target: r.target,
      path: r.path,
      data: r.data,
      messageId: r.messageId ?? "default",
    }),
    crashed: (meta, detail) => ({
      code: "RULE_CRASHED",
      severity: "error",
      message: `${meta.code}: ${detail}`,
      target: { kind: "workflow" },
      path: "",
      data: {},
      messageId: "crashed",
    }),
  }) as Finding[];
}

/** A one-rule pack `t` (rule id `r`). */
export function onePack(rule: Record<string, unknown>): CompiledPack {
  return compilePolicyPack({
    kind: "PolicyPack",
    name: "t",
    version: "1.0.0",
    rules: [{ id: "r", severity: "error", ...rule }],
  });
}
