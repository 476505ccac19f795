/**
 * The run semantics of SPEC 5, one table row per rule: how decisions route, how `decide` forces,
 * where each kind of stop lands (node, cell, reason), params, schemas and budgets.
 */
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import type {
  BlockedDecision,
  SimulateOptions,
  TransitionRecord,
} from "../../src/simulate/index.js";
import { simulate } from "../../src/simulate/index.js";
import { binary, decision, edge, gate, llm, path, tool, workflow } from "./builders.js";

const multiway = workflow(
  [
    llm("a"),
    decision("d", {
      cases: [
        { condition: 'output.kind = "x"', next: "x" },
        { condition: "output.n > 2", next: "y" },
      ],
      otherwise: { next: "end" },
    }),
    llm("x"),
    llm("y"),
  ],
  [edge("a", "d")],
);

interface Row {
  readonly name: string;
  readonly wf: AgentWorkflow;
  readonly options: SimulateOptions;
  readonly blocked: BlockedDecision | null;
  readonly path?: readonly string[];
}

const rows: readonly Row[] = [
  {
    name: "binary true → onTrue",
    wf: gate(binary("output.ok = true", "b", "end"), llm("b")),
    options: { fixtures: { a: { outputs: [{ ok: true }] } } },
    blocked: null,
    path: ["a:move", "d:decision", "b:move", "b:end"],
  },
  {
    name: "binary false → onFalse to end",
    wf: gate(binary("output.ok = true", "b", "end"), llm("b")),
    options: { fixtures: { a: { outputs: [{ ok: false }] } } },
    blocked: null,
    path: ["a:move", "d:decision", "d:end"],
  },
  {
    name: "multi-way: the first case that holds",
    wf: multiway,
    options: { fixtures: { a: { outputs: [{ kind: "x", n: 5 }] } } },
    blocked: null,
    path: ["a:move", "d:decision", "x:move", "x:end"],
  },
  {
    name: "multi-way: a later case",
    wf: multiway,
    options: { fixtures: { a: { outputs: [{ kind: "z", n: 5 }] } } },
    blocked: null,
    path: ["a:move", "d:decision", "y:move", "y:end"],
  },
  {
    name: "multi-way: otherwise",
    wf: multiway,
    options: { fixtures: { a: { outputs: [{ kind: "z", n: 1 }] } } },
    blocked: null,
    path: ["a:move", "d:decision", "d:end"],
  },
  {
    name: "multi-way: an undecidable case stops before later cases",
    wf: multiway,
    options: { fixtures: { a: { outputs: [{ kind: "z" }] } } },
    blocked: { nodeId: "d", cell: "condition", reason: "output.n is absent" },
  },
  {
    name: "no coercion: a number against a string is undecidable",
    wf: gate(binary("output.n = 1", "end", "end")),
    options: { fixtures: { a: { outputs: [{ n: "1" }] } } },
    blocked: {
      nodeId: "d",
      cell: "condition",
      reason: "output.n is a string and 1 is a number; FEEL does not convert types",
    },
  },
  {
    name: "a text condition cannot be simulated",
    wf: gate(
      decision("d", {
        condition: "the answer is complete",
        conditionLanguage: "text",
        onTrue: { next: "end" },
        onFalse: { next: "end" },
      }),
    ),
    options: {},
    blocked: {
      nodeId: "d",
      cell: "condition",
      reason:
        "a natural-language condition is judged by a model at run time and cannot be simulated",
    },
  },
  {
    name: "decide supplies the route of a text condition",
    wf: gate(
      decision("d", {
        condition: "the answer is complete",
        conditionLanguage: "text",
        onTrue: { next: "b" },
        onFalse: { next: "end" },
      }),
      llm("b"),
    ),
    options: { decide: { d: ["onTrue"] } },
    blocked: null,
    path: ["a:move", "d:decision", "b:move", "b:end"],
  },
  {
    name: "decide names a route the decision does not have",
    wf: gate(binary("output.ok = true", "end", "end")),
    options: { decide: { d: ["cases/0"] } },
    blocked: {
      nodeId: "d",
      cell: "condition",
      reason: 'decide names route "cases/0", which "d" does not have (onTrue, onFalse)',
    },
  },
  {
    name: "a looping route without maxRetries",
    wf: workflow([llm("a"), binary("output.ok = true", "end", "a")], [edge("a", "d")]),
    options: {},
    blocked: { nodeId: "d", cell: "condition", reason: "output.ok is absent" },
  },
  {
    name: "a looping route without maxRetries, taken",
    wf: workflow([llm("a"), binary("output.ok = true", "end", "a")], [edge("a", "d")]),
    options: { fixtures: { a: { outputs: [{ ok: false }] } } },
    blocked: { nodeId: "d", cell: "onFalse", reason: "no maxRetries on a looping route" },
  },
  {
    name: "maxRetries 0 on a looping route",
    wf: workflow([llm("a"), binary("output.ok = true", "end", "a", 0)], [edge("a", "d")]),
    options: { fixtures: { a: { outputs: [{ ok: false }] } } },
    blocked: { nodeId: "d", cell: "onFalse", reason: "retry exhausted after 0 attempts" },
  },
  {
    name: "a route to a missing node",
    wf: gate(binary("output.ok = true", "ghost", "end")),
    options: { fixtures: { a: { outputs: [{ ok: true }] } } },
    blocked: {
      nodeId: "d",
      cell: "onTrue",
      reason: 'route onTrue goes to "ghost", which is not a node',
    },
  },
  {
    name: "a failure without an error boundary",
    wf: workflow([llm("a")], []),
    options: { fixtures: { a: { fails: 1 } } },
    blocked: { nodeId: "a", cell: "execution", reason: "execution failed: fixture failure 1 of 1" },
  },
  {
    name: "with strictParams, an unresolvable template stops before the tool runs",
    wf: workflow([llm("a"), tool("t", { q: "{{a.output.query}}" })], [edge("a", "t")]),
    options: { fixtures: { a: { outputs: [{ other: 1 }] } }, strictParams: true },
    blocked: {
      nodeId: "t",
      cell: "execution",
      reason: '{{a.output.query}}: the last output of "a" has no field "query"',
    },
  },
  {
    name: "with strictParams, a template naming a node that has not run",
    wf: workflow([tool("t", { q: "{{b.output.x}}" }), llm("b")], [edge("t", "b")]),
    options: { strictParams: true },
    blocked: {
      nodeId: "t",
      cell: "execution",
      reason: '{{b.output.x}}: "b" has not produced an output yet',
    },
  },
  {
    name: "an llm output violating its outputSchema",
    wf: workflow([llm("a", { outputSchema: { score: "number", tags: "text[]" } })], []),
    options: { fixtures: { a: { outputs: [{ score: 1, tags: ["x", 2] }] } } },
    blocked: {
      nodeId: "a",
      cell: "output-schema",
      reason: 'the output of "a" violates its outputSchema: field "tags.1" must be string',
    },
  },
  {
    name: "a missing required field of an llm output",
    wf: workflow([llm("a", { outputSchema: { score: "number" } })], []),
    options: {},
    blocked: {
      nodeId: "a",
      cell: "output-schema",
      reason: 'the output of "a" violates its outputSchema: field "score" is missing',
    },
  },
  {
    // complete, as in the seed engine; the violation is a finding beside the result (below)
    name: "the final output violating the workflow's outputSchema",
    wf: workflow([llm("a"), llm("b")], [edge("a", "b")], { outputSchema: { answer: "text" } }),
    options: { fixtures: { a: { outputs: [{ answer: 3 }] } } },
    blocked: null,
    path: ["a:move", "b:move", "b:end"],
  },
  {
    name: "maxTokens from maxOutputTokens",
    wf: workflow(
      [llm("a", { maxOutputTokens: 600 }), llm("b", { maxOutputTokens: 600 })],
      [edge("a", "b")],
      {
        budget: { maxTokens: 1000 },
      },
    ),
    options: {},
    blocked: {
      nodeId: "b",
      cell: "budget",
      reason: "budget.maxTokens 1000 exceeded: 1200 tokens projected",
    },
  },
  {
    name: "options.budget overrides the workflow's budget key by key",
    wf: workflow(
      [llm("a", { maxOutputTokens: 600 }), llm("b", { maxOutputTokens: 600 })],
      [edge("a", "b")],
      {
        budget: { maxTokens: 1000 },
      },
    ),
    options: { budget: { maxTokens: 1200 } },
    blocked: null,
  },
  {
    name: "a workflow without nodes",
    wf: workflow([], []),
    options: {},
    blocked: { nodeId: "", cell: "execution", reason: "the workflow has no nodes" },
  },
];

