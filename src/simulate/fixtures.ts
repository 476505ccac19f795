/**
 * What the fixtures give a run: for each attempt of an llm/tool node, a failure (the first
 * `fails` executions) or the output of its visit (`outputs[visit - 1]`, the last repeating).
 */
import type { AgentNode } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { checkedFixture, fixtureTable, usedOutput } from "./options.js";
import type { Plan } from "./plan.js";
import { lazySamples } from "./sample-input.js";
import { executionsAt, lastAt, visitsAt, type NodeTable } from "./table.js";
import type { JsonObject, NodeFixture } from "./types.js";

/** Where a run finds its nodes' fixtures and outputs. */
export interface FixtureSource {
  /** Node `k`'s fixture: the caller's (checked), a placeholder, or none. */
  readonly of: (plan: Plan, k: number) => NodeFixture | undefined;
  /**
   * The output `fixture` (what {@link FixtureSource.of} gave for node `k`) gives the node's
   * current visit in `table`: `outputs[visit - 1]`, the last repeating, `{}` when it has none.
   * A caller's output is used as it is when it is plain JSON data, else copied (`usedOutput`).
   */
  readonly output: (
    plan: Plan,
    k: number,
    fixture: NodeFixture | undefined,
    table: NodeTable,
  ) => JsonObject;
}

/**
 * The fixture source of a run: the caller's fixtures, then, with `sampleOutputs`, the node's
 * placeholder, sampled on first use. Every fixture's shape is checked here, before the run (an
 * object, `outputs` an array of objects, `fails` a count), so that a fixture written wrong is
 * refused at once and by name whether or not the run reaches its node; an output the run uses
 * is checked then (`usedOutput`). @throws TypeError when `fixtures` or one of them is not of that shape,
 * or `sampleOutputs` not a boolean.
 */
export function fixtureSource(fixtures: unknown, sampleOutputs: unknown): FixtureSource {
  if (sampleOutputs !== undefined && typeof sampleOutputs !== "boolean") {
    throw new TypeError("sampleOutputs must be a boolean");
  }
  let samples: ((node: AgentNode) => NodeFixture | undefined) | undefined;
  // By node index, for the source's plan: explore's runs ask for the same nodes' placeholders.
  let sampledFor: Plan | undefined;
  let byNode: (NodeFixture | null | undefined)[] = [];
  const sampled = (plan: Plan, k: number): NodeFixture | undefined => {
    if (sampledFor !== plan) {
      sampledFor = plan;
      samples = lazySamples(plan.wf);
      byNode = [];
    }
    let fixture = byNode[k];
    if (fixture === undefined) {
      const node = plan.graph.nodes[k];
      fixture = (node === undefined ? undefined : samples?.(node)) ?? null;
      byNode[k] = fixture;
    }
    return fixture ?? undefined;
  };
  const table = fixtureTable(fixtures);
  for (const id of Object.keys(table)) checkedFixture(id, table[id]);
  return byIndex(table, sampleOutputs === true ? sampled : () => undefined);
}

/**
 * The caller's fixtures (checked) by node index, each looked up when a run first reaches its node
 * (the runs of one source, explore's, share the lookups), with `fallback` for a node without one.
 * A run of 1,000 steps through a 100,000-node workflow so reads the outputs of 1,000 fixtures,
 * and a chain through all of them reads each in its step: copying every fixture before the run
 * (a JSON round trip of every output and a table of the copies) was more than half of a
 * 100,000-step run, and the copy of each fixture (a wrapper and an array, some 80 bytes a node)
 * stayed alive to the run's end. A duplicated id finds the fixture through its first node, as a
 * lookup by id does.
 *
 * Outputs are checked as a run uses them, and used as they are when they are plain JSON data:
 * the run never writes them, and a copy of each (some 60 bytes for a one-field output) was an
 * object per step that a long run's collections moved. Visit `v` uses `outputs[v - 1]`, so each
 * output is used once in a run except the last, which repeats: a repeat takes the node's last
 * output, the one its previous visit accepted, instead of checking it again.
 */
function byIndex(
  table: Readonly<Record<string, unknown>>,
  fallback: FixtureSource["of"],
): FixtureSource {
  let of: Plan | undefined;
  // The caller's fixture of each node; null: the node has none.
  let found: (NodeFixture | null | undefined)[] = [];
  return {
    of: (plan, k) => {
      if (of !== plan) {
        of = plan;
        found = [];
      }
      const first = plan.graph.firstOf[k] ?? -1;
      let fixture = found[first];
      if (fixture === undefined) {
        const id = plan.ids[first];
        // Checked with the others when the source was made.
        fixture = id !== undefined && Object.hasOwn(table, id) ? (table[id] as NodeFixture) : null;
        found[first] = fixture;
      }
      return fixture ?? fallback(plan, k);
    },
    output: (plan, k, fixture, counters) => {
      const outputs = fixture?.outputs ?? [];
      const visit = visitsAt(counters, k);
      const i = Math.min(visit, outputs.length) - 1;
      if (i < 0) return {};
      // A placeholder is the simulator's own: used as it is.
      const first = plan.graph.firstOf[k] ?? -1;
      if (of !== plan || fixture === undefined || found[first] !== fixture) {
        return outputs[i] ?? {};
      }
      if (visit > outputs.length) {
        const previous = lastAt(counters, k);
        if (previous !== null) return previous;
      }
      return usedOutput(plan.ids[first] ?? "", outputs[i], i);
    },
  };
}

/** The error of the current attempt of node `k` when `fixture` makes it fail. */
export function fixtureFailure(
  fixture: NodeFixture | undefined,
  ctx: FlowContext,
  k: number,
): string | undefined {
  const execution = executionsAt(ctx.nodes, k);
  const fails = fixture?.fails ?? 0;
  return execution <= fails ? `fixture failure ${execution} of ${fails}` : undefined;
}
