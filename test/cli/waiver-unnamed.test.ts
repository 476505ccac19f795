/**
 * `check` of an imported document whose `id@version` its importer made up: every LangGraph
 * drawable graph imports as `langgraph-graph@0.0.0`, so a `workflow` waiver naming that, written
 * after reviewing one graph, would waive every other. It waives none of them: the finding blocks
 * (fail closed) and a WAIVER_SUBJECT_MISSING warning names the waiver and why. A document that
 * states its own `id@version` (the LangGraph JSON subset) is waived as before.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

let dir: string;

const GRAPH = (tool: string) =>
  JSON.stringify({
    nodes: [
      { id: "__start__", type: "schema", data: "__start__" },
      {
        id: "agent",
        type: "runnable",
        data: { id: ["langchain", "chat_models", "openai", "ChatOpenAI"], name: "ChatOpenAI" },
      },
      {
        id: tool,
        type: "runnable",
        data: { id: ["langgraph", "utils", "RunnableCallable"], name: tool },
      },
      { id: "__end__", type: "schema", data: "__end__" },
    ],
    edges: [
      { source: "__start__", target: "agent" },
      { source: "agent", target: tool },
      { source: tool, target: "__end__" },
    ],
  });

const SUBSET = JSON.stringify({
  id: "agnt-faq",
  name: "FAQ",
  version: "1.0.0",
  input_schema: { question: "text" },
  output_schema: { answer: "text" },
  nodes: [
    { id: "llm-1", type: "llm", data: { model: "gpt-3.5-turbo", promptRef: "prm:faq@1.0.0" } },
  ],
  edges: [],
});

const PACK = `kind: PolicyPack
name: g
version: "1"
rules:
  - id: approved-models
    severity: error
    for: workflow
    when: some m in models satisfies not(m in ["gpt-4o"])
waivers:
  - rule: approved-models
    workflow: langgraph-graph@0.0.0
    reason: b.graph.json reviewed in the pack
    grantedBy: mrc@bank.example
    expires: "2099-01-01"
`;

const waiver = (workflow: string, reason: string) => ({
  rule: "g/approved-models",
  workflow,
  reason,
  grantedBy: "mrc@bank.example",
  expires: "2099-01-01",
});

beforeAll(() => {
  dir = tempDir("agentflow-unnamed-");
  writeFileSync(join(dir, "package.json"), '{"name":"unnamed"}');
  writeFileSync(join(dir, "a.graph.json"), GRAPH("lookup"));
  writeFileSync(join(dir, "b.graph.json"), GRAPH("wire_money"));
  writeFileSync(join(dir, "faq.langgraph.json"), SUBSET);
  writeFileSync(join(dir, "g.policy.yaml"), PACK);
  writeFileSync(
    join(dir, "agentflow.config.json"),
    JSON.stringify({
      policies: ["g.policy.yaml"],
      waivers: [
        waiver("langgraph-graph@0.0.0", "a.graph.json reviewed"),
        waiver("agnt-faq@1.0.0", "faq reviewed"),
      ],
    }),
  );
});

interface Checked {
  file: string;
  diagnostics: { code: string; severity: string; waived?: unknown; data: { reason?: unknown } }[];
}

async function check(file: string): Promise<{ code: number; files: Checked[] }> {
  const home = process.cwd();
  process.chdir(dir);
  try {
    const out = await run("check", "--today", "2027-01-15", "-f", "json", file);
    return { code: out.code, files: JSON.parse(out.stdout) as Checked[] };
  } finally {
    process.chdir(home);
  }
}

describe("a workflow waiver and an imported workflow's made-up id@version", () => {
  const cases: { file: string; code: number; expected: [string, string, unknown, unknown][] }[] = [
    {
      file: "a.graph.json",
      code: 1,
      expected: [
        ["g/approved-models", "error", undefined, undefined],
        ["WAIVER_SUBJECT_MISSING", "warning", undefined, "a.graph.json reviewed"],
        ["WAIVER_SUBJECT_MISSING", "warning", undefined, "b.graph.json reviewed in the pack"],
      ],
    },
    {
      file: "b.graph.json",
      code: 1,
      expected: [
        ["g/approved-models", "error", undefined, undefined],
        ["WAIVER_SUBJECT_MISSING", "warning", undefined, "a.graph.json reviewed"],
        ["WAIVER_SUBJECT_MISSING", "warning", undefined, "b.graph.json reviewed in the pack"],
      ],
    },
    {
      file: "faq.langgraph.json",
      code: 0,
      expected: [
        [
          "g/approved-models",
          "error",
          { reason: "faq reviewed", grantedBy: "mrc@bank.example", expires: "2099-01-01" },
          undefined,
        ],
      ],
    },
  ];

  it("waives only a workflow whose id@version is its own, and says why it waived no other", async () => {
    const got = [];
    for (const c of cases) {
      const { code, files } = await check(c.file);
      const found = (files[0]?.diagnostics ?? [])
        .filter((d) => d.code.startsWith("g/") || d.code.startsWith("WAIVER_"))
        .map((d) => [
          d.code,
          d.severity,
          d.waived,
          d.code.startsWith("WAIVER_") ? d.data.reason : undefined,
        ]);
      got.push([c.file, code, found]);
    }
    expect(got).toEqual(cases.map((c) => [c.file, c.code, c.expected]));
  });

  it("judges a policy test's input as check does: a case expecting it waived fails", async () => {
    writeFileSync(
      join(dir, "t.policytest.yaml"),
      `kind: PolicyTest
name: unnamed
policies: [g.policy.yaml]
inputs: [b.graph.json]
today: 2027-01-15
waivers:
  - rule: g/approved-models
    workflow: langgraph-graph@0.0.0
    reason: a.graph.json reviewed
    grantedBy: mrc@bank.example
    expires: "2099-01-01"
results:
  - rule: approved-models
    waived: [b.graph.json#langgraph-graph@0.0.0]
`,
    );
    const home = process.cwd();
    process.chdir(dir);
    try {
      const out = await run("policy", "test", "t.policytest.yaml");
      expect(out.code).toBe(1);
      expect(out.stdout).toContain(
        "✘ g/approved-models b.graph.json#langgraph-graph@0.0.0 expected waived, got fail",
      );
    } finally {
      process.chdir(home);
    }
  });
});
