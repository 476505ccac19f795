/**
 * `agentflow conform`: recorded runs against a registry or an approval, in text, JSON and SARIF,
 * from files and stdin; the exit codes (0 conforming, 1 deviating or unverified, 2 a model that
 * cannot be built or a file that cannot be read), and an approval whose inputs changed refused.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { creditRisk, creditRiskRun } from "../conform/export/credit-risk.js";
import { tempDir } from "../temp.js";
import { approvedRepo, replaceIn, runIn } from "./approval-bundle.js";
import { run, STACK_LINE } from "./run.js";

/** One simulated run of `wf`: one incomplete assessment, so assess-risk runs twice. */
const otlpRun = (wf: AgentWorkflow, id: string): string => creditRiskRun(wf, id, 1);

/** The credit-risk workflow with another model: what an unapproved deployment would run. */
const otherModel: AgentWorkflow = {
  ...creditRisk,
  nodes: creditRisk.nodes.map((n) =>
    n.id === "assess-risk" && n.type === "llm"
      ? { ...n, config: { ...n.config, model: "gpt-5" } }
      : n,
  ),
};

function runsFile(...lines: string[]): string {
  const file = join(tempDir("agentflow-conform-"), "runs.jsonl");
  writeFileSync(file, lines.join(""));
  return file;
}

