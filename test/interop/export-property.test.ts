/**
 * The three graph exports (agent2model, langgraph-graph, langgraph-gen) on random workflows:
 * never a throw, only well-formed declared warnings, a plain-JSON document that its own format
 * (and no format before it in the registry) claims and imports, and import ∘ export a fixed
 * point of what an import returns (the round trip of the contract suite, on graphs no fixture
 * has: cycles, fan-outs, decision chains, odd names).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Format } from "../../src/interop/index.js";
import {
  agent2Model,
  detectFormat,
  langGraphGen,
  langGraphGraph,
} from "../../src/interop/index.js";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";

const NAMES = [undefined, "a b", "search_tool", "x", "Step", "__proto__", "1", "n0"];

const spec = fc.record({
  n: fc.integer({ min: 1, max: 8 }),
  kinds: fc.array(fc.nat(2), { minLength: 1, maxLength: 8 }),
  names: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 8 }),
  routes: fc.array(fc.tuple(fc.nat(9), fc.nat(9), fc.nat(5), fc.nat(3)), {
    minLength: 1,
    maxLength: 8,
  }),
  edges: fc.array(fc.tuple(fc.nat(9), fc.nat(9), fc.nat(4)), { maxLength: 12 }),
});

type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

/** A workflow from a spec: any mix of node types, routes to nodes or end, any edges. */
function build(s: Spec): AgentWorkflow {
  const ids = Array.from({ length: s.n }, (_, i) => `n${String(i)}`);
  const target = (k: number): string => ids[k] ?? "end";
  const nodes = ids.map((id, i): AgentNode => {
    const name = s.names[i % s.names.length];
    const named = name === undefined ? {} : { name };
    const kind = s.kinds[i % s.kinds.length] ?? 0;
    if (kind === 0)
      return { id, type: "llm", ...named, config: { model: "m", promptRef: "prm:p@1.0.0" } };
    if (kind === 1) return { id, type: "tool", ...named, config: { usesTool: "tool:t@1.0.0" } };
    const [a, b, c, m] = s.routes[i % s.routes.length] ?? [0, 0, 0, 0];
    if (m === 0)
      return {
        id,
        type: "decision",
        ...named,
        config: {
          condition: "output.x = 1",
          onTrue: { next: target(a) },
          onFalse: { next: target(b), ...(c === 0 ? { maxRetries: 2 } : {}) },
        },
      };
    const cases = Array.from({ length: m - 1 }, (_, k) => ({
      condition: `case ${String(k)}`,
      next: target((a + k * c) % 10),
    }));
    const config = { conditionLanguage: "text" as const, cases, otherwise: { next: target(b) } };
    return { id, type: "decision", ...named, config };
  });
  const edges = s.edges.flatMap(([a, b, t]): AgentEdge[] => {
    const from = ids[a];
    const to = ids[b];
    if (from === undefined || to === undefined) return [];
    if (t === 0) return [{ from, to: "agnt-x@1.0.0", edgeType: "delegate" }];
    if (t === 1) return [{ from, to, edgeType: "toolCall" }];
    return [{ from, to, edgeType: "data", ...(t === 2 ? { when: "label" } : {}) }];
  });
  return {
    kind: "AgentWorkflow",
    id: "wf",
    version: "1.0.0",
    name: "wf",
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes,
    edges,
  };
}

describe.each([agent2Model, langGraphGraph, langGraphGen].map((f): [string, Format] => [f.id, f]))(
  "export to %s",
  (_id, format) => {
    const exportOf = (wf: AgentWorkflow): ReturnType<NonNullable<Format["export"]>> => {
      if (format.export === undefined) throw new Error("no export");
      return format.export(wf);
    };

    it("declares, never throws; re-imports; import ∘ export is a fixed point", () => {
      fc.assert(
        fc.property(spec, (s) => {
          const wf = parseWorkflow(build(s)).workflow;
          if (wf === undefined) return;
          const { document, warnings } = exportOf(wf);
          for (const w of warnings) {
            expect(["NOT_EXPORTABLE", "HEURISTIC"]).toContain(w.code);
            expect(w.path === "" || w.path.startsWith("/")).toBe(true);
          }
          expect(JSON.parse(JSON.stringify(document))).toStrictEqual(document);
          expect(format.detect(document)).toBe(true);
          expect(detectFormat(document)).toBe(format);
          const first = format.import(document).workflow;
          const again = format.import(exportOf(first).document).workflow;
          expect(again).toStrictEqual(first);
        }),
        { numRuns: 200 },
      );
    });
  },
);
