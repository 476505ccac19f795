/**
 * What the fixtures give a run: for each attempt of an llm/tool node, a failure (the first
 * `fails` executions) or the output of its visit (`outputs[visit - 1]`, the last repeating).
 */
import type { AgentNode } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { fixtureTable, normalizeFixture } from "./options.js";
import type { Plan } from "./plan.js";
import { lazySamples } from "./sample-input.js";
import { nodeAt } from "./table.js";
import type { JsonObject, NodeFixture } from "./types.js";

/** Where a run finds node `k`'s fixture. */
export type FixtureSource = (plan: Plan, k: number) => NodeFixture | undefined;

/**
 * The fixture source of a run: the caller's fixtures, then, with `sampleOutputs`, the node's
 * placeholder, sampled on first use. @throws TypeError when `fixtures` is not an object or
 * `sampleOutputs` not a boolean.
 */
export function fixtureSource(fixtures: unknown, sampleOutputs: unknown): FixtureSource {
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
  return byIndex(fixtureTable(fixtures), sampleOutputs === true ? sampled : () => undefined);
}

/**
 * The fixtures by node index, each checked and copied when a run first reaches its node, with
 * `fallback` for a node without one. A run of 1,000 steps through a 100,000-node workflow so
 * reads 1,000 fixtures, and a chain through all of them reads each once, in its step: checking
 * and copying every fixture before the run (and listing the keys of a 100,000-key object, which
 * costs more per key the more keys it has) was two thirds of a 100,000-step run. A fixture the
 * run never reaches is never read; `lintSimulationOptions` checks them all. A duplicated id
 * finds the fixture through its first node, as a lookup by id does.
 */
function byIndex(table: Readonly<Record<string, unknown>>, fallback: FixtureSource): FixtureSource {
  let of: Plan | undefined;
  // null: the node has no fixture.
  let found: (NodeFixture | null | undefined)[] = [];
  return (plan, k) => {
    if (of !== plan) {
      of = plan;
      found = [];
    }
    const first = plan.graph.firstOf[k] ?? -1;
    let fixture = found[first];
    if (fixture === undefined) {
      const id = plan.ids[first];
      fixture =
        id !== undefined && Object.hasOwn(table, id) ? normalizeFixture(id, table[id]) : null;
      found[first] = fixture;
    }
    return fixture ?? fallback(plan, k);
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
