import { describe, expect, it } from "vitest";
import { minCoherentLevel } from "../../src/autonomy/index.js";
import { detectFormat, importDocument } from "../../src/interop/index.js";
import { detectOpenAgentFlow, importOpenAgentFlow } from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { analyzeCondition, parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const DIR = "openagentflow/";
const HELLO = `${DIR}hello_ir.json`;
const SUMMARIZE = `${DIR}summarize_ir.json`;
const SOFTWARE = `${DIR}software_dev_ir.json`;
const ROUTING = `${DIR}conditional_routing_ir.generated.json`;

const REVIEWER_TEXT =
  "Review the following Python code snippet.\nIf the code is correct, efficient, and well-documented, set status to 'approved' and review_feedback to 'Looks good'.\nIf there are issues, set status to 'rejected' and provide specific review_feedback on what to fix.\nRespond with valid JSON matching the output variables.";
const FIXER_TEXT =
  "Fix the Python code based on the review_feedback.\nOutput the updated code_snippet.\nAlways output retry_count as 1 (this will increment the total count).\nRespond with valid JSON matching the output variables.";

const HELLO_WORKFLOW: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "hello",
  version: "1.0.0",
  name: "Hello",
  autonomyLevel: 1,
  inputSchema: {},
  outputSchema: {},
  nodes: [
    {
      id: "Greeter",
      type: "llm",
      config: { model: "gemma-4-26b-a4b-it", promptRef: "prm:Greeter@1.0.0", provider: "gemini" },
    },
  ],
  edges: [],
  metadata: {
    openagentflow: { agents: { Greeter: { instructions: "Say hello to the user.", inputs: [] } } },
  },
};

const ROUTING_WORKFLOW: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "code-review-loop",
  version: "1.0.0",
  name: "Code Review Loop",
  autonomyLevel: 2,
  inputSchema: { code_snippet: "text" },
  outputSchema: {
    "code_snippet?": "text",
    "review_feedback?": "text",
    "status?": "text",
    "retry_count?": "integer",
  },
  nodes: [
    {
      id: "Reviewer",
      type: "llm",
      config: {
        model: "gemma-4-26b-a4b-it",
        promptRef: "prm:Reviewer@1.0.0",
        structuredOutput: true,
        outputSchema: { status: "text", review_feedback: "text" },
        provider: "gemini",
      },
    },
    {
      id: "Reviewer-route",
      type: "decision",
      config: {
        cases: [
          {
            // no maxRetries: the compiler's runtime never enforces max_iterations (10)
            condition: 'output.status = "rejected" and output.retry_count < 3',
            next: "Fixer",
          },
          { condition: 'output.status = "approved" or output.retry_count >= 3', next: "end" },
        ],
        otherwise: { next: "end" },
      },
    },
    {
      id: "Fixer",
      type: "llm",
      config: {
        model: "gemma-4-26b-a4b-it",
        promptRef: "prm:Fixer@1.0.0",
        structuredOutput: true,
        outputSchema: { code_snippet: "text", retry_count: "integer" },
        provider: "gemini",
      },
    },
  ],
  edges: [
    { from: "Reviewer", to: "Reviewer-route", edgeType: "data" },
    { from: "Fixer", to: "Reviewer", edgeType: "data" },
  ],
  metadata: {
    openagentflow: {
      agents: {
        Reviewer: { instructions: REVIEWER_TEXT, inputs: ["code_snippet"] },
        Fixer: { instructions: FIXER_TEXT, inputs: ["code_snippet", "review_feedback"] },
      },
      // kept for the export
      maxIterations: 10,
    },
  },
};

describe("importOpenAgentFlow: exact workflows", () => {
  it.each([
    [HELLO, HELLO_WORKFLOW],
    [ROUTING, ROUTING_WORKFLOW],
  ])("%s", (path, expected) => {
    expect(importOpenAgentFlow(readFixture(path)).workflow).toStrictEqual(expected);
  });
});

const FIELDS: [string, Partial<AgentWorkflow>][] = [
  [
    SUMMARIZE,
    {
      id: "quick-summarize",
      version: "1.0.0",
      autonomyLevel: 1,
      inputSchema: { source_text: "text" },
      outputSchema: { "extracted_points?": "text", "summary?": "text" },
      edges: [{ from: "Extractor", to: "Synthesizer", edgeType: "data" }],
    },
  ],
  [
    SOFTWARE,
    {
      id: "software-development",
      version: "0.1.0",
      // the Developer's tool loop is a loop
      autonomyLevel: 2,
      inputSchema: { "requirements?": "text" },
      outputSchema: {
        "analysis?": "text",
        "architecture?": "text",
        "implementation?": "text",
        "status?": "text",
      },
      edges: [
        { from: "Analyst", to: "Architect", edgeType: "data" },
        { from: "Architect", to: "Developer", edgeType: "data" },
        { from: "Developer", to: "Developer-tools", edgeType: "data" },
        { from: "Developer-code_interpreter", to: "Developer", edgeType: "data" },
        { from: "Developer-file_writer", to: "Developer", edgeType: "data" },
      ],
      budget: { maxWallTimeMs: 600000 },
    },
  ],
];

