import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentEdge, AgentNode, DecisionNode } from "../../../src/model/index.js";
import { adjacencyToLists, flowGraph } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/TEMPLATE_UNRESOLVABLE.js";
import { upstreamAnswers } from "../../../src/model/index.js";
import type { ExpectedError } from "../../../src/testing/index.js";
import { decision, edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const call = (id: string, params: Readonly<Record<string, unknown>>) =>
  tool(id, "tool:search@1.0.0", { params });
/** a → t: the tool reads whatever `params` say. */
const afterA = (params: Readonly<Record<string, unknown>>) =>
  workflow([llm("a"), call("t", params)], [edge("a", "t")]);
const err = (
  nodeId: string,
  path: string,
  data: Readonly<Record<string, unknown>>,
): ExpectedError => ({
  code: "TEMPLATE_UNRESOLVABLE",
  target: { kind: "node", nodeId },
  path,
  data: { nodeId, ...data },
});

/** A decision that routes to two branches of 40 llm nodes, each ending in a tool node. */
function branches(): { nodes: AgentNode[]; edges: AgentEdge[]; errors: ExpectedError[] } {
  const n = 40;
  const ids = (p: string) => Array.from({ length: n }, (_, k) => `${p}${k}`);
  const reads = (p: string) =>
    Object.fromEntries(
      ids(p)
        .slice(0, n - 1)
        .map((id) => [id, `{{${id}.output.v}}`]),
    );
  const d: DecisionNode = {
    id: "d",
    type: "decision",
    config: {
      cases: [
        { condition: 'output.way = "x"', next: "x0" },
        { condition: 'output.way = "y"', next: "y0" },
      ],
      otherwise: { next: "end" },
    },
  };
  const chain = (p: string): AgentEdge[] => [
    ...ids(p)
      .slice(1)
      .map((id, k) => edge(`${p}${k}`, id)),
    edge(`${p}${n - 1}`, `t${p}`),
  ];
  const nodes: AgentNode[] = [
    llm("a"),
    d,
    ...ids("x").map((id) => llm(id)),
    call("tx", { ...reads("x"), ...reads("y") }),
    ...ids("y").map((id) => llm(id)),
    call("ty", { ...reads("y"), ...reads("x") }),
  ];
  const txIndex = n + 2;
  const tyIndex = 2 * n + 3;
  const errors = [
    ...ids("y")
      .slice(0, n - 1)
      .map((ref) =>
        err("tx", `/nodes/${txIndex}/config/params/${ref}`, { ref, reason: "not-upstream" }),
      ),
    ...ids("x")
      .slice(0, n - 1)
      .map((ref) =>
        err("ty", `/nodes/${tyIndex}/config/params/${ref}`, { ref, reason: "not-upstream" }),
      ),
  ];
  return { nodes, edges: [edge("a", "d"), ...chain("x"), ...chain("y")], errors };
}
const big = branches();

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no params", workflow: workflow([llm("a"), tool("t")], [edge("a", "t")]) },
    {
      name: "plain text and braces that are not templates",
      workflow: afterA({ q: "a { b } c }}", n: 3 }),
    },
    { name: "a direct predecessor", workflow: afterA({ q: "{{a.output.query}}" }) },
    { name: "whitespace inside the braces", workflow: afterA({ q: "{{ a.output.query }}" }) },
    {
      name: "several templates in one string, in nested objects and arrays",
      workflow: afterA({
        q: "find {{a.output.x}} near {{a.output.y.z}}",
        o: { l: ["{{a.output.w}}", 1, null] },
      }),
    },
    {
      name: "a transitive upstream node",
      workflow: workflow(
        [llm("a"), llm("b"), call("t", { q: "{{a.output.q}}" })],
        [edge("a", "b"), edge("b", "t")],
      ),
    },
    {
      name: "an upstream tool node",
      workflow: workflow(
        [llm("a"), call("s", { q: "x" }), call("t", { q: "{{s.output.results}}" })],
        [edge("a", "s"), edge("s", "t")],
      ),
    },
    {
      name: "a node in the same loop, later in the document",
      workflow: workflow(
        [
          llm("a"),
          call("t", { q: "{{b.output.q}}" }),
          llm("b"),
          decision("d", "output.done = true", "end", { next: "t", maxRetries: 2 }),
        ],
        [edge("a", "t"), edge("t", "b"), edge("b", "d")],
      ),
    },
    {
      name: "a tool reading its own output in a loop",
      workflow: workflow(
        [
          llm("a"),
          call("t", { q: "{{t.output.next}}" }),
          decision("d", "output.done = true", "end", { next: "t", maxRetries: 2 }),
        ],
        [edge("a", "t"), edge("t", "d")],
      ),
    },
    {
      name: "the workflow input, required and optional fields",
      workflow: afterA({
        q: "{{input.query}}",
        l: "{{input.limit}}",
        deep: "{{input.query.text}}",
      }),
    },
    {
      name: "node ids with dots",
      workflow: workflow(
        [llm("step.1"), call("t", { q: "{{step.1.output.q}}" })],
        [edge("step.1", "t")],
      ),
    },
    {
      name: "a node named input wins over the workflow input",
      workflow: workflow(
        [llm("input"), call("t", { q: "{{input.output.q}}" })],
        [edge("input", "t")],
      ),
    },
    {
      name: "a __proto__ key in params is plain data",
      workflow: afterA(JSON.parse('{"__proto__": "{{a.output.q}}"}') as Record<string, unknown>),
    },
  ].map((c) =>
    c.name.startsWith("the workflow input")
      ? { ...c, workflow: { ...c.workflow, inputSchema: { query: "text", "limit?": "integer" } } }
      : c,
  ),
  invalid: [
    {
      name: "a node that does not exist",
      workflow: afterA({ q: "{{plan.output.query}}" }),
      errors: [
        err("t", "/nodes/1/config/params/q", {
          template: "{{plan.output.query}}",
          expression: "plan.output.query",
          ref: "plan",
          reason: "unknown-node",
        }),
      ],
    },
    {
      name: "a node that runs after the tool",
      workflow: workflow(
        [llm("a"), call("t", { q: "{{b.output.q}}" }), llm("b")],
        [edge("a", "t"), edge("t", "b")],
      ),
      errors: [err("t", "/nodes/1/config/params/q", { ref: "b", reason: "not-upstream" })],
    },
    {
      name: "a tool reading its own output without a loop",
      workflow: afterA({ q: "{{t.output.q}}" }),
      errors: [err("t", "/nodes/1/config/params/q", { ref: "t", reason: "not-upstream" })],
    },
    {
      name: "a node on another branch",
      workflow: workflow(
        [
          llm("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "output.x = 1", next: "b" },
                { condition: "output.x = 2", next: "c" },
              ],
              otherwise: { next: "end" },
            },
          },
          llm("b"),
          llm("c"),
          call("t", { q: "{{b.output.q}}", r: "{{c.output.r}}" }),
        ],
        [edge("a", "d"), edge("c", "t")],
      ),
      errors: [err("t", "/nodes/4/config/params/q", { ref: "b", reason: "not-upstream" })],
    },
    {
      name: "a decision has no output",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.ok = true", "t", "end"),
          call("t", { q: "{{d.output.ok}}" }),
        ],
        [edge("a", "d")],
      ),
      errors: [err("t", "/nodes/2/config/params/q", { ref: "d", reason: "decision" })],
    },
    {
      name: "a field the workflow input does not declare",
      workflow: afterA({ q: "{{input.question}}", ok: "{{input.q}}" }),
      errors: [
        err("t", "/nodes/1/config/params/q", { ref: "question", reason: "unknown-input-field" }),
      ],
    },
    ...(
      [
        ["{{}}", "empty", ""],
        ["{{   }}", "empty", ""],
        ["{{a}}", "no-output", "a"],
        ["{{a.output}}", "no-output", "a.output"],
        ["{{a.result.x}}", "no-output", "a.result.x"],
        ["{{a.output.}}", "empty-path", "a.output."],
        ["{{a.output.x..y}}", "empty-path", "a.output.x..y"],
        ["{{.output.x}}", "empty-node", ".output.x"],
        ["{{input.}}", "empty-path", "input."],
        ["see {{a.output.x", "unterminated", "a.output.x"],
      ] as const
    ).map(([text, reason, ref]) => ({
      name: `malformed: ${text} (${reason})`,
      workflow: afterA({ q: text }),
      errors: [
        err("t", "/nodes/1/config/params/q", {
          template: text.slice(text.indexOf("{{")),
          ref,
          reason,
        }),
      ],
    })),
    {
      name: "each bad template of a string, nested, with escaped pointer tokens",
      workflow: afterA({
        "a/b": { "c~d": ["ok", "{{x.output.y}} and {{a.output.z}} and {{z.output.w}}"] },
      }),
      errors: [
        err("t", "/nodes/1/config/params/a~1b/c~0d/1", { ref: "x", reason: "unknown-node" }),
        err("t", "/nodes/1/config/params/a~1b/c~0d/1", { ref: "z", reason: "unknown-node" }),
      ],
    },
    {
      name: "a later duplicate of the tool has no flow, so nothing is upstream of it",
      workflow: workflow(
        [llm("a"), call("t", { q: "{{a.output.q}}" }), call("t", { q: "{{a.output.q}}" })],
        [edge("a", "t")],
      ),
      errors: [err("t", "/nodes/2/config/params/q", { ref: "a", reason: "not-upstream" })],
    },
    {
      name: "78 far references across two branches (more than 32 distinct sources)",
      workflow: workflow(big.nodes, big.edges),
      errors: big.errors,
    },
  ],
});

