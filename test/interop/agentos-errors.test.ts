import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { unfoldToolLoops } from "../../src/interop/agentos/tool-loop.js";
import { agentOs, importAgentOs } from "../../src/interop/agentos/index.js";
import { ImportError } from "../../src/interop/index.js";
import { getTemplate, listTemplates } from "../../src/model/index.js";
import type { Obj } from "./helpers.js";
import { readFixture } from "./helpers.js";

const ROUTED = "agentos/research-graph-routed.compiled-execution-graph.derived.json";
const GENERATED = "agentos/research-graph.compiled-execution-graph.generated.json";

type Graph = Obj & { nodes: Obj[]; edges: Obj[] };

/** START -> a (gmi) -> END, edited by each case. */
function minimal(): Graph {
  return {
    id: "g1",
    name: "g",
    nodes: [{ id: "a", type: "gmi", executorConfig: { type: "gmi", instructions: "Do." } }],
    edges: [
      { id: "e1", source: "__START__", target: "a", type: "static" },
      { id: "e2", source: "a", target: "__END__", type: "static" },
    ],
  };
}

function generated(): Obj & { nodes: (Obj & { guardrailPolicy?: Obj })[]; edges: Obj[] } {
  return readFixture(GENERATED) as Obj & { nodes: Obj[]; edges: Obj[] };
}

function refusal(doc: unknown): ImportError {
  try {
    importAgentOs(doc);
  } catch (error) {
    if (error instanceof ImportError && error.format === "agentos") return error;
    throw error;
  }
  throw new Error("imported");
}

describe("importAgentOs: the generated research graph", () => {
  it("fails loudly on summarize's guardrail reroute to search (a branch agentflow would lose)", () => {
    const e = refusal(generated());
    expect([e.path, e.elementId, e.format]).toEqual([
      "/nodes/3/guardrailPolicy",
      "summarize",
      "agentos",
    ]);
  });

  it("without that reroute, it imports: edge-4's __CONDITIONAL__ becomes a declared decision", () => {
    const doc = generated();
    const summarize = doc.nodes[3];
    if (summarize !== undefined) delete summarize.guardrailPolicy;
    const { workflow: imported, warnings } = importAgentOs(doc);
    // the three gmi nodes' tool loops read back into them: the graph's own nodes
    const workflow = unfoldToolLoops(imported).wf;
    expect(workflow.nodes.map((n) => n.id)).toEqual([
      "plan",
      "search",
      "evaluate",
      "summarize",
      "review",
      "evaluate.conditional",
      "summarize.personality",
    ]);
    const held = warnings.filter((w) => w.path === "/edges/3/target");
    expect(held.map((w) => [w.code, w.data?.edgeId, w.data?.decisionId])).toEqual([
      ["HEURISTIC", "edge-4", "evaluate.conditional"],
    ]);
  });
});