describe("agentflow conform --registry", () => {
  it("exits 0 when every run conforms, and says how many", async () => {
    const file = runsFile(otlpRun(creditRisk, "a"), otlpRun(creditRisk, "b"));
    const out = await run("conform", file, "--registry", "examples/registry");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      "checked against the registry examples/registry\n2 run(s): 2 conforming, 0 deviating, 0 unverified\n",
    );
  });

  it("exits 1 with each deviation, its class and the line of the event that shows it", async () => {
    const file = runsFile(otlpRun(creditRisk, "a"), otlpRun(otherModel, "b"));
    const out = await run("conform", file, "--registry", "examples/registry");
    expect(out.code).toBe(1);
    const lines = out.stdout.trim().split("\n");
    expect(lines[1]).toMatch(
      /^run [0-9a-f]{32}\/[0-9a-f]{16} \(agnt-credit-risk@1\.0\.0\): deviating$/,
    );
    const deviations = lines.filter((l) => l.startsWith("  ") && l.includes("IDENTITY_MISMATCH"));
    expect(deviations).toHaveLength(2);
    for (const line of deviations) {
      expect(line).toContain(`${file}:2 `);
      expect(line).toContain('"assess-risk" ran with model gpt-5; approved: gpt-4o');
    }
    expect(lines.at(-1)).toBe(
      "2 run(s): 1 conforming, 1 deviating, 0 unverified (IDENTITY_MISMATCH 2)",
    );
  });

  it("writes JSON with every message, and SARIF with a result per deviation at its file and line", async () => {
    const file = runsFile(otlpRun(otherModel, "b"));
    const json = await run("conform", file, "--registry", "examples/registry", "-f", "json");
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      summary: { runs: number; deviating: number; ok: boolean };
      runs: { deviations: { class: string; message: string; at: { line: number } }[] }[];
    };
    expect(report.summary).toMatchObject({ runs: 1, deviating: 1, ok: false });
    expect(report.runs[0]?.deviations.map((d) => [d.class, d.at.line])).toEqual([
      ["IDENTITY_MISMATCH", 1],
      ["IDENTITY_MISMATCH", 1],
    ]);
    const sarif = await run("conform", file, "--registry", "examples/registry", "-f", "sarif");
    const log = JSON.parse(sarif.stdout) as {
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    const results = log.runs[0]?.results ?? [];
    expect(
      results.map((r) => [r.ruleId, r.level, r.locations[0]?.physicalLocation.region.startLine]),
    ).toEqual([
      ["IDENTITY_MISMATCH", "error", 1],
      ["IDENTITY_MISMATCH", "error", 1],
    ]);
  });

  it("compares recorded prompt digests with --prompts; without the text, the run is unverified", async () => {
    const withPrompt = (text: string): string =>
      otlpRun(creditRisk, "p")
        .trim()
        .replace(
          '"key":"gen_ai.request.model"',
          `"key":"agentflow.prompt.sha256","value":{"stringValue":"${createHash("sha256").update(text).digest("hex")}"}},{"key":"gen_ai.request.model"`,
        ) + "\n";
    const prompts = tempDir("agentflow-conform-prompts-");
    writeFileSync(join(prompts, "credit-risk@1.0.0.txt"), "Assess the applicant's risk band.\n");
    const file = runsFile(withPrompt("Assess the applicant's risk band."));
    const unknown = await run("conform", file, "--registry", "examples/registry");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain("unverified PROMPT_UNKNOWN");
    const same = await run(
      "conform",
      file,
      "--registry",
      "examples/registry",
      "--prompts",
      prompts,
    );
    expect(same.stdout).toContain("1 run(s): 1 conforming");
    expect(same.code).toBe(0);
    const other = runsFile(withPrompt("Approve everyone."));
    const differs = await run(
      "conform",
      other,
      "--registry",
      "examples/registry",
      "--prompts",
      prompts,
    );
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain('"assess-risk" ran with system prompt sha256');
  });

  it("fails an empty file (nothing was checked), and says so", async () => {
    const out = await run("conform", runsFile(""), "--registry", "examples/registry");
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("no run and no process instance in");
  });

  it("says nothing checked in the summary and in JSON (ok false), not 0 of 0 conforming", async () => {
    const empty = runsFile("");
    const text = await run("conform", empty, "--registry", "examples/registry");
    expect(text.stdout.trim().split("\n").at(-1)).toBe(
      "0 run(s) and 0 process instance(s): nothing was checked, so nothing conforms",
    );
    const json = await run("conform", empty, "--registry", "examples/registry", "-f", "json");
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { summary: { ok: boolean } }).summary.ok).toBe(false);
  });

  it("reports every other run when one names no workflow, then exits 2 naming it", async () => {
    // A run whose invoke_agent span never came names no workflow; two are approved.
    const headless = JSON.parse(otlpRun(creditRisk, "h")) as {
      resourceSpans: {
        scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[];
      }[];
    };
    for (const scope of headless.resourceSpans[0]?.scopeSpans ?? []) {
      scope.spans = scope.spans.filter(
        (span) => !span.attributes.some((a) => JSON.stringify(a).includes('"invoke_agent"')),
      );
    }
    const file = runsFile(otlpRun(otherModel, "b"), JSON.stringify(headless) + "\n");
    const out = await run("conform", file, "--registry", "examples/registry");
    expect(out.code).toBe(2);
    expect(out.stdout).toContain("IDENTITY_MISMATCH");
    expect(out.stdout).toMatch(/unverified RUN_UNFINISHED/);
    expect(out.stderr).toMatch(/names no workflow and 2 are approved .*--workflow <id@version>/);
  });

  it("calls a tool call whose arguments were not recorded unverified, not conforming", async () => {
    const line = otlpRun(creditRisk, "n").replace(
      /\{"key":"gen_ai\.tool\.call\.arguments","value":\{"stringValue":"[^"\\]*(?:\\.[^"\\]*)*"\}\},?/g,
      "",
    );
    expect(line).not.toContain("gen_ai.tool.call.arguments");
    const out = await run("conform", runsFile(line), "--registry", "examples/registry");
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("unverified ARGUMENTS_UNRECORDED");
  });

  it("reads stdin with -, through the built CLI", () => {
    const out = spawnSync(
      process.execPath,
      ["bin/agentflow.js", "conform", "-", "--registry", "examples/registry"],
      {
        input: otlpRun(otherModel, "s"),
        encoding: "utf8",
      },
    );
    expect(out.status).toBe(1);
    expect(out.stdout).toContain("-:1 ");
    expect(out.stdout).toContain("IDENTITY_MISMATCH");
  });

  it.each([
    [
      ["conform", "x.jsonl"],
      "give the approved model: --approval <approval.json> or --registry <dir>",
    ],
    [
      ["conform", "missing.jsonl", "--registry", "examples/registry"],
      "missing.jsonl: cannot be read (ENOENT)",
    ],
    [
      ["conform", "x.jsonl", "--registry", "examples/registry", "--source", "csv"],
      "unknown --source 'csv'",
    ],
    [
      ["conform", "x.jsonl", "--registry", "examples/registry", "--workflow", "agnt-nope@1.0.0"],
      "--workflow agnt-nope@1.0.0 is not among the approved workflows",
    ],
  ])("exits 2 on a usage mistake: %j", async (argv, message) => {
    const out = await run(...argv);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
    expect(out.stderr).not.toMatch(STACK_LINE);
  });

  it("exits 2 for a file whose source it cannot tell, and names --source", async () => {
    const file = runsFile('{"hello":"world","n":1}\n');
    const out = await run("conform", file, "--registry", "examples/registry");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `${file}: cannot tell which source wrote it from its first record; give --source`,
    );
  });

  it("says a line that is not JSON as an unread record, and fails closed (exit 1)", async () => {
    const file = runsFile(otlpRun(creditRisk, "a"), "{not json\n");
    const out = await run("conform", file, "--registry", "examples/registry");
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(`unread record ${file}:2: not JSON:`);
    expect(out.stdout).toContain(
      "1 run(s): 1 conforming, 0 deviating, 0 unverified; 1 record(s) unread",
    );
  });
});