/** Upstream answers, checked against a search per query on random graphs (loops and joins). */
describe("upstreamAnswers", () => {
  const naive = (successors: readonly (readonly number[])[], source: number, target: number) => {
    const seen = new Set<number>();
    const queue = [...(successors[source] ?? [])];
    for (const v of queue) {
      if (v === target) return 1;
      if (seen.has(v)) continue;
      seen.add(v);
      queue.push(...(successors[v] ?? []));
    }
    return 0;
  };
  const arbitraryGraph = fc.integer({ min: 1, max: 60 }).chain((n) =>
    fc.record({
      n: fc.constant(n),
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: n * 2 }),
      queries: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { minLength: 1, maxLength: 120 }),
    }),
  );
  it("matches a search per query", () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ n, edges, queries }) => {
        const ids = Array.from({ length: n }, (_, k) => `n${k}`);
        const wf = workflow(
          ids.map((id) => llm(id)),
          edges.map(([a, b]) => edge(`n${a}`, `n${b}`)),
        );
        const graph = flowGraph(wf);
        // Grouped by target, as the rule asks them, and also interleaved.
        const pairs = queries.map(([source, target]) => ({ source, target }));
        for (const list of [pairs, [...pairs].sort((x, y) => x.target - y.target)]) {
          const answers = upstreamAnswers(graph, list);
          list.forEach(({ source, target }, q) => {
            expect(answers[q]).toBe(naive(adjacencyToLists(graph.successors), source, target));
          });
        }
      }),
      { numRuns: 300 },
    );
  });
  it("settles many unsettled sources across several dataflow chunks", () => {
    // a fans out to b0..b79, which all join at j; j → t. Every b is upstream of t, but only b0
    // is t's DFS-tree ancestor, and none is its direct predecessor.
    const bs = Array.from({ length: 80 }, (_, k) => `b${k}`);
    const wf = workflow(
      [llm("a"), ...bs.map((b) => llm(b)), llm("j"), llm("t"), llm("z")],
      [...bs.flatMap((b) => [edge("a", b), edge(b, "j")]), edge("j", "t"), edge("a", "z")],
    );
    const graph = flowGraph(wf);
    const index = (id: string) => graph.index.get(id) ?? -1;
    const queries = [...bs, "z"].map((b) => ({ source: index(b), target: index("t") }));
    expect([...upstreamAnswers(graph, queries)]).toEqual([...bs.map(() => 1), 0]);
  });
});
