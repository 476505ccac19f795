/**
 * The langgraph-gen spec export against what langgraph-gen 0.0.6 does with a spec. langgraph-gen
 * is a Python package and PyPI is out of reach here, so its rules are checked as its source
 * states them (`generate.py` and the Jinja templates of langchain-ai/langgraph-gen-py at
 * 4715923, the commit of the agentic RAG fixture): `_validate_spec`, the names pasted into
 * `def <name>(` / `export function <name>(`, node names mapped by `re.sub(r"\W", "_", name)`
 * into one table with the conditions. The TypeScript stub's naming lines are parsed by the
 * TypeScript compiler, and the graph the stub builds is built and compiled by LangGraph.js
 * (`@langchain/langgraph` 1.7.3, the generated TypeScript stub's own dependency).
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { exportLangGraphGen } from "../../src/interop/langgraph-gen/index.js";
import type { LangGraphGenDocument } from "../../src/interop/langgraph-gen/gen-types.js";
import { stubName } from "../../src/interop/langgraph-gen/names.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { SHIPPED } from "./shipped.js";

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const pythonName = (s: string): boolean => IDENTIFIER.test(s) && !PYTHON_KEYWORDS.has(s);
/** A function name the implementation module may define: `py-stub-impl.j2` calls `print` and passes `SomeState` after the definitions. */
const implName = (s: string): boolean => pythonName(s) && s !== "print" && s !== "SomeState";
/** `re.sub(r"\W", "_", name)`, for the ASCII names the checks below require first. */
const machineName = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, "_");