describe("importAgentOs: every refusal names its path and element", () => {
  const cases: [string, (g: Graph) => unknown, string, string | undefined][] = [
    ["not an object", () => [1], "", undefined],
    ["no id", (g) => ({ ...g, id: 3 }), "/id", undefined],
    ["nodes not an array", (g) => ({ ...g, nodes: {} }), "/nodes", undefined],
    [
      "a voice node",
      (g) => ((g.nodes[0] = { id: "a", type: "voice", executorConfig: { type: "voice" } }), g),
      "/nodes/0/type",
      "a",
    ],
    [
      "a guardrail node that reroutes",
      (g) => (
        g.nodes.push({
          id: "b",
          type: "guardrail",
          executorConfig: {
            type: "guardrail",
            guardrailIds: [],
            onViolation: "reroute",
            rerouteTarget: "a",
          },
        }),
        g
      ),
      "/nodes/1/executorConfig/onViolation",
      "b",
    ],
    [
      "an executorConfig of another type",
      (g) => (
        (g.nodes[0] = { id: "a", type: "gmi", executorConfig: { type: "tool", toolName: "t" } }),
        g
      ),
      "/nodes/0/executorConfig",
      "a",
    ],
    [
      "a gmi node without instructions",
      (g) => ((g.nodes[0] = { id: "a", type: "gmi", executorConfig: { type: "gmi" } }), g),
      "/nodes/0/executorConfig/instructions",
      "a",
    ],
    // Two ids that rewrite to one are imported (`a-b`, `a-b-2`): reserved-ids.test.ts.
    [
      "a node id used twice",
      (g) => (
        g.nodes.push({ id: "a", type: "gmi", executorConfig: { type: "gmi", instructions: "y" } }),
        g
      ),
      "/nodes/1/id",
      "a",
    ],
    ["no __START__ edge", (g) => (g.edges.shift(), g), "/edges", undefined],
    [
      "two __START__ edges",
      (g) => (g.edges.push({ source: "__START__", target: "a", type: "static" }), g),
      "/edges/2",
      undefined,
    ],
    [
      "an edge to an unknown node",
      (g) => ((g.edges[1] = { source: "a", target: "zz", type: "static" }), g),
      "/edges/1/target",
      undefined,
    ],
    [
      "an unknown edge type",
      (g) => ((g.edges[1] = { source: "a", target: "__END__", type: "maybe" }), g),
      "/edges/1/type",
      undefined,
    ],
    [
      "a conditional edge to a named target from a node that is not a router",
      (g) => (
        (g.edges[1] = {
          source: "a",
          target: "__END__",
          type: "conditional",
          condition: { type: "function" },
        }),
        g
      ),
      "/edges/1",
      "a",
    ],
    [
      "a discovery edge without fallback",
      (g) => ((g.edges[1] = { source: "a", target: "__END__", type: "discovery" }), g),
      "/edges/1/discoveryFallback",
      "a",
    ],
    [
      "static and personality edges from one node",
      (g) => (
        g.edges.push({
          source: "a",
          target: "__END__",
          type: "personality",
          personalityCondition: { trait: "t", threshold: 1, above: "a", below: "__END__" },
        }),
        g
      ),
      "/edges/2",
      "a",
    ],
    [
      "personality edges that disagree",
      (g) => {
        const pc = { trait: "t", threshold: 0.5, above: "b", below: "__END__" };
        g.nodes.push({ id: "b", type: "tool", executorConfig: { type: "tool", toolName: "t" } });
        g.edges[1] = { source: "a", target: "b", type: "personality", personalityCondition: pc };
        g.edges.push({
          source: "a",
          target: "__END__",
          type: "personality",
          personalityCondition: { ...pc, threshold: 0.6 },
        });
        return g;
      },
      "/edges/2/personalityCondition",
      "a",
    ],
    [
      "a __CONDITIONAL__ edge beside personality edges of the same node",
      (g) => {
        const pc = { trait: "t", threshold: 0.5, above: "a", below: "__END__" };
        g.edges[1] = { source: "a", target: "a", type: "personality", personalityCondition: pc };
        g.edges.push(
          { source: "a", target: "__END__", type: "personality", personalityCondition: pc },
          {
            source: "a",
            target: "__CONDITIONAL__",
            type: "conditional",
            condition: { type: "function" },
          },
        );
        return g;
      },
      "/edges/3",
      "a",
    ],
    [
      "a __CONDITIONAL__ edge from __START__ (agentflow has one entry node)",
      (g) => (
        (g.edges[0] = {
          source: "__START__",
          target: "__CONDITIONAL__",
          type: "conditional",
          condition: { type: "function" },
        }),
        g
      ),
      "/edges/0",
      undefined,
    ],
    [
      "a router without out-edges",
      (g) => (
        g.nodes.push({
          id: "r",
          type: "router",
          executorConfig: { type: "router", condition: { type: "function" } },
        }),
        g
      ),
      "/nodes/1",
      "r",
    ],
    [
      "an edge guardrail that reroutes",
      (g) => (
        (g.edges[1] = {
          ...g.edges[1],
          guardrailPolicy: { onViolation: "reroute", rerouteTarget: "a" },
        }),
        g
      ),
      "/edges/1/guardrailPolicy",
      undefined,
    ],
    [
      // AgentOS runs a node no edge leads to at the start (checked with its GraphRuntime):
      // read with one entry, it would never run, and its effect would go unseen.
      "a node no edge leads to",
      (g) => (
        g.nodes.push({
          id: "wire",
          type: "tool",
          executorConfig: { type: "tool", toolName: "pay" },
        }),
        g.edges.push({ id: "e3", source: "wire", target: "__END__", type: "static" }),
        g
      ),
      "/nodes/1",
      "wire",
    ],
  ];
  it.each(cases)("%s", (_name, edit, path, elementId) => {
    const e = refusal(edit(minimal()));
    expect(e).toBeInstanceOf(ImportError);
    expect([e.path, e.elementId]).toEqual([path, elementId]);
  });
});

