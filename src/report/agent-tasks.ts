/**
 * The agent-task table of a promotion decision, shared by `agentflow gate`'s text output and the
 * audit report, so that both name the columns and the missing values the same way.
 */
import type { AgentTaskSummary } from "../bpmn/index.js";
import { visibleText } from "../model/index.js";

/** Column headings, in order. */
export const AGENT_TASK_COLUMNS: readonly string[] = Object.freeze([
  "agent task",
  "workflow",
  "level",
  "justified",
  "gate needed",
  "gate",
  "source",
  "content hash",
]);

/**
 * One row of cells for a task; `hashLength` shortens the content hash (e.g. for a terminal).
 * Ids and refs come from the process file, so invisible characters in them are shown escaped.
 *
 * @example
 * ```ts
 * import { checkProcess } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 * import { AGENT_TASK_COLUMNS, agentTaskCells } from "agentflow/report";
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
 * const { agentTasks } = await checkProcess(xml, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * AGENT_TASK_COLUMNS;
 * // → ["agent task", "workflow", "level", "justified", "gate needed", "gate", "source", "content hash"]
 * agentTasks.map((task) => agentTaskCells(task, { hashLength: 19 }));
 * // → [["Research", "agnt-rsch@2.1.0", "2", "2", "required", "reached", "registry", "sha256:db09985d671d"]]
 * ```
 */
export function agentTaskCells(
  task: AgentTaskSummary,
  options: { readonly hashLength?: number } = {},
): string[] {
  const hash = task.contentHash ?? "-";
  return [
    visibleText(task.elementId),
    task.ref === null
      ? task.source === "camunda"
        ? "(camunda agent)"
        : "(invalid ref)"
      : visibleText(task.ref),
    task.level === null ? "?" : String(task.level),
    task.justifiedLevel === null ? "?" : String(task.justifiedLevel),
    task.requirement,
    task.gate,
    task.resolution,
    options.hashLength === undefined ? hash : hash.slice(0, options.hashLength),
  ];
}
