/**
 * The IR that OpenAgentFlow's own compiler (0.1.5, `../shared/tools/openagentflow`) writes for the
 * `.oaf` sources beside it in `test/fixtures/openagentflow/` (see ORIGIN.md): every fixture of the
 * folder imports to the nodes, edges, conditions and warnings listed here, and round-trips.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  exportOpenAgentFlow,
  importOpenAgentFlow,
  OAF_LOOP_CONDITION,
  RUNTIME_DEFAULT_MODEL,
} from "../../src/interop/openagentflow/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { analyzeCondition } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

/** What a fixture imports to, in a form a table can hold. */
interface Expected {
  /** `id:model` for llm nodes, `id:decision` for decisions, in node order. */
  readonly nodes: readonly string[];
  readonly edges: readonly string[];
  /** Per decision: `[condition, next, maxRetries?]` per case, then `["otherwise", next, ...]`. */
  readonly routes: Readonly<Record<string, readonly (readonly unknown[])[]>>;
  readonly warnings: readonly (readonly [string, string])[];
}

/** The 70 terms `term(i)` joined by `operator`: the chains of `long_chains.oaf`, written flat. */
function chainOf(operator: "and" | "or", term: (i: number) => string): string {
  return Array.from({ length: 70 }, (_, i) => term(i)).join(` ${operator} `);
}

