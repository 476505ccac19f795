/**
 * The Camunda fixtures (test/fixtures/camunda/, drawn for agentflow) and how to evaluate them:
 * read with and without zeebe-bpmn-moddle, since agentflow must read both the typed and the
 * generic form of the `zeebe:` elements.
 */
import { readFileSync } from "node:fs";
import type { GateDecision, GateOptions } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import { ZEEBE_MODDLE } from "../builders.js";

/** The fixture's text. */
export function fixture(name: string): string {
  // From the repository root (the tests' working directory): happy-dom rewrites import.meta.url.
  return readFileSync(`test/fixtures/camunda/${name}`, "utf8");
}

/** The two ways a host reads Camunda XML. */
export const READINGS = [
  ["generic zeebe elements", {}],
  ["zeebe-bpmn-moddle registered", { moddleExtensions: ZEEBE_MODDLE }],
] as const;

/** `checkProcess` on a fixture. */
export async function check(
  name: string,
  options: GateOptions & { moddleExtensions?: typeof ZEEBE_MODDLE } = {},
): Promise<GateDecision> {
  return checkProcess(fixture(name), options);
}

/** The one derived agent of a decision. */
export function derivedOf(decision: GateDecision, elementId = "Agent") {
  const task = decision.agentTasks.find((t) => t.elementId === elementId);
  if (task?.derived === undefined) throw new Error(`no derived agent ${elementId}`);
  return { task, derived: task.derived };
}

/** Each tool as `id: effect (source, key)`. */
export function effects(decision: GateDecision, elementId = "Agent"): string[] {
  return derivedOf(decision, elementId).derived.tools.map(
    (t) =>
      `${t.id}: ${t.effect ?? "unknown"} (${t.effectSource}${t.effectKey === undefined ? "" : `, ${t.effectKey}`})`,
  );
}