describe("detect", () => {
  it("declines the docs' YAML workflow (a different authoring form: steps, no nodes)", () => {
    const text = readFileSync(
      new URL("../fixtures/agentos/summarize-article.docs-workflow.yaml", import.meta.url),
      "utf8",
    );
    expect(agentOs.detect(parse(text))).toBe(false);
  });

  it("declines AgentWorkflows, templates, and every other format's fixtures", () => {
    for (const t of listTemplates()) expect(agentOs.detect(getTemplate(t.id))).toBe(false);
    const root = new URL("../fixtures/", import.meta.url);
    for (const dir of readdirSync(root).filter((d) => d !== "agentos")) {
      for (const file of readdirSync(new URL(`${dir}/`, root))) {
        if (!/\.(json|ya?ml)$/.test(file)) continue;
        const text = readFileSync(new URL(`${dir}/${file}`, root), "utf8");
        let doc: unknown;
        try {
          doc = file.endsWith(".json") ? JSON.parse(text) : parse(text);
        } catch {
          continue;
        }
        expect([dir, file, agentOs.detect(doc)]).toEqual([dir, file, false]);
      }
    }
  });

  it("declines a graph whose nodes carry no executorConfig of their own type", () => {
    expect(agentOs.detect({ nodes: [{ id: "a", type: "gmi", data: {} }], edges: [] })).toBe(false);
    expect(
      agentOs.detect({
        kind: "X",
        nodes: [{ id: "a", type: "gmi", executorConfig: { type: "gmi" } }],
        edges: [],
      }),
    ).toBe(false);
  });
});

describe("never throws anything but an ImportError", () => {
  it("on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        expect(typeof agentOs.detect(doc)).toBe("boolean");
        try {
          importAgentOs(doc);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
          expect(error).toMatchObject({ format: "agentos" });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("on the derived fixture with one value replaced, and `__proto__` keys do not pollute", () => {
    const keys = fc.constantFrom(
      "nodes",
      "edges",
      "executorConfig",
      "type",
      "id",
      "source",
      "target",
      "condition",
      "personalityCondition",
      "stateSchema",
      "__proto__",
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat({ max: 6 }), keys), { minLength: 1, maxLength: 4 }),
        fc.jsonValue({ maxDepth: 3 }),
        (tokens, value) => {
          const doc = readFixture(ROUTED);
          let current: unknown = doc;
          for (const t of tokens.slice(0, -1)) {
            if (typeof current !== "object" || current === null || !Object.hasOwn(current, t))
              break;
            current = (current as Obj)[String(t)];
          }
          const last = tokens.at(-1);
          if (typeof current === "object" && current !== null && last !== undefined) {
            Object.defineProperty(current, String(last), {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          try {
            importAgentOs(doc);
          } catch (error) {
            expect(error).toBeInstanceOf(ImportError);
            expect(error).toMatchObject({ format: "agentos" });
          }
          expect(({} as Obj).polluted).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});
