/**
 * The exports on deep and large workflows (issue 8, adversarial corpus): 10,000-deep values copy
 * without exhausting the stack, and 20,000 nodes, edges or routes stay linear. Each test checks
 * the document, whole.
 */
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../bench/generate.js";
import {
  exportAgent2Model,
  exportAgentOs,
  exportLangGraph,
  exportLangGraphGen,
  exportLangGraphGraph,
  exportOpenAgentFlow,
} from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, parseWorkflow } from "../../src/model/index.js";

type Obj = Record<string, unknown>;

const DEEP = 10_000;
/** Large enough that a quadratic step would take minutes, small enough for a unit test. */
const BIG = 20_000;

function parsed(value: unknown): AgentWorkflow {
  const { workflow, diagnostics } = parseWorkflow(value);
  if (workflow === undefined) throw new Error(JSON.stringify(diagnostics.slice(0, 3)));
  return workflow;
}

function research(): Obj & AgentWorkflow {
  const wf = getTemplate("research");
  if (wf === undefined) throw new Error("no research template");
  return structuredClone(wf) as Obj & AgentWorkflow;
}

/** `leaf` wrapped `depth` times by `wrap`, in a loop. */
function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => Obj): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = wrap(value);
  return value;
}

/** How many times `step` leads one level down from `value` before it returns `undefined`. */
function depth(value: unknown, step: (level: Obj) => unknown): number {
  let levels = 0;
  for (let v = value; typeof v === "object" && v !== null; v = step(v as Obj)) levels += 1;
  return levels;
}

/** The value at `keys` below `value`. */
function at(value: unknown, ...keys: (string | number)[]): unknown {
  let v = value;
  for (const key of keys) v = (v as Obj | undefined)?.[key];
  return v;
}

describe("exports of 10,000-deep values", () => {
  const leaf = { type: "string" };
  const schemaWf = parsed({
    ...research(),
    inputSchema: {
      q: nested(DEEP, leaf, (d) => ({ type: "object", properties: { d } })),
    },
  });
  const paramsWf = parsed({
    ...research(),
    nodes: research().nodes.map((n) =>
      n.type === "tool"
        ? {
            ...n,
            config: {
              usesTool: "tool:browser-search@1.2.0",
              params: {
                q: nested(DEEP, "{{input.query}}", (d) => ({ d, e: ["{{input.query}}"] })),
              },
            },
          }
        : n,
    ),
  });
  const down = (level: Obj): unknown => at(level, "properties", "d");

  it("copies a JSON Schema field 10,000 levels deep into AgentOS and the LangGraph subset", () => {
    const agentos = exportAgentOs(schemaWf).document;
    const subset = exportLangGraph(schemaWf).document;
    // 10,000 object levels and the string leaf
    expect(depth(at(agentos, "stateSchema", "input", "properties", "q"), down)).toBe(DEEP + 1);
    expect(depth(at(subset, "input_schema", "q"), down)).toBe(DEEP + 1);
  });

  it("copies a tool param 10,000 levels deep into AgentOS and the LangGraph subset", () => {
    const agentos = exportAgentOs(paramsWf).document;
    const subset = exportLangGraph(paramsWf).document;
    const q = (nodes: unknown, ...path: string[]): unknown =>
      at(
        (nodes as Obj[]).find((n) => n.id === "tool-2"),
        ...path,
        "q",
      );
    expect(depth(q(agentos.nodes, "executorConfig", "args"), (l) => l.d)).toBe(DEEP);
    expect(depth(q(subset.nodes, "data", "params"), (l) => l.d)).toBe(DEEP);
  });

  it("writes the OAF descriptor of a 10,000-deep list or map type", () => {
    const list = nested(DEEP, leaf, (items) => ({ type: "array", items }));
    const map = nested(DEEP, leaf, (additionalProperties) => ({
      type: "object",
      additionalProperties,
    }));
    const { document } = exportOpenAgentFlow(parsed({ ...research(), inputSchema: { list, map } }));
    const [first, second] = document.state.variables;
    // compared as booleans: a failure would print 100,000 characters
    expect(first?.type === `${"list<".repeat(DEEP)}string${">".repeat(DEEP)}`).toBe(true);
    expect(second?.type === `${"map<string,".repeat(DEEP)}string${">".repeat(DEEP)}`).toBe(true);
  });
});

