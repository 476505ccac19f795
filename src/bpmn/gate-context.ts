/**
 * What the gate kinds need to know of a document's agents (`gate-kind.ts`): the ad-hoc
 * sub-processes their tool calls run, and the messages their tools can publish. An agent's tool
 * container is no approval, whatever it holds; and a message catch or receive task whose message
 * an agent can publish itself completes when the agent chooses, not when a person decides.
 */
import type { CamundaActivity, CamundaAgent } from "./camunda/types.js";
import { isSendMessage } from "./camunda/send-message.js";
import { staticText } from "./camunda/static-text.js";
import { fieldSource } from "./camunda/zeebe.js";
import type { GateContext, MessagePublisher } from "./gate-kind.js";

/** A publishing tool and the message name it gives (`undefined`: known only at run time). */
interface Publishing extends MessagePublisher {
  readonly name: string | undefined;
}

/** True for an activity Camunda's Send Message connector runs. */
function sendsMessages(activity: CamundaActivity): boolean {
  return isSendMessage(activity.jobType, activity.templateId);
}

/**
 * The message name a Send Message tool publishes: its `messageName` input as static text or a
 * FEEL string literal; `undefined` when it is FEEL (the model may choose it through `fromAi`) or
 * no input gives it (the connector then reads a variable of that name).
 */
function publishedName(activity: CamundaActivity): string | undefined {
  const source = fieldSource(activity.inputMappings, "messageName");
  const field = source?.field;
  return field === undefined ? undefined : staticText(field.trim())?.trim();
}

/**
 * The gate context of these agents, read from the BPMN (`agents`: every Camunda AI agent read,
 * in walk order). Every tool counts, and every element a tool's flow leads to inside the
 * container: a message published with a time to live waits for its catch, so an agent anywhere
 * in the document may complete it, not only one before it.
 */
export function gateContextOf(agents: readonly CamundaAgent[]): GateContext {
  const toolContainers = new Map<string, string>();
  const unreadContainers: string[] = [];
  const publishing: Publishing[] = [];
  for (const agent of agents) {
    const container = agent.container;
    // The sub-process variant is its own container: its children are its tools too.
    if (container !== undefined) {
      if (container.found) {
        if (!toolContainers.has(container.id)) toolContainers.set(container.id, agent.elementId);
      } else if (container.id.startsWith("=")) {
        // Named by FEEL (a container of one that is missing names none): any may be it.
        unreadContainers.push(agent.elementId);
      }
    }
    for (const activity of [...agent.tools, ...agent.steps]) {
      if (!sendsMessages(activity)) continue;
      publishing.push({ agent: agent.elementId, tool: activity.id, name: publishedName(activity) });
    }
  }
  const publisher = (name: string | undefined): MessagePublisher | undefined => {
    const found = publishing.find(
      (p) => name === undefined || p.name === undefined || p.name === name,
    );
    return found === undefined ? undefined : { agent: found.agent, tool: found.tool };
  };
  return { toolContainers, unreadContainers, publisher };
}
