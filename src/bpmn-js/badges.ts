/**
 * What the modeller shows on each agent task, as data: the gate status in the words of the badge
 * and the findings listed when the badge is hovered. Pure, so it is tested without a browser;
 * `draw.ts` turns it into DOM.
 */
import type { AgentTaskSummary, GateDecision } from "../bpmn/index.js";
import { agentGateStatus } from "../bpmn/gate-status.js";
import type { Diagnostic, DiagnosticWaiver, Severity } from "../model/index.js";
// The leaf module, not model/index.js: the first load draws, and carries nothing else of model/.
import { visibleText } from "../model/text/visible.js";

/**
 * Where the gate stands for one agent task, as the overlay's `data-agentflow-gate` says it.
 * `bypass` and `missing` are the required gate's problems; `optional` is a level-4 task whose
 * gate is not on every path; `not-needed` a level-5 task (or one the policy ignores) that
 * reaches no gate; `unresolved` a task whose workflow could not be read and that reaches no gate
 * on every path. The rule is `agentGateStatus` of agentflow/bpmn (docs/bpmn.md).
 */
export type BadgeGate = "reached" | "missing" | "bypass" | "optional" | "not-needed" | "unresolved";

/** Every {@link BadgeGate}, in the order the docs list them. */
export const BADGE_GATES: readonly BadgeGate[] = Object.freeze([
  "reached",
  "missing",
  "bypass",
  "optional",
  "not-needed",
  "unresolved",
]);

/** One finding on an agent task, as the hover list shows it. */
export interface BadgeFinding {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  /** The waiver that covers it: it is shown, marked, and no longer blocks. */
  readonly waived?: DiagnosticWaiver;
}

/** The overlay of one agent task. */
export interface TaskBadge {
  readonly elementId: string;
  /** The level the task runs at (`"0"`..`"5"`), or `"unknown"` (a Camunda agent, an unreadable level). */
  readonly level: string;
  readonly gate: BadgeGate;
  /** The badge's text, e.g. `L3 · gate missing`. */
  readonly text: string;
  /** The task's blocking findings first, then its warnings, each in the decision's order. */
  readonly findings: readonly BadgeFinding[];
}

const WORDS: Readonly<Record<BadgeGate, string>> = {
  reached: "gated",
  missing: "gate missing",
  bypass: "gate bypassed",
  optional: "gate optional",
  "not-needed": "no gate needed",
  unresolved: "unresolved",
};

/**
 * The badge status of one task: `agentGateStatus` of agentflow/bpmn (the rule the audit report
 * shows too), with `bypassed` spelt `bypass` as the overlay's attribute has always said it.
 *
 * @example
 * ```ts
 * import { badgeGate } from "agentflow/bpmn-js";
 *
 * badgeGate({ requirement: "required", gate: "bypassed", resolution: "registry" }); // → "bypass"
 * badgeGate({ requirement: "optional", gate: "missing", resolution: "registry" }); // → "optional"
 * badgeGate({ requirement: "required", gate: "reached", resolution: "unresolved" }); // → "reached"
 * ```
 */
export function badgeGate(
  task: Pick<AgentTaskSummary, "requirement" | "gate" | "resolution">,
): BadgeGate {
  const status = agentGateStatus(task);
  return status === "bypassed" ? "bypass" : status;
}

/** The element a diagnostic is on, when it is a BPMN element. */
function diagnosticElement(diagnostic: Diagnostic): string | undefined {
  return diagnostic.target.kind === "bpmn-element" ? diagnostic.target.elementId : undefined;
}

/**
 * The badge of every agent task of a decision, in the decision's order.
 *
 * @example
 * ```ts
 * import { checkProcess } from "agentflow/bpmn";
 * import { taskBadges } from "agentflow/bpmn-js";
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
 * const decision = await checkProcess(xml, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * const [badge] = taskBadges(decision);
 * badge?.text; // → "L2 · gate missing"
 * // without resolveTool the template's search tool has an unknown effect: it needs a gate too
 * badge?.findings.map((f) => f.code);
 * // → ["AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE", "AGENT_DEPENDENCY_UNRESOLVED"]
 * ```
 */