describe("agentflow conform --registry with a conflicting id@version", () => {
  /** examples/registry with a second, different agnt-credit-risk@1.0.0 (`other.agent.json`). */
  function conflicting(): string {
    const dir = tempDir("agentflow-conform-conflict-");
    cpSync("examples/registry", dir, { recursive: true });
    const text = readFileSync(join(dir, "credit-risk.agent.json"), "utf8");
    writeFileSync(join(dir, "other.agent.json"), text.replace('"maxSteps": 9', '"maxSteps": 90'));
    return dir;
  }

  it.each([[[]], [["--process", "examples/processes/refund-triage.bpmn"]]])(
    "refuses (exit 2, naming the conflict) rather than approve the first definition: %j",
    async (extra) => {
      const registry = conflicting();
      const out = await run(
        "conform",
        runsFile(otlpRun(creditRisk, "a")),
        "--registry",
        registry,
        ...extra,
      );
      expect(out.code).toBe(2);
      expect(out.stdout).toBe("");
      expect(out.stderr).toContain("agnt-credit-risk@1.0.0 is defined with different content in");
      expect(out.stderr).toContain(join(registry, "other.agent.json"));
      expect(out.stderr).toContain("REGISTRY_CONFLICT");
      expect(out.stderr).not.toMatch(STACK_LINE);
    },
  );
});

describe("agentflow conform --approval", () => {
  let repo: string;
  beforeAll(async () => {
    ({ repo } = await approvedRepo());
  });

  it("checks runs against the workflows the approval approved", async () => {
    writeFileSync(
      join(repo, "runs.jsonl"),
      otlpRun(creditRisk, "a") + otlpRun({ ...creditRisk, version: "1.1.0" }, "b"),
    );
    const out = await runIn(repo, "conform", "runs.jsonl", "--approval", "approval.json");
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("checked against the approval approval.json");
    expect(out.stdout).toContain(
      "VERSION_UNAPPROVED  the run is of workflow agnt-credit-risk@1.1.0, which was never approved (approved: agnt-credit-risk@1.0.0)",
    );
    expect(out.stdout).toContain("2 run(s): 1 conforming, 1 deviating, 0 unverified");
  });

  it("refuses (exit 2) when what the approval approved has changed since", async () => {
    replaceIn(join(repo, "registry/credit-risk.agent.json"), '"maxSteps": 9', '"maxSteps": 90');
    writeFileSync(join(repo, "runs.jsonl"), otlpRun(creditRisk, "a"));
    const out = await runIn(repo, "conform", "runs.jsonl", "--approval", "approval.json");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("approval.json: what the approval approved has changed");
    expect(out.stderr).toContain("registry/credit-risk.agent.json");
    replaceIn(join(repo, "registry/credit-risk.agent.json"), '"maxSteps": 90', '"maxSteps": 9');
  });

  // As verify takes them: a config other than the approved one is drift, never passed over.
  it.each([
    { name: "--no-config", flags: ["--no-config"] },
    { name: "-c with another config", flags: ["-c", "other.config.json"] },
  ])("refuses (exit 2) a run given $name", async ({ flags }) => {
    writeFileSync(join(repo, "other.config.json"), JSON.stringify({ preset: "strict" }));
    writeFileSync(join(repo, "runs.jsonl"), otlpRun(creditRisk, "a"));
    const out = await runIn(repo, "conform", "runs.jsonl", "--approval", "approval.json", ...flags);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("approval.json: what the approval approved has changed");
    expect(out.stderr).toContain("config");
  });
});

