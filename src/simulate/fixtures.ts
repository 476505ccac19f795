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
  let samples: ((node: AgentNode) => NodeFixture | undefined) | undefined;
  const sampled = (plan: Plan, k: number): NodeFixture | undefined => {
    const node = plan.graph.nodes[k];
    if (node === undefined) return undefined;
    samples ??= lazySamples(plan.wf);
    return samples(node);
  };
  return byIndex(fixtures, sampleOutputs === true ? sampled : () => undefined);
}

/**
 * The fixtures by node index, with `fallback` for a node without one. Each fixture's id is looked
 * up once per plan, and a node's fixture is then an array read: looking every executed node's id
 * up in the fixtures object was a tenth of a 5,000-step run. A duplicated id finds the fixture
 * through its first node, as a lookup by id does.
 */
function byIndex(fixtures: Fixtures, fallback: FixtureSource): FixtureSource {
  let of: Plan | undefined;
  let found: (NodeFixture | undefined)[] = [];
  return (plan, k) => {
    if (of !== plan) {
      of = plan;
      found = [];
      for (const id of Object.keys(fixtures)) {
        const first = plan.graph.index.get(id);
        if (first !== undefined) found[first] = own(fixtures, id);
      }
    }
    return found[plan.graph.firstOf[k] ?? -1] ?? fallback(plan, k);
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
