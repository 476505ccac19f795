/**
 * Random structurally valid workflows for property tests: a `Spec` of numbers fast-check draws,
 * and the workflow, fixtures and decide table built from it.
 */
import fc from "fast-check";
import type { AgentEdge, AgentNode, AgentWorkflow, Decorator } from "../../src/model/index.js";
import type { DecideTable, Fixtures, JsonObject } from "../../src/simulate/index.js";

const CONDITIONS = [
  "output.done = true",
  "output.n > 2",
  "output.n + 1 = 3",
  'output.kind = "a"',
  "output.a = 1 and output.b = 2",
  "output.missing.deep = 1",
];

/** The numbers a random workflow is built from (indices wrap around their lists). */
export interface Spec {
  readonly n: number;
  readonly kinds: readonly number[];
  readonly edges: readonly (readonly [number, number])[];
  readonly routes: readonly (readonly [number, number, number])[];
  readonly picks: readonly number[];
  readonly outputs: readonly (readonly JsonObject[])[];
  readonly fails: readonly number[];
  readonly decide: readonly (readonly number[])[];
  readonly maxSteps: number;
}

const at = <T>(list: readonly T[], k: number, fallback: T): T =>
  list[k % Math.max(1, list.length)] ?? fallback;

/** A workflow that parses: unique ids, endpoints that exist, routes to a node or "end". */
export function build(spec: Spec): AgentWorkflow {
  const id = (k: number) => `n${k % spec.n}`;
  const target = (k: number) => (k % 4 === 0 ? "end" : id(k));
  const nodes: AgentNode[] = [];
  for (let i = 0; i < spec.n; i++) {
    const kind = at(spec.kinds, i, 0) % 3;
    const p = at(spec.picks, i, 0);
    const decorators: Decorator[] =
      p % 3 === 0
        ? [
            {
              type: "errorBoundary",
              maxRetries: p % 4,
              backoff: p % 2 === 0 ? "fixed" : "exponential",
            },
          ]
        : [];
    if (p % 5 === 0) decorators.push({ type: "memory", scope: "short" });
    const decorated = decorators.length > 0 ? { decorators } : {};
    if (kind === 0) {
      nodes.push({
        id: `n${i}`,
        type: "llm",
        config: {
          model: "m",
          promptRef: "prm:p@1.0.0",
          ...(p % 7 === 0 ? { outputSchema: { done: "bool", "n?": "number" } } : {}),
          ...(p % 2 === 0 ? { maxOutputTokens: 100 } : {}),
        },
        ...decorated,
      });
    } else if (kind === 1) {
      const params = { q: p % 2 === 0 ? `{{${id(p)}.output.n}}` : "{{input.q}}", r: "plain" };
      nodes.push({
        id: `n${i}`,
        type: "tool",
        config: { usesTool: "tool:x@1.0.0", params },
        ...decorated,
      });
    } else {
      const [a, b, r] = at(spec.routes, i, [0, 0, 0] as const);
      const retry = r % 3 === 0 ? {} : { maxRetries: r % 4 };
      const config =
        p % 4 === 0
          ? {
              cases: [{ condition: at(CONDITIONS, p, ""), next: target(a), ...retry }],
              otherwise: { next: target(b) },
            }
          : {
              condition: at(CONDITIONS, p, ""),
              onTrue: { next: target(a), ...retry },
              onFalse: { next: target(b), ...retry },
              ...(p % 5 === 0 ? { conditionLanguage: "text" as const } : {}),
            };
      nodes.push({ id: `n${i}`, type: "decision", config });
    }
  }
  const edges: AgentEdge[] = spec.edges.map(([a, b]) => ({
    from: id(a),
    to: id(b),
    edgeType: "data",
  }));
  return {
    kind: "AgentWorkflow",
    id: "agnt-random",
    version: "1.0.0",
    name: "Random",
    autonomyLevel: 3,
    inputSchema: { q: "text" },
    outputSchema: at(spec.picks, 1, 0) % 2 === 0 ? { "done?": "bool" } : { done: "bool" },
    nodes,
    edges,
  };
}

/** The fixtures of a spec: every node's outputs and number of failures. */
export function fixturesOf(spec: Spec): Fixtures {
  const out: Record<string, { outputs: readonly JsonObject[]; fails: number }> = {};
  for (let i = 0; i < spec.n; i++) {
    out[`n${i}`] = { outputs: at(spec.outputs, i, []), fails: at(spec.fails, i, 0) };
  }
  return out;
}

/** The forced routes of a spec, some of them labels no decision has. */
export function decideOf(spec: Spec): DecideTable {
  const labels = ["onTrue", "onFalse", "cases/0", "otherwise", "bogus"];
  const out: Record<string, string[]> = {};
  spec.decide.forEach((list, i) => {
    out[`n${i % spec.n}`] = list.map((k) => at(labels, k, "onTrue"));
  });
  return out;
}

const outputArb = fc.record(
  {
    done: fc.boolean(),
    n: fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constant("2")),
    kind: fc.constantFrom("a", "b"),
  },
  { requiredKeys: [] },
);

/** Random specs: up to 12 nodes, 24 edges, 3 outputs per node, maxSteps up to 60. */
export const specArb = fc.record({
  n: fc.integer({ min: 1, max: 12 }),
  kinds: fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
  edges: fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { maxLength: 24 }),
  routes: fc.array(fc.tuple(fc.nat(20), fc.nat(20), fc.nat()), { maxLength: 12 }),
  picks: fc.array(fc.nat(), { minLength: 2, maxLength: 12 }),
  outputs: fc.array(fc.array(outputArb, { maxLength: 3 }), { maxLength: 12 }),
  fails: fc.array(fc.nat(4), { maxLength: 12 }),
  decide: fc.array(fc.array(fc.nat(6), { maxLength: 3 }), { maxLength: 4 }),
  maxSteps: fc.integer({ min: 0, max: 60 }),
});