describe("importOpenAgentFlow: exact fields", () => {
  it.each(FIELDS)("%s", (path, fields) => {
    expect(importOpenAgentFlow(readFixture(path)).workflow).toMatchObject(fields);
  });

  it("software-dev: the Developer node, then its tools as tool nodes a decision calls", () => {
    const { workflow } = importOpenAgentFlow(readFixture(SOFTWARE));
    expect(workflow.nodes.map((n) => n.id)).toEqual([
      "Analyst",
      "Architect",
      "Developer",
      "Developer-tools",
      "Developer-code_interpreter",
      "Developer-file_writer",
    ]);
    expect(workflow.nodes[2]).toStrictEqual({
      id: "Developer",
      type: "llm",
      config: {
        model: "gemma-4-26b-a4b-it",
        promptRef: "prm:Developer@1.0.0",
        structuredOutput: true,
        outputSchema: { implementation: "text", status: "text" },
        provider: "gemini",
        temperature: 0.2,
      },
    });
    expect(workflow.nodes.slice(3)).toStrictEqual([
      {
        id: "Developer-tools",
        type: "decision",
        config: {
          conditionLanguage: "text",
          cases: [
            {
              condition: "the agent calls its tool 'code_interpreter'",
              next: "Developer-code_interpreter",
            },
            { condition: "the agent calls its tool 'file_writer'", next: "Developer-file_writer" },
          ],
          otherwise: { next: "end" },
        },
      },
      {
        id: "Developer-code_interpreter",
        type: "tool",
        config: { usesTool: "tool:code_interpreter@0.0.0" },
      },
      { id: "Developer-file_writer", type: "tool", config: { usesTool: "tool:file_writer@0.0.0" } },
    ]);
    expect(workflow.metadata).toHaveProperty(
      ["openagentflow", "agents", "Developer", "tools"],
      ["code_interpreter", "file_writer"],
    );
  });
});

const WARNINGS: [string, [string, string][]][] = [
  [HELLO, [["HEURISTIC", "/workflow/config/version"]]],
  [SUMMARIZE, [["HEURISTIC", "/workflow/config/version"]]],
  [
    SOFTWARE,
    [
      ["VALUE_NORMALIZED", "/workflow/config/version"],
      ["HEURISTIC", "/agents/2/tools"],
    ],
  ],
  [
    ROUTING,
    [
      ["HEURISTIC", "/workflow/config/version"],
      ["FIELD_DROPPED", "/state/variables/3/options/0"],
      ["HEURISTIC", "/graph/edges/0/condition"],
      // max_iterations read unbounded: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  ],
];

describe("importOpenAgentFlow: warnings, exactly", () => {
  it.each(WARNINGS)("%s", (path, expected) => {
    expect(codes(importOpenAgentFlow(readFixture(path)).warnings)).toEqual(expected);
  });
});

describe.each([HELLO, SUMMARIZE, SOFTWARE, ROUTING])("%s", (path) => {
  it("parses with no error, at its justified level, detected and picked by the registry", () => {
    const doc = readFixture(path);
    const { workflow } = importOpenAgentFlow(doc);
    expect(parseWorkflow(workflow).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(workflow.autonomyLevel).toBe(minCoherentLevel(workflow));
    expect(detectOpenAgentFlow(doc)).toBe(true);
    expect(importOpenAgentFlow(readFixture(path))).toStrictEqual(importOpenAgentFlow(doc));
  });

  it("every translated condition is valid FEEL", () => {
    for (const node of importOpenAgentFlow(readFixture(path)).workflow.nodes) {
      if (node.type !== "decision" || !("cases" in node.config)) continue;
      // a tool call is the model's choice: text, as the tool decision says
      if (node.config.conditionLanguage === "text") continue;
      for (const c of node.config.cases) expect(analyzeCondition(c.condition).ok).toBe(true);
    }
  });
});

describe("detectOpenAgentFlow", () => {
  it.each([
    [
      "an AgentWorkflow",
      { kind: "AgentWorkflow", version: "1", workflow: {}, agents: [], graph: { entrypoint: "a" } },
    ],
    ["no graph entrypoint", { version: "0.1.0", workflow: {}, agents: [], graph: {} }],
    [
      "agents not an array",
      { version: "0.1.0", workflow: {}, agents: {}, graph: { entrypoint: "a" } },
    ],
    ["a LangGraph subset", readFixture("agentflow/langgraph-subset-import-fixture.json")],
    ["null", null],
  ])("does not claim %s", (_what, doc) => {
    expect(detectOpenAgentFlow(doc)).toBe(false);
  });

  it("no AgentWorkflow fixture is claimed", () => {
    for (const f of ["template-research-agent.json", "acid-test-sandwich-agent.json"]) {
      expect(detectOpenAgentFlow(readFixture(`agentflow/${f}`))).toBe(false);
    }
  });

  it("the registry does not pick it until it is listed in FORMATS (documented wiring)", () => {
    expect([undefined, "openagentflow"]).toContain(detectFormat(readFixture(HELLO))?.id);
    expect([undefined, "openagentflow"]).toContain(importDocument(readFixture(HELLO))?.format.id);
  });
});