describe("simulate semantics", () => {
  it.each(rows.map((r) => [r.name, r] as const))("%s", (_name, row) => {
    const state = simulate(row.wf, row.options);
    expect(state.blockedDecision).toEqual(row.blocked);
    expect(state.complete).toBe(row.blocked === null);
    if (row.path !== undefined) expect(path(state)).toEqual(row.path);
  });
});

describe("a run that reaches the end is complete", () => {
  const schema = {
    answer: "text",
    "sources?": "text[]",
    meta: { type: "object", required: ["k"] },
  };

  function end(wf: AgentWorkflow, options: SimulateOptions): TransitionRecord | undefined {
    const state = simulate(wf, options);
    expect(state.complete).toBe(true);
    expect(state.blockedDecision).toBeNull();
    const last = state.trail.at(-1);
    expect(last?.type).toBe("end");
    return last;
  }

  it.each([
    [{ answer: "a", meta: { k: 1 } }, undefined, undefined],
    [{ meta: { k: 1 } }, "/answer", `field "answer" is missing`],
    [
      { answer: "a", sources: ["s", 2], meta: { k: 1 } },
      "/sources/1",
      `field "sources.1" must be string`,
    ],
    [{ answer: "a", meta: {} }, "/meta/k", `field "meta.k" is missing`],
  ] as const)("%j: finding at %s", (output, pointer, reason) => {
    const wf = workflow([llm("a"), llm("b")], [edge("a", "b")], { outputSchema: schema });
    const last = end(wf, { fixtures: { a: { outputs: [output] } } });
    expect(last?.output).toEqual(output);
    if (pointer === undefined) {
      expect(last?.findings).toBeUndefined();
      return;
    }
    const message = `the final output violates the workflow's outputSchema: ${reason}`;
    expect(last?.findings).toEqual([
      {
        code: "FINAL_OUTPUT_SCHEMA",
        severity: "warning",
        message,
        target: { kind: "workflow" },
        path: "/outputSchema",
        data: { nodeId: "b", pointer, field: pointer.slice(1).replace(/\//g, ".") },
      },
    ]);
    expect(last?.message).toBe(`run complete after 2 steps (2 moves); ${message}`);
  });

  it("through a decision's route to the end, the finding names the decision", () => {
    const wf = workflow(
      [
        llm("a"),
        decision("d", {
          condition: "output.ok = true",
          onTrue: { next: "end" },
          onFalse: { next: "end" },
        }),
      ],
      [edge("a", "d")],
      { outputSchema: { answer: "text" } },
    );
    const last = end(wf, { fixtures: { a: { outputs: [{ ok: true }] } } });
    expect(last?.edgeId).toBe("d->end");
    expect(last?.findings?.map((f) => [f.code, f.data])).toEqual([
      ["FINAL_OUTPUT_SCHEMA", { nodeId: "d", pointer: "/answer", field: "answer" }],
    ]);
  });

  it("a node's own outputSchema still stops the run at the node", () => {
    const wf = workflow(
      [llm("a", { outputSchema: { score: "number" } }), llm("b")],
      [edge("a", "b")],
    );
    const state = simulate(wf, { fixtures: { a: { outputs: [{ score: "high" }] } } });
    expect(state.complete).toBe(false);
    expect(state.blockedDecision).toEqual({
      nodeId: "a",
      cell: "output-schema",
      reason: 'the output of "a" violates its outputSchema: field "score" must be number',
    });
  });
});
