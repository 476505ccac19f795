/**
 * docs/seed-compatibility.md, tested: every deliberate difference from the seed engine
 * (`@buildtovalue/agentflow`) that the page lists has a case here, run on the seed's own Research
 * template (test/fixtures/agentflow), and every case here is listed on the page. Each case asserts
 * agentflow's side; the seed's side is quoted on the page with its source location, since the
 * seed engine is not published to npm and cannot be run from here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { minCoherentLevel } from "../src/autonomy/index.js";
import type { AgentWorkflow, Diagnostic } from "../src/model/index.js";
import { parseWorkflow } from "../src/model/index.js";
import type { SimulateOptions, SimulationState } from "../src/simulate/index.js";
import { MAX_STEPS_LIMIT, runUsage, simulate } from "../src/simulate/index.js";
import type { Resolvers } from "../src/validate/index.js";
import { createValidator, RULES } from "../src/validate/index.js";

type Doc = Record<string, unknown> & {
  nodes: Record<string, unknown>[];
  edges: Record<string, unknown>[];
};

const TEMPLATE = readFileSync("test/fixtures/agentflow/template-research-agent.json", "utf8");

/** A fresh copy of the seed's Research template, as JSON data. */
function research(): Doc {
  return JSON.parse(TEMPLATE) as Doc;
}

/** Node `i` of a document's JSON, for editing in place. */
function node(doc: Doc, i: number): Record<string, unknown> & { config: Record<string, unknown> } {
  const n = doc.nodes[i];
  if (n === undefined) throw new Error(`no node ${String(i)}`);
  return n as Record<string, unknown> & { config: Record<string, unknown> };
}

function parsed(doc: unknown): AgentWorkflow {
  const result = parseWorkflow(doc);
  if (result.workflow === undefined) throw new Error(JSON.stringify(result.diagnostics));
  return result.workflow;
}

async function findings(doc: unknown, resolvers: Resolvers = {}): Promise<Diagnostic[]> {
  return createValidator({ resolvers }).validate(parsed(doc));
}

/** `CODE path` of every finding except the seed dialect's own warning. */
async function codes(doc: unknown, resolvers: Resolvers = {}): Promise<string[]> {
  return (await findings(doc, resolvers))
    .filter((d) => d.code !== "CONDITION_JS_OPERATOR")
    .map((d) => `${d.code} ${d.path}`);
}

function run(doc: unknown, options: SimulateOptions = {}): SimulationState {
  return simulate(parsed(doc), options);
}

/** An answer that fits the template's outputSchema. */
const ANSWER = { answer: "a", sources: ["s"], is_complete: true };

/** The codes of the rules the seed engine has (its validate.ts and autonomy.ts at 6a535dee). */
const SEED_RULES = [
  "EMPTY_INPUT_SCHEMA",
  "EMPTY_OUTPUT_SCHEMA",
  "EDGE_ENDPOINT_MISSING",
  "DECISION_ROUTE_MISSING",
  "DECISION_IMPLICIT_METRIC",
  "RETRY_WITHOUT_MAX",
  "CYCLE_WITHOUT_STOP",
  "LLM_NOT_STRUCTURED",
  "PROMPT_REF_INVALID",
  "PROMPT_REF_ABBREVIATED",
  "DELEGATE_REF_INVALID",
  "DELEGATE_REF_ABBREVIATED",
  "DELEGATE_UNRESOLVED",
  "DELEGATE_CONTRACT_MISMATCH",
  "DELEGATE_CYCLE",
  "AUTONOMY_CHAIN",
  "TOOL_REF_INVALID",
  "TOOL_REF_ABBREVIATED",
  "TOOL_UNRESOLVED",
  "TOOL_PARAMS_MISMATCH",
  "TOOL_EFFECT_UNGATED",
  "SCHEMA_UNSUPPORTED_KEYWORD",
  "BUDGET_MISSING",
  "AUTONOMY_INCOHERENT",
];

const page = readFileSync("docs/seed-compatibility.md", "utf8");

/** The GitHub anchor of a heading. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");
}

/** The anchors of the page's differences: the `###` headings under "Deliberate differences". */
function listedDifferences(): string[] {
  const start = page.indexOf("\n## Deliberate differences\n");
  const end = page.indexOf("\n## ", start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^### (.+)$/gm)].map((m) => slug(m[1] ?? ""));
}

/** The rule codes the page lists as agentflow's own (the table under "Rules the seed does not have"). */
function listedRules(): string[] {
  const start = page.indexOf("### Rules the seed does not have");
  const end = page.indexOf("\n### ", start + 1);
  return [...page.slice(start, end).matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1] ?? "");
}