const EXPECTED: Readonly<Record<string, Expected>> = {
  "hello_ir.json": {
    nodes: ["Greeter:gemma-4-26b-a4b-it"],
    edges: [],
    routes: {},
    warnings: [["HEURISTIC", "/workflow/config/version"]],
  },
  "summarize_ir.json": {
    nodes: ["Extractor:gemini-2.0-flash", "Synthesizer:gpt-4o"],
    edges: ["Extractor -> Synthesizer"],
    routes: {},
    warnings: [["HEURISTIC", "/workflow/config/version"]],
  },
  "software_dev_ir.json": {
    nodes: [
      "Analyst:gemma-4-26b-a4b-it",
      "Architect:gemma-4-26b-a4b-it",
      "Developer:gemma-4-26b-a4b-it",
      // its tools: a decision picks one (each a tool node, back to the agent) or ends the run
      "Developer-tools:decision",
      "Developer-code_interpreter:tool",
      "Developer-file_writer:tool",
    ],
    edges: [
      "Analyst -> Architect",
      "Architect -> Developer",
      "Developer -> Developer-tools",
      "Developer-code_interpreter -> Developer",
      "Developer-file_writer -> Developer",
    ],
    routes: {
      "Developer-tools": [
        ["the agent calls its tool 'code_interpreter'", "Developer-code_interpreter"],
        ["the agent calls its tool 'file_writer'", "Developer-file_writer"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["VALUE_NORMALIZED", "/workflow/config/version"],
      ["HEURISTIC", "/agents/2/tools"],
    ],
  },
  "conditional_routing_ir.generated.json": {
    nodes: ["Reviewer:gemma-4-26b-a4b-it", "Reviewer-route:decision", "Fixer:gemma-4-26b-a4b-it"],
    edges: ["Reviewer -> Reviewer-route", "Fixer -> Reviewer"],
    routes: {
      "Reviewer-route": [
        // read unbounded: the compiler's LangGraph adapter never enforces max_iterations
        ['output.status = "rejected" and output.retry_count < 3', "Fixer"],
        ['output.status = "approved" or output.retry_count >= 3', "end"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["FIELD_DROPPED", "/state/variables/3/options/0"],
      ["HEURISTIC", "/graph/edges/0/condition"],
      // max_iterations is kept for the export, not read as a bound: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  },
  "ticket_triage_ir.generated.json": {
    nodes: [
      "Classifier:claude-3-5-sonnet-latest",
      "Classifier-route:decision",
      "Responder:gpt-4o-mini",
      "Responder-route:decision",
      `Escalator:${RUNTIME_DEFAULT_MODEL}`,
    ],
    edges: ["Classifier -> Classifier-route", "Responder -> Responder-route"],
    routes: {
      "Classifier-route": [
        ["not(output.is_spam) and output.confidence >= 0.7", "Responder"],
        ['output.is_spam = true or output.category = "junk"', "end"],
        ["otherwise", "Escalator"],
      ],
      "Responder-route": [
        ["not(output.needs_human)", "end"],
        ["otherwise", "Escalator"],
      ],
    },
    warnings: [
      ["FIELD_DROPPED", "/workflow/config/runtime"],
      ["VALUE_NORMALIZED", "/workflow/config/version"],
      ["HEURISTIC", "/agents/2/model"],
      // no loop: the bound has no route to sit on
      ["FIELD_DROPPED", "/workflow/config/max_iterations"],
    ],
  },
  "review_loop_ir.generated.json": {
    nodes: [
      `Writer:${RUNTIME_DEFAULT_MODEL}`,
      "Critic:gemini-2.0-flash",
      "Critic-route:decision",
      `Publisher:${RUNTIME_DEFAULT_MODEL}`,
    ],
    edges: ["Writer -> Critic", "Critic -> Critic-route"],
    routes: {
      "Critic-route": [
        ["not(output.approved) or output.score < 7", "Writer"],
        ["not(not(output.approved)) and output.score >= 7", "Publisher"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["HEURISTIC", "/agents/0/model"],
      ["HEURISTIC", "/graph/edges/1/condition"],
      // max_iterations is kept for the export, not read as a bound: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  },
  "catalog_enrichment_ir.generated.json": {
    nodes: [
      "Tagger:gpt-4o",
      "Tagger-tools:decision",
      "Tagger-web_search:tool",
      "Tagger-catalog_lookup:tool",
      "Summarizer:local-llama-3-8b",
    ],
    // the edge Tagger -> Summarizer is the tool decision's otherwise: Tagger goes on after its tools
    edges: [
      "Tagger -> Tagger-tools",
      "Tagger-web_search -> Tagger",
      "Tagger-catalog_lookup -> Tagger",
    ],
    routes: {
      "Tagger-tools": [
        ["the agent calls its tool 'web_search'", "Tagger-web_search"],
        ["the agent calls its tool 'catalog_lookup'", "Tagger-catalog_lookup"],
        ["otherwise", "Summarizer"],
      ],
    },
    warnings: [
      ["FIELD_DROPPED", "/workflow/config/batch_size"],
      ["FIELD_DROPPED", "/workflow/config/strict"],
      ["FIELD_DROPPED", "/state/variables/5/options/0"],
      ["FIELD_DROPPED", "/state/variables/6/options/0"],
      ["FIELD_DROPPED", "/state/variables/6/options/1"],
      ["HEURISTIC", "/agents/0/tools"],
    ],
  },
  "bounded_loop_ir.generated.json": {
    nodes: ["Drafter:gpt-4o", "Reviewer:claude-3-5-sonnet-latest", "Reviewer-loop:decision"],
    edges: ["Drafter -> Reviewer", "Reviewer -> Reviewer-loop"],
    routes: {
      // `Reviewer -> Drafter` and `Reviewer -> end`, both unconditional, under max_iterations 4
      "Reviewer-loop": [
        [OAF_LOOP_CONDITION, "Drafter"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["HEURISTIC", "/graph/terminals/0"],
      // max_iterations is kept for the export, not read as a bound: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  },
  "fan_out_end_ir.generated.json": {
    nodes: [
      "Summarizer:gpt-4o-mini",
      "Notifier:claude-3-5-haiku-latest",
      "Archiver:gemini-2.0-flash",
    ],
    edges: ["Summarizer -> Notifier", "Summarizer -> Archiver"],
    routes: {},
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      // `Summarizer -> end` beside two other successors: no loop, so a fan-out
      ["FIELD_DROPPED", "/graph/terminals/0"],
      ["HEURISTIC", "/graph/edges/1"],
      ["FIELD_DROPPED", "/workflow/config/max_iterations"],
    ],
  },
  "loop_fallback_ir.generated.json": {
    nodes: [
      "Reader:gpt-4o",
      "Checker:gpt-4o",
      "Checker-route:decision",
      "Checker-loop:decision",
      "Escalator:gpt-4o",
      "Logger:gpt-4o-mini",
    ],
    edges: ["Reader -> Checker", "Checker -> Checker-route"],
    routes: {
      "Checker-route": [
        ["output.urgent = true", "Escalator"],
        ["otherwise", "Checker-loop"],
      ],
      "Checker-loop": [
        [OAF_LOOP_CONDITION, "Reader"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["HEURISTIC", "/graph/terminals/0"],
      // a decision has one fallback: the bounded loop; `Checker -> Logger` is declared
      ["FIELD_DROPPED", "/graph/edges/3"],
      // max_iterations is kept for the export, not read as a bound: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  },
  // every shape an agent's tools are wired in: beside a fan-out (Payer: one more branch), before
  // an agent (Notifier), before its conditional routes (Auditor, whose going on leads back into
  // the loop max_iterations was meant to bound), before the end (Closer)
  "agent_tools_ir.generated.json": {
    nodes: [
      "Judge:gpt-4o",
      "Judge-route:decision",
      "Payer:gpt-4o",
      "Payer-tools:decision",
      "Payer-wire_money:tool",
      "Payer-lookup_account:tool",
      "Notifier:gpt-4o-mini",
      "Notifier-tools:decision",
      "Notifier-render_letter:tool",
      "Auditor:gpt-4o-mini",
      "Auditor-tools:decision",
      "Auditor-read_ledger:tool",
      "Auditor-route:decision",
      "Closer:gpt-4o-mini",
      "Closer-tools:decision",
      "Closer-send_email:tool",
    ],
    edges: [
      "Judge -> Judge-route",
      "Payer -> Notifier",
      "Payer -> Auditor",
      "Payer -> Payer-tools",
      "Payer-wire_money -> Payer",
      "Payer-lookup_account -> Payer",
      "Notifier -> Notifier-tools",
      "Notifier-render_letter -> Notifier",
      "Auditor -> Auditor-tools",
      "Auditor-read_ledger -> Auditor",
      "Closer -> Closer-tools",
      "Closer-send_email -> Closer",
    ],
    routes: {
      "Judge-route": [
        ["output.approved = true", "Payer"],
        ["output.approved = false", "end"],
        ["otherwise", "end"],
      ],
      "Payer-tools": [
        ["the agent calls its tool 'wire_money'", "Payer-wire_money"],
        ["the agent calls its tool 'lookup_account'", "Payer-lookup_account"],
        ["otherwise", "end"],
      ],
      "Notifier-tools": [
        ["the agent calls its tool 'render_letter'", "Notifier-render_letter"],
        ["otherwise", "Closer"],
      ],
      "Auditor-tools": [
        ["the agent calls its tool 'read_ledger'", "Auditor-read_ledger"],
        ["otherwise", "Auditor-route"],
      ],
      "Auditor-route": [
        ['output.log = "mismatch"', "Judge"],
        ["otherwise", "end"],
      ],
      "Closer-tools": [
        ["the agent calls its tool 'send_email'", "Closer-send_email"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["HEURISTIC", "/graph/edges/0/condition"],
      ["HEURISTIC", "/graph/edges/2"],
      ["HEURISTIC", "/agents/1/tools"],
      ["HEURISTIC", "/agents/2/tools"],
      ["HEURISTIC", "/agents/3/tools"],
      ["HEURISTIC", "/agents/4/tools"],
      // max_iterations is kept for the export, not read as a bound: its runtime never enforces it
      ["HEURISTIC", "/workflow/config/max_iterations"],
    ],
  },
  // the compiler nests a chain of one operator to the left, one level per term: 70 terms were
  // refused as "nested too deeply" (a limit of 64); a chain is one level, written flat
  "long_chains_ir.generated.json": {
    nodes: ["Triage:gpt-4o", "Triage-route:decision", "Known:gpt-4o", "Rare:gpt-4o"],
    edges: ["Triage -> Triage-route"],
    routes: {
      "Triage-route": [
        [chainOf("or", (i) => `output.code = "C${String(i)}"`), "Known"],
        [chainOf("and", (i) => `output.n != ${String(i)}`), "Rare"],
        ["otherwise", "end"],
      ],
    },
    warnings: [["HEURISTIC", "/workflow/config/version"]],
  },
  "precedence_probe_ir.generated.json": {
    nodes: [
      `Gate:${RUNTIME_DEFAULT_MODEL}`,
      "Gate-route:decision",
      "Fast:gemma-3-27b-it",
      "Slow:o3-mini",
    ],
    edges: ["Gate -> Gate-route"],
    routes: {
      "Gate-route": [
        // the compiler binds `not` tighter than `==`: `not status == "open"` is (not status) == "open"
        ['not(output.status) = "open"', "Fast"],
        ["output.urgent or (output.ready and output.priority > 2)", "Slow"],
        ["(output.urgent and output.ready) or (output.escalate and not(output.blocked))", "end"],
        ["otherwise", "end"],
      ],
    },
    warnings: [
      ["HEURISTIC", "/workflow/config/version"],
      ["HEURISTIC", "/agents/0/model"],
      ["HEURISTIC", "/graph/edges/0/condition"],
    ],
  },
};

function route(r: { next: string; maxRetries?: number }, first: string): unknown[] {
  return r.maxRetries === undefined ? [first, r.next] : [first, r.next, r.maxRetries];
}

function summary(wf: AgentWorkflow): Omit<Expected, "warnings"> {
  const routes: Record<string, unknown[][]> = {};
  for (const n of wf.nodes) {
    if (n.type !== "decision" || !("cases" in n.config)) continue;
    routes[n.id] = [
      ...n.config.cases.map((c) => route(c, c.condition)),
      route(n.config.otherwise, "otherwise"),
    ];
  }
  return {
    nodes: wf.nodes.map((n) => `${n.id}:${n.type === "llm" ? n.config.model : n.type}`),
    edges: wf.edges.map((e) => `${e.from} -> ${e.to}`),
    routes,
  };
}

const DIR = new URL("../fixtures/openagentflow/", import.meta.url);
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort();

describe("OpenAgentFlow fixtures", () => {
  it("the table lists every IR fixture of the folder, and each .oaf source has its IR", () => {
    expect(FILES).toEqual(Object.keys(EXPECTED).sort());
    for (const oaf of readdirSync(DIR).filter((f) => f.endsWith(".oaf"))) {
      const ir = `${oaf.replace(/\.oaf$/, "").replaceAll("-", "_")}_ir`;
      expect(FILES.some((f) => f.startsWith(`${ir}.`) || f === `${ir}.json`)).toBe(true);
    }
  });

  describe.each(FILES)("%s", (file) => {
    const expected = EXPECTED[file];
    const doc = (): unknown => readFixture(`openagentflow/${file}`);

    it("imports to the listed nodes, edges, routes and warnings", () => {
      const { workflow, warnings } = importOpenAgentFlow(doc());
      expect(summary(workflow)).toStrictEqual({
        nodes: expected?.nodes,
        edges: expected?.edges,
        routes: expected?.routes,
      });
      expect(codes(warnings)).toEqual(expected?.warnings);
    });

    it("every condition is FEEL that parses, but the bounded loop's and the tool calls', which are text", () => {
      for (const n of importOpenAgentFlow(doc()).workflow.nodes) {
        if (n.type !== "decision" || !("cases" in n.config)) continue;
        for (const c of n.config.cases) {
          if (n.config.conditionLanguage === "text")
            expect(c.condition).toMatch(/^(iterations remain|the agent calls its tool ')/);
          else expect(analyzeCondition(c.condition).ok).toBe(true);
        }
      }
    });

    it("round-trips: import → export → import is deep-equal, nothing else declared", () => {
      const first = importOpenAgentFlow(doc());
      const exported = exportOpenAgentFlow(first.workflow);
      expect(codes(exported.warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
      expect(importOpenAgentFlow(exported.document).workflow).toStrictEqual(first.workflow);
    });
  });
});

describe("model: null (the runtime's default model)", () => {
  it("review_loop: one HEURISTIC names every agent concerned, with its source pointer", () => {
    const { warnings } = importOpenAgentFlow(
      readFixture("openagentflow/review_loop_ir.generated.json"),
    );
    const defaulted = warnings.filter((w) => w.path.endsWith("/model"));
    expect(defaulted).toEqual([
      {
        code: "HEURISTIC",
        message: expect.stringContaining("'Writer', 'Publisher'") as unknown,
        path: "/agents/0/model",
        data: {
          model: "runtime-default",
          agents: [
            { agentId: "Writer", nodeId: "Writer", path: "/agents/0/model" },
            { agentId: "Publisher", nodeId: "Publisher", path: "/agents/2/model" },
          ],
        },
      },
    ]);
  });

  it("ticket_triage: an explicit provider stays beside the default model", () => {
    const { workflow } = importOpenAgentFlow(
      readFixture("openagentflow/ticket_triage_ir.generated.json"),
    );
    expect(workflow.nodes.find((n) => n.id === "Escalator")?.config).toStrictEqual({
      model: "runtime-default",
      promptRef: "prm:Escalator@1.0.0",
      structuredOutput: true,
      outputSchema: { reply: "text" },
      provider: "anthropic",
    });
  });

  it("the export writes null back for runtime-default, and the model otherwise", () => {
    const { workflow } = importOpenAgentFlow(
      readFixture("openagentflow/review_loop_ir.generated.json"),
    );
    const { document } = exportOpenAgentFlow(workflow);
    expect(document.agents.map((a) => [a.id, a.model, a.provider])).toEqual([
      ["Writer", null, null],
      ["Critic", "gemini-2.0-flash", "gemini"],
      ["Publisher", null, null],
    ]);
  });

  it("a renamed agent is listed with its node id", () => {
    const doc = readFixture("openagentflow/hello_ir.json") as {
      agents: Record<string, unknown>[];
      graph: { entrypoint: string; terminals: { source: string }[] };
    };
    const [agent] = doc.agents;
    if (agent === undefined || doc.graph.terminals[0] === undefined) throw new Error("no agent");
    doc.agents[0] = { ...agent, id: "1st greeter", model: null };
    doc.graph.entrypoint = "1st greeter";
    doc.graph.terminals[0].source = "1st greeter";
    const warning = importOpenAgentFlow(doc).warnings.find((w) => w.path === "/agents/0/model");
    expect(warning?.data).toEqual({
      model: "runtime-default",
      agents: [{ agentId: "1st greeter", nodeId: "a-1st-greeter", path: "/agents/0/model" }],
    });
  });
});
