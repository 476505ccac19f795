/**
 * What the fixtures give a run: for each attempt of an llm/tool node, a failure (the first
 * `fails` executions) or the output of its visit (`outputs[visit - 1]`, the last repeating).
 */
import type { AgentNode } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { own } from "./options.js";
import type { Plan } from "./plan.js";
import { lazySamples } from "./sample-input.js";
import { nodeAt } from "./table.js";
import type { Fixtures, JsonObject, NodeFixture } from "./types.js";

/** Where a run finds node `k`'s fixture. */
export type FixtureSource = (plan: Plan, k: number) => NodeFixture | undefined;

/**
 * The fixture source of a run: the checked fixtures, then, with `sampleOutputs`, the node's
 * placeholder, sampled on first use.
 */
export function fixtureSource(fixtures: Fixtures, sampleOutputs: unknown): FixtureSource {
  if (sampleOutputs !== undefined && typeof sampleOutputs !== "boolean") {
    throw new TypeError("sampleOutputs must be a boolean");
  }
  if (sampleOutputs !== true) return (plan, k) => own(fixtures, plan.ids[k] ?? "");
  let samples: ((node: AgentNode) => NodeFixture | undefined) | undefined;
  return (plan, k) => {
    const fixture = own(fixtures, plan.ids[k] ?? "");
    const node = plan.graph.nodes[k];
    if (fixture !== undefined || node === undefined) return fixture;
    samples ??= lazySamples(plan.wf);
    return samples(node);
  };
}

/** The error of the current attempt of node `k` when `fixture` makes it fail. */
export function fixtureFailure(
  fixture: NodeFixture | undefined,
  ctx: FlowContext,
  k: number,
): string | undefined {
  const execution = nodeAt(ctx.nodes, k).executions;
  const fails = fixture?.fails ?? 0;
  return execution <= fails ? `fixture failure ${execution} of ${fails}` : undefined;
}

/** The output `fixture` gives the current visit of node `k` (`{}` when it has none). */
export function fixtureOutput(
  fixture: NodeFixture | undefined,
  ctx: FlowContext,
  k: number,
): JsonObject {
  const outputs = fixture?.outputs ?? [];
  return outputs[Math.min(nodeAt(ctx.nodes, k).visits, outputs.length) - 1] ?? {};
}
