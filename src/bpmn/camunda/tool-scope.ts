/**
 * The flow nodes an AI agent's tool container holds, as the gate rules' hints need them: the user
 * tasks among an agent's tools (and inside its tools' sub-flows) are people the model may consult
 * or not, never an approval of what the agent did (docs/bpmn.md, "The tools"), so a finding that
 * suggests user tasks to mark as gates leaves them out, wherever the container is drawn (the AI
 * Agent task's container usually sits in the loop right after the task).
 */
import type { DerivedAgent } from "./types.js";
import type { ProcessIndex } from "../process-index.js";
import { nodeId } from "../process-index.js";

/** The container index the node with this id opens (a sub-process), or -1. */
function containerOf(index: ProcessIndex, id: string): number {
  for (let node = 0; node < index.flags.length; node++) {
    const opens = index.opens[node] ?? -1;
    if (opens >= 0 && nodeId(index, node) === id) return opens;
  }
  return -1;
}

/**
 * A test for "this flow node lies in the agent's tool container (at any depth)", or `undefined`
 * when the agent has no container that was found (or is no AI agent agentflow reads).
 */
export function inToolContainer(
  index: ProcessIndex,
  agent: DerivedAgent | undefined,
): ((node: number) => boolean) | undefined {
  const container = agent?.container;
  if (container?.found !== true) return undefined;
  const scope = containerOf(index, container.id);
  if (scope < 0) return undefined;
  return (node) => {
    for (let c = index.container[node] ?? -1; c >= 0; c = index.containers[c]?.parent ?? -1) {
      if (c === scope) return true;
    }
    return false;
  };
}
