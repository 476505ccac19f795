/**
 * An OpenAgentFlow agent's unconditional transitions, which the compiler accepts in any number:
 * the bounded loop (back into a cycle and to `end` under `max_iterations`), fan-outs, several
 * beside conditional routes, and an agent called `end`. The IR of the compiler's own output
 * (`test/fixtures/openagentflow/`, ORIGIN.md) where the compiler emits it; documents edited by
 * hand only for what it refuses (an agent named `end`) or to vary one transition.
 */
import { describe, expect, it } from "vitest";
import { importOpenAgentFlow, OAF_LOOP_CONDITION } from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow, DecisionNode } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import type { Obj } from "./helpers.js";
import { codes, readFixture } from "./helpers.js";

/** Writable view of a compiled IR. */
interface Ir extends Obj {
  workflow: Obj & { config: Obj };
  agents: (Obj & { id: string })[];
  graph: {
    edges: { source: string; target: string; condition: unknown }[];
    entrypoint: string;
    terminals: { source: string; condition: unknown }[];
  };
}

const ir = (file: string): Ir => readFixture(`openagentflow/${file}`) as Ir;

function decision(wf: AgentWorkflow, id: string): DecisionNode["config"] | undefined {
  const node = wf.nodes.find((n) => n.id === id);
  return node?.type === "decision" ? node.config : undefined;
}

/** An agent of `ir`'s shape, for edited documents. */
function agent(id: string): Obj & { id: string } {
  return {
    id,
    instructions: `Act as ${id}.`,
    model: "gpt-4o",
    provider: "openai",
    temperature: null,
    tools: [],
    inputs: [],
    outputs: [],
  };
}

describe("the bounded loop: back into a cycle and to end, under max_iterations", () => {
  const { workflow, warnings } = importOpenAgentFlow(ir("bounded_loop_ir.generated.json"));

  it("is a decision that goes back or ends the run, unbounded: max_iterations is not enforced", () => {
    expect(decision(workflow, "Reviewer-loop")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: OAF_LOOP_CONDITION, next: "Drafter" }],
      otherwise: { next: "end" },
    });
    expect(workflow.edges).toStrictEqual([
      { from: "Drafter", to: "Reviewer", edgeType: "data" },
      { from: "Reviewer", to: "Reviewer-loop", edgeType: "data" },
    ]);
    // a bounded loop, not a branch between two paths
    expect(workflow.autonomyLevel).toBe(2);
  });

  it("says how the IR was read, at the transition to end", () => {
    const note = warnings.find((w) => w.path === "/graph/terminals/0");
    expect(note).toMatchObject({
      code: "HEURISTIC",
      data: {
        agentId: "Reviewer",
        decisions: ["Reviewer-loop"],
        loopTargets: ["Drafter"],
        maxIterations: 4,
      },
    });
    expect(note?.message).toContain("the loop max_iterations is meant to bound");
    // the bound applies to a route, so it is not declared dropped, but read unbounded, declared
    expect(codes(warnings)).not.toContainEqual([
      "FIELD_DROPPED",
      "/workflow/config/max_iterations",
    ]);
    expect(codes(warnings)).toContainEqual(["HEURISTIC", "/workflow/config/max_iterations"]);
  });

  it("runs: to the end, but no lap back: nothing that runs bounds the loop", () => {
    const laps = (n: number): string[] => [...Array<string>(n).fill("cases/0"), "otherwise"];
    const run = (n: number) =>
      simulate(workflow, { sampleOutputs: true, decide: { "Reviewer-loop": laps(n) } });
    expect(run(0).complete).toBe(true);
    // before, max_iterations 4 let four laps through, though the compiled app never counts them
    const over = run(1);
    expect(over.complete).toBe(false);
    expect(over.blockedDecision).toMatchObject({
      nodeId: "Reviewer-loop",
      cell: "cases/0",
      reason: "no maxRetries on a looping route",
    });
    // the condition is text: without a stated route the run stops there, honestly
    expect(simulate(workflow, { sampleOutputs: true }).blockedDecision?.nodeId).toBe(
      "Reviewer-loop",
    );
  });

  it("each transition back gets its own bounded decision; a forward one stays a plain edge", () => {
    const doc = ir("bounded_loop_ir.generated.json");
    doc.agents.push(agent("Editor"), agent("Indexer"));
    doc.graph.edges.push(
      { source: "Reviewer", target: "Editor", condition: null },
      { source: "Editor", target: "Reviewer", condition: null },
      { source: "Reviewer", target: "Indexer", condition: null },
    );
    doc.graph.terminals.push({ source: "Indexer", condition: null });
    const { workflow: wf, warnings: ws } = importOpenAgentFlow(doc);
    expect(wf.edges.filter((e) => e.from === "Reviewer")).toStrictEqual([
      { from: "Reviewer", to: "Reviewer-loop", edgeType: "data" },
      { from: "Reviewer", to: "Reviewer-loop-2", edgeType: "data" },
      { from: "Reviewer", to: "Indexer", edgeType: "data" },
    ]);
    expect(decision(wf, "Reviewer-loop-2")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: OAF_LOOP_CONDITION, next: "Editor" }],
      otherwise: { next: "end" },
    });
    expect(ws.find((w) => w.path === "/graph/terminals/0")?.data).toMatchObject({
      decisions: ["Reviewer-loop", "Reviewer-loop-2"],
      loopTargets: ["Drafter", "Editor"],
    });
    // three successors: a fan-out, declared at the second transition
    expect(ws.find((w) => w.path === "/graph/edges/2")).toMatchObject({
      code: "HEURISTIC",
      data: { agentId: "Reviewer", successors: ["Reviewer-loop", "Reviewer-loop-2", "Indexer"] },
    });
  });

  it("without max_iterations there is no bound to read: a fan-out, the end declared dropped", () => {
    const doc = ir("bounded_loop_ir.generated.json");
    doc.workflow.config = {};
    // the compiler wants a conditional exit from a cycle when there is no max_iterations
    doc.state = {
      variables: [...(doc.state as { variables: unknown[] }).variables, boolVariable()],
    };
    doc.graph.terminals.push({
      source: "Drafter",
      condition: { type: "IdentifierExpr", name: "done" },
    });
    const { workflow: wf, warnings: ws } = importOpenAgentFlow(doc);
    expect(wf.nodes.some((n) => n.id === "Reviewer-loop")).toBe(false);
    expect(wf.edges).toContainEqual({ from: "Reviewer", to: "Drafter", edgeType: "data" });
    expect(ws.find((w) => w.path === "/graph/terminals/0")).toMatchObject({
      code: "FIELD_DROPPED",
      data: { agentId: "Reviewer", to: "end" },
    });
  });
});