const CASES: Readonly<Record<string, () => Promise<void> | void>> = {
  "a-dynamic-planner-justifies-level-5": async () => {
    const doc = research();
    doc.autonomyLevel = 4;
    (node(doc, 0).decorators as unknown[]).push({ type: "planner", strategy: "dynamic" });
    expect(await codes(doc)).toEqual([
      "AUTONOMY_INCOHERENT /autonomyLevel",
      "AUTONOMY_SELF_MODIFYING /autonomyLevel",
    ]);
    const incoherent = (await findings(doc)).find((d) => d.code === "AUTONOMY_INCOHERENT");
    expect(incoherent?.data).toMatchObject({ declared: 4, justified: 5 });
    doc.autonomyLevel = 5;
    expect(await codes(doc)).toEqual(["AUTONOMY_SELF_MODIFYING /autonomyLevel"]);
  },

  "a-budget-is-required-at-the-justified-level": async () => {
    const doc = research();
    doc.autonomyLevel = 1;
    delete doc.budget;
    expect(await codes(doc)).toEqual(["BUDGET_MISSING ", "AUTONOMY_INCOHERENT /autonomyLevel"]);
  },

  "an-empty-budget-is-no-budget": async () => {
    const doc = research();
    doc.budget = {};
    expect(await codes(doc)).toEqual(["BUDGET_MISSING /budget"]);
  },

  "a-workflow-without-nodes-cannot-run": async () => {
    const doc = research();
    doc.nodes = [];
    doc.edges = [];
    expect(await codes(doc)).toEqual(["NO_ENTRY_NODE /nodes"]);
    const state = run(doc);
    expect(state.complete).toBe(false);
    expect(state.blockedDecision).toEqual({
      nodeId: "",
      cell: "execution",
      reason: "the workflow has no nodes",
    });
  },

  "the-entry-is-where-nothing-enters": () => {
    // nodes [check, start, work]: start → work → check → work. The seed starts at `check`, the
    // first node without a forward predecessor (work → check loops back); nothing enters `start`.
    const doc = research();
    doc.nodes = [
      {
        id: "check",
        type: "decision",
        config: {
          condition: "output.done === true",
          onTrue: { next: "end" },
          onFalse: { next: "work", maxRetries: 1 },
        },
      },
      { id: "start", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
      { id: "work", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
    ];
    doc.edges = [
      { from: "start", to: "work", edgeType: "data" },
      { from: "work", to: "check", edgeType: "data" },
    ];
    const state = run(doc, { fixtures: { work: { outputs: [{ ...ANSWER, done: true }] } } });
    expect(state.trail[0]).toMatchObject({ type: "move", nodeId: "start" });
    expect(state.complete).toBe(true);
  },

  "structured-means-it-reads-an-output-field": async () => {
    const doc = research();
    node(doc, 2).config.condition = '"output" = "output"';
    expect(await codes(doc)).toEqual(["CYCLE_WITHOUT_STOP /nodes/2"]);
  },

  "javascript-operators-are-read-with-a-warning": async () => {
    const [warning] = await findings(research());
    expect(warning).toMatchObject({
      code: "CONDITION_JS_OPERATOR",
      severity: "warning",
      path: "/nodes/2/config/condition",
    });
    expect(warning?.data).toMatchObject({ rewritten: "output.is_complete = true" });
  },

  "fields-are-required-unless-marked-optional": async () => {
    // The delegate needs `topic`; the delegating workflow's outputSchema has none.
    const doc = research();
    doc.autonomyLevel = 4;
    doc.edges.push({ from: "llm-1", to: "agnt-summarise@1.0.0", edgeType: "delegate" });
    const delegate = {
      ...research(),
      id: "agnt-summarise",
      version: "1.0.0",
      inputSchema: { topic: "string" },
    };
    const resolvers: Resolvers = { resolveDelegate: () => delegate };
    const mismatch = (await findings(doc, resolvers)).filter(
      (d) => d.code === "DELEGATE_CONTRACT_MISMATCH",
    );
    expect(mismatch.map((d) => [d.path, d.data.field, d.data.output])).toEqual([
      ["/edges/3/to", "topic", "workflow"],
    ]);
    const optional = { ...delegate, inputSchema: { "topic?": "string" } };
    const relaxed = await codes(doc, { resolveDelegate: () => optional });
    expect(relaxed.filter((c) => c.startsWith("DELEGATE_CONTRACT_MISMATCH"))).toEqual([]);
  },

  "a-delegate-edges-from-must-be-a-node": async () => {
    const doc = research();
    doc.autonomyLevel = 4;
    doc.edges.push({ from: "ghost", to: "agnt-summarise@1.0.0", edgeType: "delegate" });
    expect(await codes(doc)).toEqual([
      "EDGE_ENDPOINT_MISSING /edges/3/from",
      "DELEGATE_UNRESOLVED /edges/3/to",
    ]);
    const [missing] = await findings(doc);
    expect(missing?.data).toMatchObject({ endpoint: "from", id: "ghost" });
  },

  "a-route-to-a-missing-node-is-no-branch": async () => {
    const doc = research();
    node(doc, 2).config.onFalse = { next: "ghost" };
    // the seed: onTrue → end and onFalse → "ghost" are two different forward routes (level 3)
    expect(minCoherentLevel(parsed(doc))).toBe(1);
    expect(await codes(doc)).toEqual(["DECISION_ROUTE_MISSING /nodes/2/config/onFalse/next"]);
  },

  "a-feature-no-run-reaches-raises-no-level": async () => {
    const doc = research();
    doc.nodes.push({ id: "orphan", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } });
    doc.edges.push({ from: "orphan", to: "agnt-verify@1.0.0", edgeType: "delegate" });
    // the seed: any delegate edge justifies 4
    expect(minCoherentLevel(parsed(doc))).toBe(2);
    expect(await codes(doc)).toEqual([
      "NODE_UNREACHABLE /nodes/3",
      "DELEGATE_UNRESOLVED /edges/3/to",
    ]);
  },

  "rules-the-seed-does-not-have": () => {
    const ours = RULES.map((r) => r.meta.code).filter((c) => !SEED_RULES.includes(c));
    expect([...listedRules()].sort()).toEqual([...ours].sort());
    const dropped = SEED_RULES.filter((c) => !RULES.some((r) => r.meta.code === c));
    expect(dropped).toEqual(["SCHEMA_UNSUPPORTED_KEYWORD"]);
  },

  "the-final-output-is-checked-against-the-outputschema": () => {
    const state = run(research(), {
      fixtures: { "llm-1": { outputs: [{ query: "q", is_complete: true }] } },
    });
    // complete, as in the seed; the finding is beside the result
    expect(state.complete).toBe(true);
    expect(state.blockedDecision).toBeNull();
    const end = state.trail.at(-1);
    expect(end).toMatchObject({
      type: "end",
      nodeId: "dec-3",
      output: { query: "q", is_complete: true },
    });
    expect(end?.findings).toEqual([
      {
        code: "FINAL_OUTPUT_SCHEMA",
        severity: "warning",
        message: `the final output violates the workflow's outputSchema: field "answer" is missing`,
        target: { kind: "workflow" },
        path: "/outputSchema",
        data: { nodeId: "dec-3", pointer: "/answer", field: "answer" },
      },
    ]);
    // an llm's own outputSchema still stops the run at the node
    const doc = research();
    node(doc, 0).config.outputSchema = { query: "text" };
    const stopped = run(doc, { fixtures: { "llm-1": { outputs: [{ query: 3 }] } } });
    expect(stopped.blockedDecision).toMatchObject({ nodeId: "llm-1", cell: "output-schema" });
  },

  "comparing-different-types-stops-the-run": () => {
    const state = run(research(), {
      fixtures: { "llm-1": { outputs: [{ ...ANSWER, is_complete: "true" }] } },
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "condition",
      reason: "output.is_complete is a string and true is a boolean; FEEL does not convert types",
    });
  },

  "more-conditions-are-decided": () => {
    const decided = ["1 < output.n", "output.n > 1 + 1", "output.n = output.m"].map((c) => {
      const doc = research();
      node(doc, 2).config.condition = c;
      return run(doc, { fixtures: { "llm-1": { outputs: [{ ...ANSWER, n: 3, m: 3 }] } } }).complete;
    });
    expect(decided).toEqual([true, true, true]);
  },

  "params-keep-their-type": () => {
    const doc = research();
    node(doc, 1).config.params = {
      n: "{{llm-1.output.n}}",
      text: "about {{llm-1.output.topic}}",
      who: "{{input.user}}",
    };
    const state = run(doc, {
      input: { user: "ana" },
      fixtures: { "llm-1": { outputs: [{ ...ANSWER, n: 2, topic: { a: 1 } }] } },
    });
    const call = state.trail.find((r) => r.type === "move" && r.nodeId === "tool-2");
    expect(call?.params).toEqual({ n: 2, text: 'about {"a":1}', who: "ana" });
  },

  "a-budget-stops-before-the-node": () => {
    const doc = research();
    const fixtures = { "llm-1": { outputs: [{ is_complete: false }] } };
    const state = run(doc, { fixtures, budget: { maxSteps: 3 } });
    expect(state.blockedDecision).toMatchObject({ nodeId: "tool-2", cell: "budget" });
    // the seed runs tool-2 a second time, then stops at it; here its second call is not made
    const calls = state.trail.filter((r) => r.type === "move" && r.nodeId === "tool-2");
    expect(calls).toHaveLength(1);
    // the one case where the cell differs: every attempt of that node would fail
    // (the seed: llm-1 fails 4 times and stops at cell errorBoundary)
    const failing = run(doc, { fixtures: { "llm-1": { fails: 9 } }, budget: { maxTokens: 4000 } });
    expect(failing.blockedDecision).toMatchObject({ nodeId: "llm-1", cell: "budget" });
  },

  "a-hosts-budget-is-merged-over-the-documents": () => {
    // the document allows 4,096 tokens (one call of llm-1); the host adds a step limit only
    const doc = research();
    doc.budget = { maxTokens: 4096 };
    const fixtures = { "llm-1": { outputs: [{ is_complete: false }] } };
    const state = run(doc, { fixtures, budget: { maxSteps: 100 } });
    expect(state.blockedDecision).toEqual({
      nodeId: "llm-1",
      cell: "budget",
      reason: "budget.maxTokens 4096 exceeded: 8192 tokens projected",
    });
  },

  "cost-limits-in-any-currency": () => {
    const doc = research();
    doc.budget = { maxCostUSD: 0.05 };
    const state = run(doc, {
      fixtures: { "llm-1": { outputs: [{ is_complete: false }] } },
      costModel: { perNode: (n) => (n.type === "llm" ? { cost: { USD: 0.03 } } : undefined) },
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "llm-1",
      cell: "budget",
      reason: "budget.maxCostUSD 0.05 exceeded: 0.06 USD projected",
    });
  },

  "maxsteps-counts-moves-not-records": () => {
    const fixtures = { "llm-1": { outputs: [{ query: "q", is_complete: false }] } };
    // the seed's maxSteps 5 stops at llm-1 (5 records: memory, llm-1, tool-2, decision, retry)
    const state = run(research(), { fixtures, maxSteps: 5 });
    expect(state.blockedDecision).toEqual({
      nodeId: "dec-3",
      cell: "budget",
      reason: "maxSteps 5 reached: the simulation's step bound stops the run",
    });
    expect(runUsage(state)).toMatchObject({ steps: 4, moves: 5 });
    expect(() => run(research(), { maxSteps: MAX_STEPS_LIMIT + 1 })).toThrow(
      `maxSteps must be at most ${String(MAX_STEPS_LIMIT)}`,
    );
  },

  "trail-records-carry-data": () => {
    const state = run(research(), {
      fixtures: { "llm-1": { fails: 1, outputs: [{ query: "q", ...ANSWER }] } },
    });
    expect(state.trail.map((r) => [r.step, r.type, r.nodeId])).toEqual([
      [1, "boundary", "llm-1"],
      [2, "move", "llm-1"],
      [2, "boundary", "llm-1"],
      [3, "move", "tool-2"],
      [4, "decision", "dec-3"],
      [4, "end", "dec-3"],
    ]);
    expect(state.trail.map((r) => r.decorator ?? null)).toEqual([
      "errorBoundary",
      null,
      "memory",
      null,
      null,
      null,
    ]);
    expect(state.trail.at(-1)?.output).toEqual({ query: "q", ...ANSWER });
  },

  "findings-point-into-the-document": async () => {
    const doc = research();
    delete (node(doc, 2).config.onFalse as Record<string, unknown>).maxRetries;
    const [finding] = (await findings(doc)).filter((d) => d.code === "RETRY_WITHOUT_MAX");
    expect(finding).toMatchObject({
      path: "/nodes/2/config/onFalse",
      target: { kind: "node", nodeId: "dec-3" },
    });
  },
};

describe("docs/seed-compatibility.md", () => {
  it("lists exactly the differences tested here", () => {
    expect(listedDifferences().sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))("%s", async (_, check) => {
    await check();
  });
});
