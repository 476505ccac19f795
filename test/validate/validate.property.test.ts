/**
 * `validate` never throws and never crashes a rule, whatever graph it is given: random graphs with
 * cycles, self-loops, dangling ids, duplicate ids, odd refs and odd conditions, small and large.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentEdge, AgentNode, AgentWorkflow, Diagnostic } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { createValidator, RULE_CRASHED } from "../../src/validate/index.js";

const CONDITIONS = [
  "output.done = true",
  "output.confidence >= 0.8",
  "output.a >",
  "output.x === 1",
  "count(output.items) > 2",
  "",
  "the answer is complete",
  "output.__proto__ = 1",
  'output.constructor.name = "Object"',
];
const REFS = [
  "tool:x@1.0.0",
  "tool:x@1",
  "x",
  "@1.0.0",
  "tool:x@latest",
  "prm:p@2",
  "agnt-a@1.0.0",
  "constructor@1.0.0",
];

interface Spec {
  readonly n: number;
  readonly kinds: readonly number[];
  readonly edges: readonly (readonly [number, number, number])[];
  readonly routes: readonly (readonly [number, number, number])[];
  readonly picks: readonly number[];
}

function build(spec: Spec): AgentWorkflow {
  const id = (k: number): string =>
    k >= spec.n ? `ghost-${k}` : `n${k % Math.max(1, spec.n - 1)}`;
  const target = (k: number): string => (k % 7 === 0 ? "end" : id(k));
  const pick = <T>(list: readonly T[], k: number): T => list[k % list.length] as T;
  const nodes: AgentNode[] = [];
  for (let i = 0; i < spec.n; i += 1) {
    const kind = spec.kinds[i % spec.kinds.length] ?? 0;
    const p = spec.picks[i % spec.picks.length] ?? 0;
    const nodeId = i % 11 === 10 ? "n0" : `n${i}`; // some duplicate ids
    if (kind % 3 === 0) {
      nodes.push({
        id: nodeId,
        type: "llm",
        config: { model: "m", promptRef: pick(REFS, p), structuredOutput: p % 2 === 0 },
      });
    } else if (kind % 3 === 1) {
      nodes.push({
        id: nodeId,
        type: "tool",
        config: {
          usesTool: pick(REFS, p),
          params: { q: `{{n${p}.output.q}}`, r: "{{input.q}}", s: "{{" },
        },
      });
    } else {
      const [a, b, r] = spec.routes[i % Math.max(1, spec.routes.length)] ?? [0, 0, 0];
      nodes.push({
        id: nodeId,
        type: "decision",
        config: {
          condition: pick(CONDITIONS, p),
          onTrue: { next: target(a) },
          onFalse: r % 2 === 0 ? { next: target(b) } : { next: target(b), maxRetries: r % 4 },
          ...(p % 5 === 0 ? { conditionLanguage: "text" as const } : {}),
        },
        ...(p % 6 === 0
          ? { decorators: [{ type: "planner" as const, strategy: "dynamic" as const }] }
          : {}),
      });
    }
  }
  const edges: AgentEdge[] = spec.edges.map(([a, b, t]) => ({
    from: id(a),
    to: t % 5 === 0 ? pick(REFS, b) : id(b),
    edgeType: t % 5 === 0 ? "delegate" : t % 2 === 0 ? "data" : "toolCall",
  }));
  return {
    kind: "AgentWorkflow",
    id: "agnt-random",
    version: "1.0.0",
    name: "Random",
    autonomyLevel: ((spec.picks[0] ?? 0) % 6) as 0 | 1 | 2 | 3 | 4 | 5,
    inputSchema: (spec.picks[1] ?? 0) % 3 === 0 ? {} : { q: "text" },
    outputSchema: { done: "bool", items: "Item[]" },
    types: { Item: { name: "text", child: "Item" } },
    nodes,
    edges,
  };
}

const specArb = fc.record({
  n: fc.integer({ min: 0, max: 40 }),
  kinds: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  edges: fc.array(fc.tuple(fc.nat(50), fc.nat(50), fc.nat()), { maxLength: 80 }),
  routes: fc.array(fc.tuple(fc.nat(50), fc.nat(50), fc.nat()), { maxLength: 40 }),
  picks: fc.array(fc.nat(), { minLength: 2, maxLength: 40 }),
});

function expectHealthy(diagnostics: readonly Diagnostic[]): void {
  expect(diagnostics.filter((d) => d.code === RULE_CRASHED)).toEqual([]);
  for (const d of diagnostics) {
    expect(d.message).not.toContain("{{");
    expect(d.path === "" || d.path.startsWith("/")).toBe(true);
  }
}

const resolvers = {
  resolveTool: (ref: string) =>
    ref.startsWith("tool:x@1")
      ? {
          kind: "ToolContract",
          id: "tool:x",
          version: "1.0.0",
          name: "X",
          inputSchema: { q: "text" },
          outputSchema: { r: "text" },
          effect: "write-irreversible",
          authorization: "automatic",
        }
      : undefined,
  resolveDelegate: (ref: string) =>
    ref === "agnt-a@1.0.0"
      ? {
          kind: "AgentWorkflow",
          id: "agnt-a",
          version: "1.0.0",
          name: "A",
          autonomyLevel: 5,
          inputSchema: { z: "number" },
          outputSchema: { y: "text" },
          nodes: [],
          edges: [{ from: "x", to: "agnt-random@1.0.0", edgeType: "delegate" }],
        }
      : undefined,
};

describe("validate on random graphs", () => {
  it("never throws and no rule crashes (no resolvers)", () => {
    const validator = createValidator();
    fc.assert(
      fc.property(specArb, (spec) => {
        const wf = build(spec);
        expect(parseWorkflow(wf).workflow).toBeDefined();
        expectHealthy(validator.validateSync(wf));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws and no rule crashes (with resolvers, strict preset)", () => {
    const validator = createValidator({ preset: "strict", resolvers });
    fc.assert(
      fc.property(specArb, (spec) => {
        expectHealthy(validator.validateSync(build(spec)));
      }),
      { numRuns: 300 },
    );
  });

  it("handles a 20,000-node random graph", () => {
    const [spec] = fc.sample(
      fc.record({
        n: fc.constant(20_000),
        kinds: fc.array(fc.nat(), { minLength: 500, maxLength: 500 }),
        edges: fc.array(fc.tuple(fc.nat(20_500), fc.nat(20_500), fc.nat()), {
          minLength: 30_000,
          maxLength: 30_000,
        }),
        routes: fc.array(fc.tuple(fc.nat(20_500), fc.nat(20_500), fc.nat()), {
          minLength: 500,
          maxLength: 500,
        }),
        picks: fc.array(fc.nat(), { minLength: 500, maxLength: 500 }),
      }),
      { numRuns: 1, seed: 42 },
    );
    if (spec === undefined) throw new Error("no sample");
    const diagnostics = createValidator({ resolvers }).validateSync(build(spec));
    expectHealthy(diagnostics);
    expect(diagnostics.length).toBeGreaterThan(100);
  });
});