/** What langgraph-gen would refuse or turn into a stub that does not load, one line each. */
function problems(spec: LangGraphGenDocument): string[] {
  const out: string[] = [];
  // _validate_spec: every edge end is a node name or a sentinel
  const names = new Set(spec.nodes.map((n) => n.name));
  for (const e of spec.edges) {
    if (!names.has(e.from) && e.from !== "__start__") out.push(`edge from unknown '${e.from}'`);
    for (const to of [...(e.to === undefined ? [] : [e.to]), ...(e.paths ?? [])])
      if (!names.has(to) && to !== "__end__") out.push(`edge to unknown '${to}'`);
  }
  if (!names.has(spec.entrypoint)) out.push(`entrypoint '${spec.entrypoint}' is no node`);
  // `def {{ stub_name }}(` and `export function {{ stub_name }}(`
  if (!pythonName(spec.name)) out.push(`name '${spec.name}' is no Python function name`);
  // node names go into "…" for add_node, which refuses ':' and '|'; ASCII keeps \W as here
  const impl = new Map<string, string>();
  const claim = (implName: string, what: string): void => {
    const other = impl.get(implName);
    if (other !== undefined && other !== what) out.push(`${what} and ${other} share '${implName}'`);
    impl.set(implName, what);
  };
  claim(spec.name, "the stub");
  for (const { name } of spec.nodes) {
    if (!/^[\x20-\x7e]*$/.test(name) || /["\\:|]/.test(name) || name.startsWith("__"))
      out.push(`node name '${name}' is refused or breaks its string`);
    if (!implName(machineName(name))) out.push(`node '${name}' maps to no Python name`);
    claim(machineName(name), `node ${name}`);
  }
  for (const e of spec.edges)
    if (e.condition !== undefined) {
      if (!implName(e.condition)) out.push(`condition '${e.condition}' is no Python name`);
      claim(e.condition, `condition ${e.condition}`);
    }
  return out;
}

/** The lines of langgraph-gen's `ts-stub.j2` that carry names, rendered for a spec. */
function tsStub(spec: LangGraphGenDocument): string {
  const edge = (x: string): string =>
    x === "__end__" ? "END" : x === "__start__" ? "START" : JSON.stringify(x);
  const conditions = [...new Set(spec.edges.flatMap((e) => e.condition ?? []))];
  return [
    `import { StateGraph, START, END, type AnnotationRoot } from "@langchain/langgraph";`,
    `type AnyAnnotationRoot = AnnotationRoot<any>;`,
    `export function ${spec.name}<TAnnotation extends AnyAnnotationRoot>(`,
    `  stateAnnotation: TAnnotation,`,
    `  impl: {`,
    ...spec.nodes.map(
      (n) => `    ${machineName(n.name)}: (state: TAnnotation["State"]) => TAnnotation["Update"],`,
    ),
    ...conditions.map((c) => `    ${c}: (state: TAnnotation["State"]) => string,`),
    `  }`,
    `) {`,
    `  return new StateGraph(stateAnnotation)`,
    ...spec.nodes.map((n) => `    .addNode("${n.name}", impl.${machineName(n.name)})`),
    `    .addEdge(START, "${spec.entrypoint}")`,
    ...spec.edges.map((e) =>
      e.condition === undefined
        ? `    .addEdge(${edge(e.from)}, ${edge(e.to ?? "__end__")})`
        : `    .addConditionalEdges(${edge(e.from)}, impl.${e.condition}, [${(e.paths ?? []).map(edge).join(", ")}])`,
    ),
    `}`,
  ].join("\n");
}

/** Syntax errors the TypeScript compiler finds in the rendered stub lines. */
function tsSyntaxErrors(source: string): string[] {
  const { diagnostics = [] } = ts.transpileModule(source, { reportDiagnostics: true });
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** The graph the generated stub builds, built and compiled by LangGraph.js itself. */
function buildInLangGraph(spec: LangGraphGenDocument): { nodes: string[]; edges: string[] } {
  const State = Annotation.Root({ foo: Annotation<string>() });
  // The builder's types track node names literally; the stub passes plain strings, as here.
  const graph = new StateGraph(State) as unknown as {
    addNode: (name: string, fn: () => object) => void;
    addEdge: (from: string, to: string) => void;
    addConditionalEdges: (from: string, fn: () => string, paths: string[]) => void;
    compile: () => {
      getGraph: () => { nodes: object; edges: { source: string; target: string }[] };
    };
  };
  const end = (x: string): string => (x === "__end__" ? END : x);
  for (const n of spec.nodes) graph.addNode(n.name, () => ({}));
  graph.addEdge(START, spec.entrypoint);
  for (const e of spec.edges)
    if (e.condition === undefined) graph.addEdge(e.from, end(e.to ?? "__end__"));
    else graph.addConditionalEdges(e.from, () => "", (e.paths ?? []).map(end));
  const drawn = graph.compile().getGraph();
  return {
    nodes: Object.keys(drawn.nodes),
    edges: drawn.edges.map((e) => `${e.source}->${e.target}`),
  };
}

/** Every edge of the spec as LangGraph draws it, `__start__` to the entrypoint first. */
function specEdges(spec: LangGraphGenDocument): string[] {
  return [
    `__start__->${spec.entrypoint}`,
    ...spec.edges.flatMap((e) => (e.paths ?? [e.to ?? "__end__"]).map((to) => `${e.from}->${to}`)),
  ];
}

describe.each(SHIPPED)("%s exported to langgraph-gen", (_label, wf) => {
  const { document, warnings } = exportLangGraphGen(wf);

  it("writes names langgraph-gen 0.0.6 accepts, each rename declared", () => {
    expect(problems(document)).toEqual([]);
    expect(document.name).toBe(stubName(wf.name));
    expect(warnings.some((w) => w.path === "/name")).toBe(document.name !== wf.name);
  });

  it("renders a TypeScript stub that parses, and a graph LangGraph.js builds and compiles", () => {
    expect(tsSyntaxErrors(tsStub(document))).toEqual([]);
    const built = buildInLangGraph(document);
    expect(built.nodes.sort()).toEqual(
      ["__start__", "__end__", ...document.nodes.map((n) => n.name)].sort(),
    );
    expect(new Set(built.edges)).toEqual(new Set(specEdges(document)));
  });
});

describe("the checks are not vacuous", () => {
  it("find what a name with spaces, a keyword, a ':' node and a shared name break", () => {
    const spec: LangGraphGenDocument = {
      name: "Research Agent",
      entrypoint: "a:b",
      nodes: [{ name: "a:b" }, { name: "a-b" }, { name: "if" }],
      edges: [{ from: "a-b", condition: "a_b", paths: ["if", "__end__"] }],
    };
    expect(problems(spec)).toEqual([
      "name 'Research Agent' is no Python function name",
      "node name 'a:b' is refused or breaks its string",
      "node a-b and node a:b share 'a_b'",
      "node 'if' maps to no Python name",
      "condition a_b and node a-b share 'a_b'",
    ]);
    expect(tsSyntaxErrors(tsStub(spec)).length).toBeGreaterThan(0);
    expect(() => buildInLangGraph(spec)).toThrow(/reserved character/);
  });
});

/** Node ids of agentflow's grammar that langgraph-gen's rules trip over. */
const ID = fc.constantFrom("a", "a-b", "a.b", "a:b", "if", "None", "print", "d", "d-2", "x:1");
const NAME = fc.constantFrom(
  "Research Agent",
  "class",
  "3 steps",
  "",
  "StateGraph",
  "ok_name",
  "Résumé",
);

describe("exportLangGraphGen on odd names", () => {
  it("always writes a spec langgraph-gen accepts, and LangGraph.js compiles", () => {
    fc.assert(
      fc.property(
        NAME,
        fc.uniqueArray(ID, { minLength: 1, maxLength: 6 }),
        fc.nat(5),
        (name, ids, d) => {
          const decisionAt = d % ids.length;
          const nodes = ids.map((id, i) =>
            i === decisionAt
              ? {
                  id,
                  type: "decision",
                  config: {
                    conditionLanguage: "text",
                    cases: [{ condition: "c", next: ids[(i + 1) % ids.length] ?? "end" }],
                    otherwise: { next: "end" },
                  },
                }
              : { id, type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
          );
          const edges = ids.slice(1).map((to, i) => ({ from: ids[i] ?? "", to, edgeType: "data" }));
          const parsed = parseWorkflow({
            kind: "AgentWorkflow",
            id: "wf",
            version: "1.0.0",
            name: name === "" ? "x" : name,
            autonomyLevel: 1,
            inputSchema: {},
            outputSchema: {},
            nodes,
            edges: edges.filter((e) => e.from !== ids[decisionAt]),
          });
          const wf: AgentWorkflow | undefined = parsed.workflow;
          if (wf === undefined) return;
          const { document, warnings } = exportLangGraphGen(wf);
          expect(problems(document)).toEqual([]);
          expect(tsSyntaxErrors(tsStub(document))).toEqual([]);
          buildInLangGraph(document);
          // each node renamed is declared, with its old and new name; the others keep their ids
          const renames = warnings.filter(
            (w) => w.code === "VALUE_NORMALIZED" && w.path.endsWith("/id"),
          );
          const from = new Set(renames.map((w) => w.data?.from));
          const to = new Set(renames.map((w) => w.data?.to));
          for (const { name: n } of document.nodes)
            expect(to.has(n) || ((ids as readonly string[]).includes(n) && !from.has(n))).toBe(
              true,
            );
          for (const n of to) expect(document.nodes.some((x) => x.name === n)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