export function taskBadges(
  decision: Pick<GateDecision, "agentTasks" | "blocking" | "warnings">,
): TaskBadge[] {
  const findings = new Map<string, BadgeFinding[]>();
  for (const diagnostic of [...decision.blocking, ...decision.warnings]) {
    const id = diagnosticElement(diagnostic);
    if (id === undefined) continue;
    const list = findings.get(id) ?? [];
    list.push({
      code: diagnostic.code,
      severity: diagnostic.severity,
      message: diagnostic.message,
      ...(diagnostic.waived === undefined ? {} : { waived: diagnostic.waived }),
    });
    findings.set(id, list);
  }
  return decision.agentTasks.map((task) => {
    const gate = badgeGate(task);
    const level = task.level === null ? "unknown" : String(task.level);
    return {
      elementId: task.elementId,
      level,
      gate,
      text: `L${task.level === null ? "?" : level} · ${WORDS[gate]}`,
      findings: findings.get(task.elementId) ?? [],
    };
  });
}

/** The marker on an approval gate. */
export interface GateMark {
  readonly elementId: string;
  /** `btv:gate`'s `approverRole`, when it names one. */
  readonly approverRole: string | undefined;
  /**
   * The marker's text, e.g. `Gate · underwriter`: the role with invisible characters escaped, so
   * that a right-to-left override or a zero-width space cannot make it read as another role.
   */
  readonly text: string;
}

/**
 * The marker of one approval gate.
 *
 * @example
 * ```ts
 * import { gateMark } from "agentflow/bpmn-js";
 *
 * gateMark("UnderwriterReview", "underwriter").text; // → "Gate · underwriter"
 * gateMark("Review", undefined).text; // → "Gate"
 * gateMark("Review", "\u202Erotirwrednu").text; // → "Gate · \\u{202E}rotirwrednu"
 * ```
 */
export function gateMark(elementId: string, approverRole: string | undefined): GateMark {
  const role = approverRole?.trim() ?? "";
  return {
    elementId,
    approverRole: role === "" ? undefined : role,
    text: role === "" ? "Gate" : `Gate · ${visibleText(role)}`,
  };
}

/** The marker on a tool of a Camunda agent read from the BPMN: its effect and where it came from. */
export interface ToolMark {
  /** The tool element. */
  readonly elementId: string;
  /** The agent whose container holds the tool. */
  readonly agentId: string;
  /** The effect, or `unknown` (needs a gate, and a mapping). */
  readonly effect: string;
  /** `btv`, `config`, `default` or `unknown`. */
  readonly source: string;
  /** The marker's text, e.g. `write-irreversible` or `unknown · map it`. */
  readonly text: string;
}

/**
 * The effect marker of every tool of every derived Camunda agent, in the decision's order.
 *
 * @example
 * ```ts
 * import { toolMarks } from "agentflow/bpmn-js";
 *
 * const tool = { id: "Lookup", effect: "read" as const, effectSource: "default" as const };
 * const unmapped = { id: "Score", effectSource: "unknown" as const };
 * const marks = toolMarks({ agentTasks: [{ elementId: "Agent", derived: { tools: [tool, unmapped] } }] });
 * marks.map((m) => `${m.elementId}: ${m.text}`); // → ["Lookup: read", "Score: unknown · map it"]
 * ```
 */
export function toolMarks(decision: {
  readonly agentTasks: readonly {
    readonly elementId: string;
    readonly derived?: {
      readonly tools: readonly Pick<
        NonNullable<AgentTaskSummary["derived"]>["tools"][number],
        "id" | "effect" | "effectSource"
      >[];
    };
  }[];
}): ToolMark[] {
  return decision.agentTasks.flatMap((task) =>
    (task.derived?.tools ?? []).map((tool) => {
      const effect = tool.effect ?? "unknown";
      return {
        elementId: tool.id,
        agentId: task.elementId,
        effect,
        source: tool.effectSource,
        text: tool.effect === undefined ? "unknown · map it" : effect,
      };
    }),
  );
}