function boolVariable(): Obj {
  return { name: "done", type: "bool", options: [] };
}

describe("beside conditional routes", () => {
  it("the bounded loop is the fallback; another unconditional transition is declared", () => {
    const { workflow, warnings } = importOpenAgentFlow(ir("loop_fallback_ir.generated.json"));
    expect(decision(workflow, "Checker-route")).toStrictEqual({
      cases: [{ condition: "output.urgent = true", next: "Escalator" }],
      otherwise: { next: "Checker-loop" },
    });
    expect(decision(workflow, "Checker-loop")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: OAF_LOOP_CONDITION, next: "Reader" }],
      otherwise: { next: "end" },
    });
    expect(warnings.find((w) => w.path === "/graph/edges/3")).toMatchObject({
      code: "FIELD_DROPPED",
      data: { agentId: "Checker", to: "Logger" },
    });
  });

  it("with no loop, the first unconditional transition is the fallback, the others declared", () => {
    const doc = ir("conditional_routing_ir.generated.json");
    doc.graph.terminals.push(
      { source: "Reviewer", condition: null },
      { source: "Reviewer", condition: null },
    );
    const { workflow, warnings } = importOpenAgentFlow(doc);
    expect(decision(workflow, "Reviewer-route")).toMatchObject({ otherwise: { next: "end" } });
    expect(warnings.find((w) => w.path === "/graph/terminals/2")).toMatchObject({
      code: "FIELD_DROPPED",
      data: { agentId: "Reviewer", to: "end" },
    });
    // a fallback exists now: no guessed end
    expect(codes(warnings)).not.toContainEqual(["HEURISTIC", "/graph/edges/0/condition"]);
  });

  it("an agent looping back unconditionally and ending, beside another's conditions", () => {
    const doc = ir("conditional_routing_ir.generated.json");
    doc.graph.terminals.push({ source: "Fixer", condition: null });
    const { workflow, warnings } = importOpenAgentFlow(doc);
    expect(decision(workflow, "Fixer-loop")).toStrictEqual({
      conditionLanguage: "text",
      cases: [{ condition: OAF_LOOP_CONDITION, next: "Reviewer" }],
      otherwise: { next: "end" },
    });
    expect(workflow.edges).toContainEqual({ from: "Fixer", to: "Fixer-loop", edgeType: "data" });
    expect(warnings.find((w) => w.path === "/graph/terminals/1")?.code).toBe("HEURISTIC");
  });
});

