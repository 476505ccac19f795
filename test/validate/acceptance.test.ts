/**
 * The acceptance cases of issue 3: the templates are clean, the seed's documents give exactly the
 * seed's results, and each seed rule fires on the right node when the Research Agent template is
 * mutated to break it — with nothing else reported.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow, Diagnostic } from "../../src/model/index.js";
import { getTemplate, parseWorkflow } from "../../src/model/index.js";
import { createValidator, isPromotable } from "../../src/validate/index.js";

const fixture = (name: string): AgentWorkflow => {
  const doc: unknown = JSON.parse(
    readFileSync(new URL(`../fixtures/agentflow/${name}`, import.meta.url), "utf8"),
  );
  const parsed = parseWorkflow(doc);
  if (parsed.workflow === undefined) throw new Error(`${name} does not parse`);
  return parsed.workflow;
};

const brief = (ds: readonly Diagnostic[]) =>
  ds.map((d) => [d.code, d.severity, d.target.kind === "node" ? d.target.nodeId : d.target.kind]);

const validate = (wf: AgentWorkflow) => createValidator().validateSync(wf);

describe("templates", () => {
  it.each(["approval-gate", "research", "document-review"])(
    "%s validates with no finding",
    (id) => {
      const wf = getTemplate(id);
      expect(wf).toBeDefined();
      if (wf !== undefined) expect(validate(wf)).toEqual([]);
    },
  );
});

describe("the seed's documents", () => {
  /** The seed's rules; other codes (e.g. CONDITION_JS_OPERATOR for `===`) are agentflow's own. */
  const SEED_RULES = new Set([
    "RETRY_WITHOUT_MAX",
    "CYCLE_WITHOUT_STOP",
    "LLM_NOT_STRUCTURED",
    "DELEGATE_REF_INVALID",
    "DELEGATE_REF_ABBREVIATED",
    "DELEGATE_UNRESOLVED",
    "EMPTY_INPUT_SCHEMA",
    "EMPTY_OUTPUT_SCHEMA",
    "EDGE_ENDPOINT_MISSING",
    "DECISION_ROUTE_MISSING",
    "DECISION_IMPLICIT_METRIC",
    "AUTONOMY_INCOHERENT",
    "PROMPT_REF_INVALID",
    "PROMPT_REF_ABBREVIATED",
    "TOOL_REF_INVALID",
    "TOOL_REF_ABBREVIATED",
    "BUDGET_MISSING",
  ]);
  const seedOnly = (ds: readonly Diagnostic[]) => ds.filter((d) => SEED_RULES.has(d.code));

  it("Handoff 12 gives exactly the seed's verdict", () => {
    const found = seedOnly(validate(fixture("handoff12-spec-research-agent.json")));
    expect(brief(found)).toEqual([
      ["PROMPT_REF_ABBREVIATED", "warning", "llm-1"],
      ["TOOL_REF_INVALID", "error", "tool-2"],
      ["DELEGATE_REF_ABBREVIATED", "warning", "edge"],
      ["DELEGATE_UNRESOLVED", "warning", "llm-1"],
      ["BUDGET_MISSING", "warning", "workflow"],
      ["AUTONOMY_INCOHERENT", "error", "workflow"],
    ]);
    expect(found.find((d) => d.code === "AUTONOMY_INCOHERENT")?.data).toMatchObject({
      declared: 2,
      justified: 4,
    });
  });

  it("the sandwich agent: DELEGATE_UNRESOLVED on plan, BUDGET_MISSING, level 4 coherent", () => {
    const all = validate(fixture("acid-test-sandwich-agent.json"));
    expect(brief(seedOnly(all))).toEqual([
      ["DELEGATE_UNRESOLVED", "warning", "plan"],
      ["BUDGET_MISSING", "warning", "workflow"],
    ]);
    expect(isPromotable(all)).toBe(true);
  });
});

describe("mutations of the Research Agent template", () => {
  type Mutable = { -readonly [K in keyof AgentWorkflow]: AgentWorkflow[K] } & Record<
    string,
    unknown
  >;
  const mutate = (edit: (wf: Mutable, nodes: Record<string, unknown>[]) => void): AgentWorkflow => {
    const wf = structuredClone(getTemplate("research")) as Mutable;
    edit(wf, wf.nodes as unknown as Record<string, unknown>[]);
    return wf;
  };
  const config = (nodes: Record<string, unknown>[], i: number) =>
    nodes[i]?.config as Record<string, unknown>;

  const cases: readonly [string, AgentWorkflow, readonly (readonly string[])[]][] = [
    [
      "missing maxRetries",
      mutate((_wf, n) => (config(n, 2).onFalse = { next: "llm-1" })),
      [["RETRY_WITHOUT_MAX", "error", "dec-3"]],
    ],
    [
      "a loop with no structured exit (the decision judges in natural language)",
      mutate((_wf, n) => {
        config(n, 2).condition = "the answer covers the question";
        config(n, 2).conditionLanguage = "text";
      }),
      [
        ["CYCLE_WITHOUT_STOP", "error", "dec-3"],
        ["DECISION_UNSTRUCTURED", "warning", "dec-3"],
      ],
    ],
    [
      "an unstructured llm feeding a structured decision",
      mutate((_wf, n) => (config(n, 0).structuredOutput = false)),
      [["LLM_NOT_STRUCTURED", "error", "llm-1"]],
    ],
    [
      "a confidence condition",
      mutate((_wf, n) => (config(n, 2).condition = "output.confidence >= 0.8")),
      [["DECISION_IMPLICIT_METRIC", "error", "dec-3"]],
    ],
    [
      "an invalid delegate",
      mutate((wf) => {
        wf.autonomyLevel = 4;
        wf.edges = [...wf.edges, { from: "llm-1", to: "agnt-verify", edgeType: "delegate" }];
      }),
      [["DELEGATE_REF_INVALID", "error", "edge"]],
    ],
    [
      "an unresolved delegate",
      mutate((wf) => {
        wf.autonomyLevel = 4;
        wf.edges = [...wf.edges, { from: "llm-1", to: "agnt-verify@1.0.0", edgeType: "delegate" }];
      }),
      [["DELEGATE_UNRESOLVED", "warning", "llm-1"]],
    ],
    [
      "empty schemas",
      mutate((wf) => {
        wf.inputSchema = {};
        wf.outputSchema = {};
      }),
      [
        ["EMPTY_INPUT_SCHEMA", "error", "workflow"],
        ["EMPTY_OUTPUT_SCHEMA", "error", "workflow"],
      ],
    ],
    [
      "a dangling edge",
      mutate(
        (wf) => (wf.edges = [...wf.edges, { from: "tool-2", to: "summarise", edgeType: "data" }]),
      ),
      [["EDGE_ENDPOINT_MISSING", "error", "edge"]],
    ],
    [
      "a dangling route",
      mutate((_wf, n) => (config(n, 2).onFalse = { next: "llm-one", maxRetries: 3 })),
      [["DECISION_ROUTE_MISSING", "error", "dec-3"]],
    ],
  ];

  it.each(cases)("%s", (_name, wf, expected) => {
    expect(brief(validate(wf))).toEqual(expected);
  });
});
