/**
 * CYCLE_WITHOUT_STOP against its definition on random small workflows: it reports exactly when
 * some set of nodes is a trap (a cycle through all of them, with no structured decision that can
 * leave it), and every loop it reports is such a trap. Every subset is tried, so graphs stay small.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../../src/model/index.js";
import { createValidator } from "../../../src/validate/index.js";
import { decision, edge, llm, workflow } from "../builders.js";

/** Node kinds: 0 llm, 1 structured decision, 2 decision judging prose. */
interface Spec {
  readonly kinds: readonly number[];
  readonly edges: readonly (readonly [number, number])[];
  readonly routes: readonly (readonly [number, number])[];
}

/** A route target: a node, or "end" for the index one past the last. */
const next = (n: number, k: number): string => (k % (n + 1) === n ? "end" : `n${k % (n + 1)}`);

function build({ kinds, edges, routes }: Spec) {
  const n = kinds.length;
  const nodes: AgentNode[] = kinds.map((kind, i) => {
    const [a, b] = routes[i] ?? [n, n];
    if (kind === 0) return llm(`n${i}`);
    const extra = kind === 2 ? { conditionLanguage: "text" as const } : {};
    const condition = kind === 2 ? "it looks done" : "output.done = true";
    return decision(`n${i}`, condition, next(n, a), next(n, b), extra);
  });
  return workflow(
    nodes,
    edges.map(([a, b]) => edge(`n${a % n}`, `n${b % n}`)),
  );
}

/** The flow successors per node (llm: its edges; decision: its routes), and its exits. */
function flow({ kinds, edges, routes }: Spec) {
  const n = kinds.length;
  const successors = kinds.map((kind, i): number[] => {
    if (kind === 0) return edges.filter(([a]) => a % n === i).map(([, b]) => b % n);
    const [a, b] = routes[i] ?? [n, n];
    return [a % (n + 1), b % (n + 1)].filter((t) => t < n);
  });
  const leaves = kinds.map((kind, i) => {
    const [a, b] = routes[i] ?? [n, n];
    return kind === 1 && (a % (n + 1) === n || b % (n + 1) === n);
  });
  return { successors, leaves };
}

/** Whether `members` is a trap: one cycle through all of them that no stop among them can leave. */
function isTrap(spec: Spec, members: readonly number[]): boolean {
  const { successors, leaves } = flow(spec);
  const inside = (v: number) => members.includes(v);
  if (members.length === 0) return false;
  if (members.some((v) => leaves[v] === true)) return false;
  if (members.some((v) => spec.kinds[v] === 1 && !(successors[v] ?? []).every(inside))) {
    return false;
  }
  const reach = (from: number) => {
    const seen = new Set<number>();
    const stack = (successors[from] ?? []).filter(inside);
    while (stack.length > 0) {
      const w = stack.pop() ?? 0;
      if (seen.has(w)) continue;
      seen.add(w);
      stack.push(...(successors[w] ?? []).filter(inside));
    }
    return seen;
  };
  return members.every((v) => members.every((w) => reach(v).has(w)));
}

function someTrap(spec: Spec): boolean {
  const n = spec.kinds.length;
  for (let set = 1; set < 1 << n; set++) {
    const members = spec.kinds.map((_, v) => v).filter((v) => ((set >> v) & 1) === 1);
    if (isTrap(spec, members)) return true;
  }
  return false;
}

const specArb = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    kinds: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
    edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 2 * n }),
    routes: fc.array(fc.tuple(fc.nat(n), fc.nat(n)), { minLength: n, maxLength: n }),
  }),
);

describe("CYCLE_WITHOUT_STOP", () => {
  const validator = createValidator({ preset: "recommended" });

  it("reports exactly when a trap exists, and only traps", () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const found = validator
          .validateSync(build(spec))
          .filter((d) => d.code === "CYCLE_WITHOUT_STOP");
        expect(found.length > 0).toBe(someTrap(spec));
        for (const d of found) {
          const members = (d.data.members as string[]).map((id) => Number(id.slice(1)));
          expect(isTrap(spec, members), JSON.stringify(d.data)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