describe("exports of 20,000 nodes, edges or routes", () => {
  it("exports 20,000 copies of one edge to both LangGraph forms and agent2model", () => {
    const wf = research();
    const copies = Array.from({ length: BIG }, () => ({
      from: "llm-1",
      to: "tool-2",
      edgeType: "data",
    }));
    const dup = parsed({ ...wf, edges: [...wf.edges, ...copies] });
    // the template's own edges (start, llm-1 -> tool-2, the router's two, tool-2's end) + copies
    expect(exportLangGraphGraph(dup).document.edges).toHaveLength(BIG + 4);
    expect(exportLangGraphGen(dup).document.edges).toHaveLength(BIG + 2);
    const next = at(exportAgent2Model(dup).document.nodes, "llm-1", "next") as unknown[];
    expect(next).toHaveLength(BIG + 1);
  });

  it("exports a 20,000-node chain to agent2model and OpenAgentFlow", () => {
    const chain = parsed(generateWorkflow(BIG, "chain"));
    const flowchart = exportAgent2Model(chain).document;
    // every node is a turn, and the last leads to the one terminal
    expect(Object.keys(flowchart.nodes)).toHaveLength(BIG + 1);
    expect(at(flowchart.nodes, "n19998", "next")).toEqual([{ to: "n19999" }]);
    expect(at(flowchart.nodes, "n19999", "next")).toEqual([{ to: "end" }]);
    const oaf = exportOpenAgentFlow(chain).document;
    // llm nodes are the agents; their tool successors are not in the IR, so each ends a run
    expect(oaf.agents).toHaveLength(BIG / 2);
    expect(oaf.graph.terminals).toHaveLength(BIG / 2);
    expect(oaf.graph.edges).toEqual([]);
  });

  describe("a decision with 20,000 routes", () => {
    const wide = parsed(generateWorkflow(BIG, "wide"));

    it("becomes the router of __start__ in the drawable graph", () => {
      // 19,999 cases and the otherwise, and each step's edge into the end
      expect(exportLangGraphGraph(wide).document.edges).toHaveLength(2 * BIG - 1);
    });

    it("becomes one conditional edge with 20,000 paths in the langgraph-gen spec", () => {
      const gen = exportLangGraphGen(wide).document;
      expect(gen.edges).toHaveLength(BIG);
      expect(at(gen.edges, 0, "paths")).toHaveLength(BIG);
    });

    it("becomes a router's 20,000 conditional edges in AgentOS", () => {
      // __START__, the router's routes, and an end edge per step
      expect(exportAgentOs(wide).document.edges).toHaveLength(2 * BIG);
    });

    it("becomes a decision turn with 20,000 edges in agent2model", () => {
      const next = at(exportAgent2Model(wide).document.nodes, "n0", "next") as unknown[];
      expect(next).toHaveLength(BIG);
      expect(next.at(-2)).toEqual({ to: "n19999", when: "output.route = 19999" });
    });
  });

  it("matches 20,000 documented edges of a decision to its routes, declaring a copy", () => {
    const steps = Array.from({ length: BIG }, (_, i) => `t${String(i)}`);
    const llm = (id: string): Obj => ({
      id,
      type: "llm",
      config: { model: "m", promptRef: "prm:p@1.0.0" },
    });
    const cases = steps.map((next, i) => ({ condition: `output.k = ${String(i)}`, next }));
    const documented = cases.map((c) => ({
      from: "d",
      to: c.next,
      edgeType: "data",
      when: c.condition,
    }));
    const wf = parsed({
      ...generateWorkflow(1, "chain"),
      nodes: [
        llm("s"),
        { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
        ...steps.map(llm),
      ],
      edges: [{ from: "s", to: "d", edgeType: "data" }, ...documented, documented[0]],
    });
    const declared = (warnings: readonly { message: string; path: string }[]): string[] =>
      warnings.filter((w) => w.message.includes("rebuilds the edges leaving")).map((w) => w.path);
    // only the copy of the first documented edge is left over
    expect(declared(exportLangGraphGraph(wf).warnings)).toEqual([`/edges/${String(BIG + 1)}`]);
    // the spec labels a path by its target, so none of the condition labels is rebuilt there:
    // 1,000 of the 20,001 are listed, and a note counts the rest (docs/interop/README.md)
    const gen = exportLangGraphGen(wf).warnings;
    expect(declared(gen)).toHaveLength(1_001);
    expect(gen.find((w) => w.data?.unlisted !== undefined)?.data).toMatchObject({
      unlisted: BIG + 1 - 1_000,
      limit: 1_000,
    });
    expect(declared(exportAgent2Model(wf).warnings)).toEqual([`/edges/${String(BIG + 1)}`]);
  });

  it("exports 20,000 schema fields to AgentOS, each compiled as it would be alone", () => {
    const fields = Object.fromEntries(
      Array.from({ length: BIG }, (_, i) => [`f${String(i)}`, i % 2 === 0 ? "text" : "integer[]"]),
    );
    const wf = parsed({ ...research(), inputSchema: fields });
    const input = exportAgentOs(wf).document.stateSchema as Obj;
    const properties = at(input, "input", "properties") as Obj;
    expect(Object.keys(properties)).toHaveLength(BIG);
    expect(properties.f19998).toEqual({ type: "string" });
    expect(properties.f19999).toEqual({ type: "array", items: { type: "integer" } });
    expect(at(input, "input", "required")).toHaveLength(BIG);
  });

  it("compiles repeated names and `__proto__` one by one, as before", () => {
    const inputSchema = JSON.parse(
      '{"a":"text","a?":"integer","__proto__":"bool","b?":"text[]","c":{"type":"number"}}',
    ) as Obj;
    const wf = parsed({ ...research(), inputSchema });
    const input = at(exportAgentOs(wf).document, "stateSchema", "input") as Obj;
    const properties = input.properties as Obj;
    expect(Object.keys(properties)).toEqual(["a", "__proto__", "b", "c"]);
    expect(properties.a).toEqual({ type: "integer" });
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({});
    expect(properties.b).toEqual({ type: "array", items: { type: "string" } });
    expect(properties.c).toEqual({ type: "number" });
    expect(input.required).toEqual(["a", "__proto__", "c"]);
  });

  describe("a decision with 150,000 bounded routes (more than a call takes as arguments)", () => {
    const cases = Array.from({ length: 150_000 }, (_, i) => ({
      condition: `output.k = ${String(i % 7)}`,
      next: "a",
      maxRetries: (i % 5) + 1,
    }));
    // built directly: parsing 150,000 routes is not what is tested here
    const wf = {
      ...generateWorkflow(1, "chain"),
      outputSchema: { k: "integer" },
      nodes: [
        { id: "a", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
        { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
      ],
      edges: [{ from: "a", to: "d", edgeType: "data" }],
    } as unknown as AgentWorkflow;

    it("gets the largest maxRetries as the OAF max_iterations", () => {
      const { document, warnings } = exportOpenAgentFlow(wf);
      expect(document.workflow.config.max_iterations).toBe(5);
      // Every case routes a back to a: a self-loop OAF refuses, declared rather than written.
      expect(document.graph.edges).toHaveLength(0);
      expect(warnings.filter((w) => w.data?.reason === "self-loop").length).toBeGreaterThan(0);
    });

    it("writes all its routes when it is a routing step of the drawable graph", () => {
      // two edges into the decision: it is not one step's router, so it routes on its own
      const twice = { ...wf, edges: [...wf.edges, ...wf.edges] };
      // __start__ -> a, a -> d twice, d's 150,000 cases and its otherwise
      expect(exportLangGraphGraph(twice).document.edges).toHaveLength(150_004);
    });
  });
});
