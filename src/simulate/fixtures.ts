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
 * placeholder, sampled on first use. Every fixture's shape is checked before the first run (an
 * object, `outputs` an array of objects, `fails` a count), so that a fixture written wrong is
 * refused at once and by name whether or not the run reaches its node; an output the run uses
 * is checked then (`usedOutput`). @throws TypeError when `fixtures` or one of them is not of
 * that shape, or `sampleOutputs` not a boolean.
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
  return byIndex(checkedTable(fixtures), sampleOutputs === true ? sampled : () => undefined);
}

/** A fixtures object as runs read it: its fixtures, checked, and their pairings with nodes. */
interface CheckedTable {
  readonly ids: readonly string[];
  /** `ids[i]`'s fixture, checked. */
  readonly checked: readonly NodeFixture[];
  /** The fixture of each node (by its first index) of a plan, made when a run first needs it. */
  readonly pairings: WeakMap<Plan, (NodeFixture | undefined)[]>;
}

const NO_FIXTURES: CheckedTable = { ids: [], checked: [], pairings: new WeakMap() };

/**
 * What runs have read of each fixtures object. Listing a fixtures object's keys and checking
 * each fixture was a quarter of a warm 5,000-step run; it is done once per object instead, so
 * a fixtures object must not gain, lose or replace a node's fixture once a run has read it (the
 * fixtures' `outputs` and `fails` are read, and outputs checked, as each run uses them).
 */
const readTables = new WeakMap<object, CheckedTable>();

/** {@link CheckedTable} of `fixtures`, read once per object. @throws TypeError as `fixtureSource`. */
function checkedTable(fixtures: unknown): CheckedTable {
  if (fixtures === undefined) return NO_FIXTURES;
  const hit =
    typeof fixtures === "object" && fixtures !== null ? readTables.get(fixtures) : undefined;
  if (hit !== undefined) return hit;
  const table = fixtureTable(fixtures);
  const ids = Object.keys(table);
  const checked = ids.map((id) => checkedFixture(id, table[id]));
  const read: CheckedTable = { ids, checked, pairings: new WeakMap() };
  readTables.set(table, read);
  return read;
}

/**
 * The caller's fixtures (checked) by node index, paired with the nodes of a plan when a run
 * first asks for one (the runs of one fixtures object share the pairing), with `fallback` for a
 * node without one.
 *
 * Outputs are checked as a run uses them, and used as they are when they are plain JSON data:
 * the run never writes them, and a copy of each (some 60 bytes for a one-field output) was an
 * object per step that a long run's collections moved. Copying every fixture before the run (a
 * JSON round trip of every output and a table of the copies) was more than half of a
 * 100,000-step run. Visit `v` uses `outputs[v - 1]`, so each output is used once in a run except
 * the last, which repeats: a repeat takes the node's last output, the one its previous visit
 * accepted, instead of checking it again.
 */
function byIndex(table: CheckedTable, fallback: FixtureSource["of"]): FixtureSource {
  let of: Plan | undefined;
  // The caller's fixture of each node (by its first index); undefined: the node has none.
  let found: (NodeFixture | undefined)[] = [];
  return {
    of: (plan, k) => {
      if (of !== plan) {
        of = plan;
        found = pairingOf(table, plan);
      }
      return found[plan.graph.firstOf[k] ?? -1] ?? fallback(plan, k);
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

/**
 * The fixtures of `table` by the index of their node's first occurrence in `plan`, made once per
 * plan. Fixtures are written in node order more often than not, so an id is first compared with
 * the node after the one the previous id matched, and looked up in the graph's index only when
 * that is not it: a lookup by id, in the caller's object or the index, reads a hash table the size
 * of the workflow, and at 100,000 nodes nearly every such read missed the cache. A duplicated id
 * pairs with its first node, as a lookup by id does.
 */
function pairingOf(table: CheckedTable, plan: Plan): (NodeFixture | undefined)[] {
  const hit = table.pairings.get(plan);
  if (hit !== undefined) return hit;
  const { ids, checked } = table;
  const graph = plan.graph;
  const found: (NodeFixture | undefined)[] = new Array<NodeFixture | undefined>(plan.ids.length);
  let next = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? "";
    const k = plan.ids[next] === id ? next : graph.index.get(id);
    if (k === undefined) continue;
    found[graph.firstOf[k] ?? k] = checked[i];
    next = k + 1;
  }
  table.pairings.set(plan, found);
  return found;
}
