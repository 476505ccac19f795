/**
 * Camunda's Send Message connector, by its job type or its templates (the task, throw and end
 * event): a message an agent's tool publishes with it can complete a catch (`gate-context.ts`
 * reads the agent's own tools, `gate-signals.ts` the processes they call).
 */

const SEND_MESSAGE_JOB = "io.camunda:sendMessage:";
const SEND_MESSAGE_TEMPLATE = "io.camunda.connectors.message.";

/** True for an element with this job type or template id that the Send Message connector runs. */
export function isSendMessage(
  jobType: string | undefined,
  templateId: string | undefined,
): boolean {
  return (
    jobType?.startsWith(SEND_MESSAGE_JOB) === true ||
    templateId?.startsWith(SEND_MESSAGE_TEMPLATE) === true
  );
}
