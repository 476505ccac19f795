/**
 * The oversight checklist of SPEC 8: for each provision (EU AI Act Art. 12 and 14, NIST AI RMF
 * GOVERN 3.2, MAP 3.5, MANAGE 2.4), the facts of this review that bear on it. The wording is
 * evidence for a reviewer, never a claim that anything complies: agentflow sees the design of the
 * agent and its process, not how they are operated.
 */
import { autonomyLevelInfo } from "../../autonomy/index.js";
import type { AutonomyLevel } from "../../model/index.js";
import type { ChecklistItem, ChecklistStatus, ProcessAudit, WorkflowAudit } from "./types.js";
import { REPORT_STEPS } from "./limits.js";

const BOUND_RULES = new Set(["CYCLE_WITHOUT_STOP", "RETRY_WITHOUT_MAX", "BUDGET_MISSING"]);

function levelName(level: number): string {
  return autonomyLevelInfo(level as AutonomyLevel).name;
}

function gateFacts(process: ProcessAudit): { facts: string[]; open: number; required: number } {
  const facts: string[] = [];
  let open = 0;
  let required = 0;
  for (const task of process.agentTasks) {
    const level = task.level === null ? "of unknown level" : `at level ${task.level}`;
    facts.push(
      `Agent task ${task.elementId} (${task.ref ?? "no workflow ref"}, ${level}) needs a gate: ${task.requirement}; gate downstream: ${task.gate}.`,
    );
    if (task.requirement === "required") {
      required += 1;
      if (task.gate !== "reached") open += 1;
    }
  }
  return { facts, open, required };
}

function recordKeeping(workflows: readonly WorkflowAudit[]): ChecklistItem {
  const evidence = workflows.map(
    (w) =>
      `${w.id}@${w.version} was reviewed as ${w.contentHash}; its simulated runs are listed step by step in this report.`,
  );
  evidence.push(
    "Logging by the deployed system is outside this review: agentflow checks the design, not the runtime.",
  );
  return {
    reference: "EU AI Act Art. 12 (record-keeping)",
    question:
      "Can the events of the agent's operation be recorded and traced to what was approved?",
    status: "partial",
    evidence,
  };
}

function humanOversight(process: ProcessAudit | undefined): ChecklistItem {
  const question =
    "Can a person oversee the agent and intervene before its outputs take effect in the process?";
  if (process === undefined) {
    return {
      reference: "EU AI Act Art. 14 (human oversight)",
      question,
      status: "partial",
      evidence: ["No BPMN process was reviewed, so no approval gate could be verified downstream."],
    };
  }
  const { facts, open } = gateFacts(process);
  const status: ChecklistStatus = open === 0 ? "evidence" : "no-evidence";
  if (process.agentTasks.length === 0) facts.push("The process has no agent task.");
  return { reference: "EU AI Act Art. 14 (human oversight)", question, status, evidence: facts };
}

function roles(
  process: ProcessAudit | undefined,
  workflows: readonly WorkflowAudit[],
): ChecklistItem {
  const evidence = workflows.map(
    (w) =>
      `${w.id} declares autonomy level ${w.declaredLevel} (${levelName(w.declaredLevel)}); its graph justifies level ${w.justifiedLevel} (${levelName(w.justifiedLevel)}).`,
  );
  const unknown = process?.agentTasks.filter((t) => t.level === null).length ?? 0;
  if (unknown > 0) evidence.push(`${unknown} agent task(s) state no readable autonomy level.`);
  const incoherent = workflows.filter((w) => w.declaredLevel < w.justifiedLevel).length;
  return {
    reference: "NIST AI RMF GOVERN 3.2",
    question:
      "Are the roles of people and agent in this human-AI configuration defined, level by level?",
    status: unknown === 0 && incoherent === 0 && workflows.length > 0 ? "evidence" : "partial",
    evidence,
  };
}

function oversightProcess(
  process: ProcessAudit | undefined,
  workflows: readonly WorkflowAudit[],
): ChecklistItem {
  const evidence = workflows.map(
    (w) =>
      `${w.id}: ${w.rules.filter((r) => r.passed).length} of ${w.rules.length} rules passed; a gate is ${w.gateRequirement} at its level.`,
  );
  let status: ChecklistStatus = "partial";
  if (process !== undefined) {
    const { open, required } = gateFacts(process);
    evidence.push(
      `${required - open} of ${required} agent task(s) that require a gate reach one on every path.`,
    );
    status = open === 0 ? "evidence" : "no-evidence";
  }
  return {
    reference: "NIST AI RMF MAP 3.5",
    question: "Is human oversight of the agent defined, assessed and documented?",
    status,
    evidence,
  };
}

function stopping(workflows: readonly WorkflowAudit[]): ChecklistItem {
  const evidence: string[] = [];
  let gaps = 0;
  for (const w of workflows) {
    const failed = w.rules.filter((r) => BOUND_RULES.has(r.code) && !r.passed).map((r) => r.code);
    const unstopped = w.exploration?.unstopped ?? 0;
    gaps += failed.length + (unstopped > 0 ? 1 : 0);
    const runs =
      w.exploration === undefined ? "" : `; ${w.exploration.runs} explored run(s) all end or stop`;
    if (failed.length > 0) {
      evidence.push(
        `${w.id}: ${failed.join(", ")} reported — a run may not be stopped by its own bounds.`,
      );
    } else if (unstopped > 0) {
      // The rules found every loop bounded, yet a run went on until the review's own bound.
      evidence.push(
        `${w.id}: ${unstopped} explored run(s) went on until the review's own step bound (${REPORT_STEPS} moves) cut them — the review did not see them end or stop by the workflow's bounds.`,
      );
    } else {
      evidence.push(`${w.id}: every loop is bounded and the budget is stated${runs}.`);
    }
  }
  return {
    reference: "NIST AI RMF MANAGE 2.4",
    question: "Can a run that goes wrong be stopped: bounded loops, budgets, stop conditions?",
    status: gaps === 0 && workflows.length > 0 ? "evidence" : "partial",
    evidence,
  };
}

/**
 * The checklist for a review; `process` is absent for a workflow on its own.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { auditWorkflowReport, oversightChecklist } from "agentflow/report";
 *
 * const wf = getTemplate("research");
 * if (wf === undefined) throw new Error("no such template");
 * const { workflows } = await auditWorkflowReport(wf, { file: "research.json", text: "", tools: {} });
 * // without a process there is no gate to show: human oversight has partial evidence only
 * oversightChecklist(undefined, workflows).map((item) => `${item.status}: ${item.reference}`);
 * // → [
 * //     "partial: EU AI Act Art. 12 (record-keeping)",
 * //     "partial: EU AI Act Art. 14 (human oversight)",
 * //     "evidence: NIST AI RMF GOVERN 3.2",
 * //     "partial: NIST AI RMF MAP 3.5",
 * //     "evidence: NIST AI RMF MANAGE 2.4",
 * //   ]
 * ```
 */
export function oversightChecklist(
  process: ProcessAudit | undefined,
  workflows: readonly WorkflowAudit[],
): ChecklistItem[] {
  return [
    recordKeeping(workflows),
    humanOversight(process),
    roles(process, workflows),
    oversightProcess(process, workflows),
    stopping(workflows),
  ];
}
