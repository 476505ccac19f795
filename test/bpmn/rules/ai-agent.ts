/**
 * Camunda AI agents for the BPMN rule tables: an AI Agent sub-process (template job type,
 * OpenAI, a static maximum of model calls unless told) whose children are its tools, with or
 * without a btv ref beside its Camunda markers, and tools whose effect the BPMN states or not.
 */
import { element } from "../builders.js";

/** Options of {@link aiAgent}. */
export interface AiAgentOptions {
  /** A `<btv:agentTask agentWorkflowRef>`, first among the extension elements. */
  readonly ref?: string;
  /** Its `autonomyLevel`. */
  readonly level?: string;
  /** The bare `btv:agentWorkflowRef` attribute. */
  readonly attrRef?: string;
  /** `data.limits.maxModelCalls` as written; `null` leaves it out (no bound). */
  readonly maxModelCalls?: string | null;
  readonly tools: readonly string[];
}

/** An AI Agent sub-process (job type `io.camunda.agenticai:aiagent-job-worker:1`). */
export function aiAgent(id: string, options: AiAgentOptions): string {
  const calls = options.maxModelCalls === undefined ? "=8" : options.maxModelCalls;
  const inputs = [
    '<zeebe:input source="openai" target="provider.type" />',
    '<zeebe:input source="gpt-4o" target="provider.openai.model.model" />',
    ...(calls === null
      ? []
      : [`<zeebe:input source="${calls}" target="data.limits.maxModelCalls" />`]),
  ];
  return element("adHocSubProcess", id, {
    ...(options.attrRef === undefined
      ? {}
      : { attrs: { "btv:agentWorkflowRef": options.attrRef } }),
    ext: [
      ...(options.ref === undefined
        ? []
        : [
            `<btv:agentTask agentWorkflowRef="${options.ref}"${options.level === undefined ? "" : ` autonomyLevel="${options.level}"`} />`,
          ]),
      '<zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1" retries="3" />',
      `<zeebe:ioMapping>\n  ${inputs.join("\n  ")}\n</zeebe:ioMapping>`,
    ],
    children: options.tools,
  });
}

/** A tool running the job type `acme:<id>:1`, its effect stated with `btv:toolEffect`. */
export function effectTool(id: string, effect: string): string {
  return element("serviceTask", id, {
    attrs: { "btv:toolEffect": effect },
    ext: [`<zeebe:taskDefinition type="acme:${id}:1" />`],
  });
}

/** A tool running the job type `acme:<id>:1`, whose effect nothing states. */
export function unmappedTool(id: string): string {
  return element("serviceTask", id, { ext: [`<zeebe:taskDefinition type="acme:${id}:1" />`] });
}