describe("fan-outs", () => {
  it("no cycle: an agent to two agents and to end keeps both edges and declares the end", () => {
    const { workflow, warnings } = importOpenAgentFlow(ir("fan_out_end_ir.generated.json"));
    expect(workflow.edges).toStrictEqual([
      { from: "Summarizer", to: "Notifier", edgeType: "data" },
      { from: "Summarizer", to: "Archiver", edgeType: "data" },
    ]);
    expect(workflow.nodes.every((n) => n.type === "llm")).toBe(true);
    expect(warnings.find((w) => w.path === "/graph/terminals/0")).toMatchObject({
      code: "FIELD_DROPPED",
      data: { agentId: "Summarizer", to: "end" },
    });
    expect(warnings.find((w) => w.path === "/graph/edges/1")).toMatchObject({
      code: "HEURISTIC",
      data: { agentId: "Summarizer", successors: ["Notifier", "Archiver"] },
    });
    // max_iterations does not make a loop of a fan-out
    expect(codes(warnings)).toContainEqual(["FIELD_DROPPED", "/workflow/config/max_iterations"]);
  });

  it("an agent to one agent and to end: one edge, the end declared", () => {
    const doc = ir("summarize_ir.json");
    doc.graph.terminals.push({ source: "Extractor", condition: null });
    const { workflow, warnings } = importOpenAgentFlow(doc);
    expect(workflow.edges).toStrictEqual([
      { from: "Extractor", to: "Synthesizer", edgeType: "data" },
    ]);
    expect(codes(warnings)).toEqual([
      ["HEURISTIC", "/workflow/config/version"],
      ["FIELD_DROPPED", "/graph/terminals/1"],
    ]);
  });
});

describe("an agent called end (the compiler refuses the name; the IR does not)", () => {
  function withEnd(): Ir {
    const doc = ir("conditional_routing_ir.generated.json");
    for (const a of doc.agents) if (a.id === "Fixer") a.id = "end";
    for (const e of doc.graph.edges) {
      if (e.source === "Fixer") e.source = "end";
      if (e.target === "Fixer") e.target = "end";
    }
    return doc;
  }

  it("is renamed end-2, declared, and routes to it reach it, not the end of the run", () => {
    const { workflow, warnings } = importOpenAgentFlow(withEnd());
    expect(workflow.nodes.map((n) => n.id)).toEqual(["Reviewer", "Reviewer-route", "end-2"]);
    expect(decision(workflow, "Reviewer-route")).toMatchObject({
      cases: [
        { next: "end-2" },
        { next: "end" }, // the conditional terminal: the end of the run
      ],
      otherwise: { next: "end" },
    });
    expect(workflow.edges).toContainEqual({ from: "end-2", to: "Reviewer", edgeType: "data" });
    expect(warnings.find((w) => w.path === "/agents/1/id")).toStrictEqual({
      code: "VALUE_NORMALIZED",
      message: expect.stringContaining("'end'") as unknown,
      path: "/agents/1/id",
      data: { from: "end", to: "end-2", reason: "reserved" },
    });
  });

  it("takes the next free id when end-2 is an agent already", () => {
    const doc = withEnd();
    doc.agents.push(agent("end-2"));
    doc.graph.edges.push({ source: "Reviewer", target: "end-2", condition: null });
    doc.graph.terminals.push({ source: "end-2", condition: null });
    const { workflow, warnings } = importOpenAgentFlow(doc);
    expect(workflow.nodes.map((n) => n.id)).toEqual([
      "Reviewer",
      "Reviewer-route",
      "end-3",
      "end-2",
    ]);
    expect(warnings.find((w) => w.path === "/agents/1/id")?.data).toEqual({
      from: "end",
      to: "end-3",
      reason: "reserved",
    });
  });
});
