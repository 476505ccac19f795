/**
 * What is hashed of a reading (a tool's `contentHash`, an agent's `readHash`): everything read,
 * with the order of an element's input mappings only where that order decides a field — a target
 * given twice, or one that holds another (`operation` and `operation.type`). Elsewhere the
 * targets and their sources say it all, so those hashes stay what they were before the order was
 * kept, and an approval recorded with them still matches.
 */
import { contentHash } from "../../model/index.js";
import type { CamundaActivity, CamundaAgent, CamundaTool } from "./types.js";

/** An element as read, or as a derived agent shows it (without its mappings' order). */
type Read = Omit<CamundaActivity, "inputMappings"> &
  Partial<Pick<CamundaActivity, "inputMappings">>;

/**
 * An agent as read, or a derived agent, whose tools no longer carry their mappings' order (the
 * report derives the workflow again from the decision's data).
 */
export type AgentReading = Omit<CamundaAgent, "tools"> & {
  readonly tools: readonly (Omit<CamundaTool, "inputMappings"> & Read)[];
};

/** True when a later mapping may replace what an earlier one gave. */
function orderDecides(mappings: CamundaActivity["inputMappings"]): boolean {
  const targets = new Set<string>();
  for (const [target] of mappings) {
    if (targets.has(target)) return true;
    targets.add(target);
  }
  // Every dotted prefix of every target: linear in the targets' length.
  for (const target of targets) {
    for (let at = target.indexOf("."); at >= 0; at = target.indexOf(".", at + 1)) {
      if (targets.has(target.slice(0, at))) return true;
    }
  }
  return false;
}

/** The activity as hashed. */
function hashed<T extends Read>(activity: T): Omit<T, "inputMappings"> | T {
  if (orderDecides(activity.inputMappings ?? [])) return activity;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(activity))
    if (key !== "inputMappings") out[key] = value;
  return out as Omit<T, "inputMappings">;
}

/** `sha256:` of what was read for one element (a tool's root). */
export function activityHash(activity: CamundaActivity): string {
  return contentHash(hashed(activity));
}

/** `sha256:` of everything read for the agent, its tools' sub-flows included. */
export function readingHash(agent: AgentReading): string {
  return contentHash({ ...agent, tools: agent.tools.map(hashed), steps: agent.steps.map(hashed) });
}
