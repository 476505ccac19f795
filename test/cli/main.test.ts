import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";
import { describeRuleSet } from "../../src/bpmn/index.js";
import { AGENTFLOW_VERSION, getTemplate } from "../../src/model/index.js";

/** The rule set of a run without config or flags. */
const DEFAULT_DIGEST = describeRuleSet({
  preset: "recommended",
  workflowRules: {},
  bpmnRules: {},
  camundaAgents: "gate-required",
}).digest;

function tempFile(name: string, text: string): string {
  const dir = tempDir("agentflow-cli-");
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("agentflow check", () => {
  it("exits 1 on the examples because the broken workflow has an error", async () => {
    const result = await run("check", "examples");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("examples/workflows/market-research.agent.json  ✔ no problems");
    expect(result.stdout).toContain("examples/workflows/refund-autopilot.broken.agent.json\n");
    for (const code of [
      "AUTONOMY_INCOHERENT",
      "RETRY_WITHOUT_MAX",
      "TOOL_REF_INVALID",
      "EDGE_ENDPOINT_MISSING",
    ]) {
      expect(result.stdout).toMatch(new RegExp(`\\n {2}\\d+:\\d+ +error +.+ {2}${code}\\n`));
    }
    expect(result.stderr).toBe("");
  });

  it("exits 0 on clean documents and prints a summary", async () => {
    const result = await run("check", "examples/workflows/market-research.agent.json");
    expect(result).toEqual({
      code: 0,
      stdout: [
        "examples/workflows/market-research.agent.json  ✔ no problems",
        "",
        "✔ 1 file checked, no problems",
        "config: none",
        `rule set: ${DEFAULT_DIGEST.slice(0, 19)} (agentflow ${AGENTFLOW_VERSION}, preset recommended)`,
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("prints JSON with the document identity and content hash", async () => {
    const result = await run(
      "check",
      "--format",
      "json",
      "examples/registry/payments-refund.tool.json",
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as unknown;
    expect(parsed).toEqual([
      {
        file: "examples/registry/payments-refund.tool.json",
        kind: "ToolContract",
        id: "tool:payments-refund",
        version: "1.0.0",
        contentHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
        diagnostics: [],
        config: null,
        ruleSet: {
          agentflowVersion: AGENTFLOW_VERSION,
          preset: "recommended",
          workflowRules: {},
          bpmnRules: {},
          camundaAgents: "gate-required",
          digest: DEFAULT_DIGEST,
          changed: [],
        },
      },
    ]);
  });

  it("reads YAML workflows", async () => {
    const result = await run("check", "examples/workflows/contract-review.agent.yaml");
    expect(result.code).toBe(0);
  });

  it.each([
    [
      ["check", "does-not-exist.json"],
      "agentflow: cannot read 'does-not-exist.json': no such file or directory\n",
    ],
    [
      ["check", "README.md"],
      "agentflow: 'README.md': unknown file type (expected .json, .yaml, .yml, .bpmn or .bpmn20.xml)\n",
    ],
    [
      ["check", "--format", "xml", "examples"],
      "agentflow: unknown format 'xml' (expected text, json, sarif, junit, github, gitlab)\n",
    ],
    [
      ["templates", "nope"],
      "agentflow: no template 'nope' (known: approval-gate, research, document-review)\n",
    ],
  ])("a user mistake %j is one line on stderr and exit 2", async (argv, stderr) => {
    const result = await run(...argv);
    expect(result).toEqual({ code: 2, stdout: "", stderr });
  });

  it("a file that is not JSON is reported with its position, exit 2, no stack trace", async () => {
    const path = tempFile("bad.json", '{\n  "kind": "AgentWorkflow",\n  "id": \n}\n');
    const result = await run("check", path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^agentflow: ${path.replaceAll("/", "\\/")}:4:1: .+\n$`),
    );
    expect(result.stderr).not.toContain("    at ");
  });

  it("a lone surrogate is a located NOT_JSON_DATA error (exit 1), not a crash", async () => {
    const text = readFileSync("examples/workflows/market-research.agent.json", "utf8");
    const path = tempFile(
      "surrogate.json",
      text.replace('"name": "Market Research Agent"', '"name": "Market Research Agent \\ud800"'),
    );
    const result = await run("check", path);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "6:11  error    /name: a string holding a lone surrogate (U+D800)",
    );
    expect(result.stdout).toContain("NOT_JSON_DATA");
    expect(result.stderr).toBe("");
  });

  it("unknown options and commands are usage errors (exit 2)", async () => {
    expect((await run("check", "--bogus", "examples")).code).toBe(2);
    expect((await run("frobnicate")).code).toBe(2);
    expect((await run("check")).code).toBe(2);
  });
});

describe("agentflow check: presets, registry, formats", () => {
  it("resolves tool contracts from --registry and exits 0 on the clean examples", async () => {
    const result = await run(
      "check",
      "--registry",
      "examples/registry",
      "--format",
      "json",
      "examples/workflows/market-research.agent.json",
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { diagnostics: unknown[] }[])[0]?.diagnostics).toEqual([]);
  });

  it("reports an unknown tool when a registry is given that lacks it", async () => {
    const dir = tempDir("agentflow-reg-");
    writeFileSync(
      join(dir, "other.tool.json"),
      readFileSync("examples/registry/erp-purchase-order.tool.json"),
    );
    const result = await run(
      "check",
      "--registry",
      dir,
      "--format",
      "json",
      "examples/workflows/market-research.agent.json",
    );
    const [file] = JSON.parse(result.stdout) as { diagnostics: { code: string; path: string }[] }[];
    expect(file?.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["TOOL_UNRESOLVED", "/nodes/1/config/usesTool"],
    ]);
    expect(result.code).toBe(0);
  });

  it("--preset strict turns warnings into errors (exit 1)", async () => {
    const path = tempFile(
      "loop.agent.json",
      JSON.stringify({
        kind: "AgentWorkflow",
        id: "agnt-loop",
        version: "1.0.0",
        name: "Loop",
        autonomyLevel: 2,
        inputSchema: { q: "text" },
        outputSchema: { done: "bool" },
        nodes: [
          {
            id: "a",
            type: "llm",
            config: { model: "m", promptRef: "prm:p@1.0.0", structuredOutput: true },
          },
          {
            id: "d",
            type: "decision",
            config: {
              condition: "output.done = true",
              onTrue: { next: "end" },
              onFalse: { next: "a", maxRetries: 2 },
            },
          },
        ],
        edges: [{ from: "a", to: "d", edgeType: "data" }],
      }),
    );
    const recommended = await run("check", "--format", "json", path);
    expect(recommended.code).toBe(0);
    const strict = await run("check", "--preset", "strict", "--format", "json", path);
    expect(strict.code).toBe(1);
    const [file] = JSON.parse(strict.stdout) as {
      diagnostics: { code: string; severity: string }[];
    }[];
    expect(file?.diagnostics).toMatchObject([{ code: "BUDGET_MISSING", severity: "error" }]);
    expect((await run("check", "--max-warnings", "0", "--format", "json", path)).code).toBe(1);
    expect((await run("check", "--max-warnings", "1", "--format", "json", path)).code).toBe(0);
  });

  it.each(["sarif", "junit", "github"])("prints the examples as %s", async (format) => {
    const result = await run("check", "--format", format, "examples");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("refund-autopilot.broken.agent.json");
  });

  it.each([
    [
      ["check", "--preset", "lenient", "examples"],
      "agentflow: unknown preset 'lenient' (expected recommended, strict, all)\n",
    ],
    [
      ["check", "--max-warnings", "-1", "examples"],
      "agentflow: --max-warnings needs a whole number ≥ 0, got '-1'\n",
    ],
    [
      ["check", "--registry", "nope", "examples"],
      "agentflow: the registry (--registry): cannot read 'nope': no such file or directory\n",
    ],
  ])("%j is a usage error", async (argv, stderr) => {
    expect(await run(...argv)).toEqual({ code: 2, stdout: "", stderr });
  });

  // One folder: a second --registry would drop the first without a word.
  it.each(["gate", "check", "report", "approve", "verify", "conform"])(
    "%s --registry a -r b is a usage error",
    async (command) => {
      expect(await run(command, "--registry", "a", "-r", "b", "x")).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "agentflow: --registry is given twice ('a', then 'b'); it names one folder (list several as registry in agentflow.config.json)\n",
      });
    },
  );
});

describe("agentflow templates, --help, --version", () => {
  it("lists the templates, default first", async () => {
    const result = await run("templates");
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(["approval-gate", "research", "document-review"]);
  });

  it("prints one template as JSON that parses back to the template", async () => {
    const result = await run("templates", "research");
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { $schema: string; autonomyLevel: number };
    expect(printed.autonomyLevel).toBe(2);
    // Named first, so that an editor validates the file it is saved into.
    expect(Object.keys(printed)[0]).toBe("$schema");
    expect(printed.$schema).toBe("https://agentflow.dev/schemas/agent-workflow.schema.json");
    expect({ ...printed, $schema: undefined }).toEqual({
      $schema: undefined,
      ...getTemplate("research"),
    });
  });

  it("--version prints the package version; --help exits 0", async () => {
    const version = await run("--version");
    expect(version).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("check [options] [paths...]");
  });
});