describe("agentflow conform on a Camunda AI agent read from the BPMN", () => {
  /** One agent instance of refund-triage's Agent, in Camunda's history, standard fields only. */
  function history(options: { model: string; prompt: string; tool: string }): string {
    const item = (key: number, role: string, extra: object): string =>
      JSON.stringify({
        historyItemKey: String(7000 + key),
        historyItemId: `hi-${key}`,
        agentInstanceKey: "9001",
        elementInstanceKey: "8001",
        loopIteration: key,
        role,
        content: [],
        toolCalls: [],
        metrics: null,
        commitStatus: "COMMITTED",
        producedAt: `2026-12-01T09:00:0${key}.000Z`,
        tools: [],
        model: null,
        provider: null,
        limits: { maxModelCalls: -1, maxTokens: -1, maxToolCalls: -1 },
        systemPrompt: [],
        ...extra,
      });
    const call = { toolCallId: "c1", toolName: options.tool, elementId: options.tool };
    return [
      item(0, "CONFIGURATION", {
        model: options.model,
        provider: "openai",
        systemPrompt: [{ contentType: "TEXT", text: options.prompt }],
      }),
      item(1, "ASSISTANT", { toolCalls: [{ ...call, arguments: { orderNumber: "42" } }] }),
      item(2, "TOOL_RESULT", {
        content: [{ contentType: "OBJECT", object: { status: "shipped" } }],
        toolCalls: [{ ...call, arguments: null }],
      }),
      item(3, "ASSISTANT", { content: [{ contentType: "TEXT", text: "Refund issued." }] }),
      JSON.stringify({
        agentInstanceKey: "9001",
        status: "COMPLETED",
        elementId: "Agent",
        processInstanceKey: "5001",
        processDefinitionId: "refund_triage",
        creationDate: "2026-12-01T09:00:00.000Z",
        completionDate: "2026-12-01T09:00:04.000Z",
      }),
    ].join("\n");
  }
  const PROMPT =
    "You are the refund desk of an online shop.\nAlways look the order up before anything else.\nNever pay out more than 100 EUR without approval.";
  const args = (file: string) => [
    "conform",
    file,
    "--registry",
    "examples/registry",
    "--process",
    "examples/processes/refund-triage.bpmn",
  ];

  it("checks the agent against the workflow derived from the BPMN: model, prompt and tools", async () => {
    const good = runsFile(history({ model: "gpt-4o", prompt: PROMPT, tool: "LookupOrder" }) + "\n");
    const ok = await run(...args(good));
    expect(ok.stdout).toContain("1 run(s): 1 conforming, 0 deviating, 0 unverified");
    expect(ok.code).toBe(0);
    const bad = runsFile(
      history({ model: "gpt-4o-mini", prompt: "You pay everything.", tool: "ShellExec" }) + "\n",
    );
    const out = await run(...args(bad));
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('"Agent" ran with model gpt-4o-mini; approved: gpt-4o');
    expect(out.stdout).toContain('"Agent" ran with system prompt sha256');
    expect(out.stdout).toContain('TOOL_UNKNOWN  the run calls tool "ShellExec"');
  });

  it("takes the system prompt from the last mapping that gives it: an object replacing it too", async () => {
    // Zeebe applies input mappings in order: the later `data.systemPrompt` object replaces the
    // prompt written before it, and that is the prompt the agent runs with.
    const bpmn = readFileSync("examples/processes/refund-triage.bpmn", "utf8").replace(
      / target="data\.systemPrompt\.prompt" \/>/,
      '$& <zeebe:input source="={prompt: &#34;Pay every refund.&#34;}" target="data.systemPrompt" />',
    );
    expect(bpmn).toContain('target="data.systemPrompt" />');
    const file = join(tempDir("agentflow-conform-prompt-object-"), "refund-triage.bpmn");
    writeFileSync(file, bpmn);
    const conform = (prompt: string) =>
      run(
        "conform",
        runsFile(history({ model: "gpt-4o", prompt, tool: "LookupOrder" }) + "\n"),
        "--registry",
        "examples/registry",
        "--process",
        file,
      );
    const replaced = await conform("Pay every refund.");
    expect(replaced.stdout).toContain("1 run(s): 1 conforming, 0 deviating, 0 unverified");
    const written = await conform(PROMPT);
    expect(written.code).toBe(1);
    expect(written.stdout).toContain('"Agent" ran with system prompt sha256');
  });
});
