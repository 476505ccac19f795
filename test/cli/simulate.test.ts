import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDecide } from "../../src/cli/simulate.js";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import type { SimulationState } from "../../src/simulate/index.js";
import { tempDir } from "../temp.js";

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const WF = "examples/workflows/market-research.agent.json";
const FIXTURES = "examples/fixtures/market-research.fixtures.json";

describe("agentflow simulate", () => {
  it("prints the trail one record per line and completes (exit 0)", async () => {
    const result = await run("simulate", WF, "--fixtures", FIXTURES);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.map((l) => l.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual([
      "1 move plan-queries",
      "1 boundary plan-queries",
      "2 move search",
      "3 decision enough-evidence",
      "4 move plan-queries",
      "4 boundary plan-queries",
      "5 move search",
      "6 decision enough-evidence",
      "6 end enough-evidence",
      "✔ complete in",
    ]);
    expect(lines.at(-1)).toContain('"is_complete":true');
  });

  it("exits 1 when the run blocks, naming the node, cell and reason", async () => {
    const result = await run(
      "simulate",
      WF,
      "--decide",
      "enough-evidence=onFalse,onFalse,onFalse,onFalse",
      "--fixtures",
      FIXTURES,
    );
    expect(result.code).toBe(1);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(
      "✖ blocked at enough-evidence (onFalse) after 8 steps (12 moves): retry exhausted after 3 attempts",
    );
  });

  it("completes (exit 0) when the final output breaks the outputSchema, saying so beside it", async () => {
    const dir = tempDir("agentflow-simulate-");
    const file = join(dir, "fixtures.json");
    const plan = { query: "q", summary: "s", is_complete: true };
    // the search finds no sources: the final output lacks the `sources` the workflow promises
    writeFileSync(
      file,
      JSON.stringify({ "plan-queries": { outputs: [plan] }, search: { outputs: [{}] } }),
    );
    const message = `the final output violates the workflow's outputSchema: field "sources" is missing`;
    const text = await run("simulate", WF, "--fixtures", file);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines.at(-3)).toMatch(
      new RegExp(`end +enough-evidence +run complete after 2 steps \\(3 moves\\); ${message}$`),
    );
    expect(lines.at(-2)).toBe(`✔ complete in 2 steps (3 moves); output ${JSON.stringify(plan)}`);
    expect(lines.at(-1)).toBe(`⚠ final output /sources: ${message} (FINAL_OUTPUT_SCHEMA)`);
    const json = await run("simulate", WF, "--fixtures", file, "--format", "json");
    expect(json.code).toBe(0);
    const state = JSON.parse(json.stdout) as SimulationState;
    expect([state.complete, state.blockedDecision]).toEqual([true, null]);
    expect(state.trail.at(-1)?.findings).toEqual([
      {
        code: "FINAL_OUTPUT_SCHEMA",
        severity: "warning",
        message,
        target: { kind: "workflow" },
        path: "/outputSchema",
        data: { nodeId: "enough-evidence", pointer: "/sources", field: "sources" },
      },
    ]);
    const explored = await run("simulate", WF, "--fixtures", file, "--explore");
    // the forced retry path exhausts its retries: a block, so exit 1; the end still has its finding
    expect(explored.code).toBe(1);
    expect(explored.stdout).toContain(
      `    ⚠ final output /sources: ${message} (FINAL_OUTPUT_SCHEMA)\n`,
    );
  });

  it("prints an output nested deeper than JSON.stringify goes, in text and JSON, run and explored", async () => {
    const dir = tempDir("agentflow-simulate-");
    const file = join(dir, "fixtures.json");
    const depth = 20_000;
    const deep = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    const plan = JSON.stringify({ query: "q", summary: "s", is_complete: true });
    writeFileSync(
      file,
      `{"plan-queries":{"outputs":[${plan}]},"search":{"outputs":[{"results":[],"sources":["s"],"deep":${deep}}]}}`,
    );
    const text = await run("simulate", WF, "--fixtures", file);
    expect([text.code, text.stderr]).toEqual([0, ""]);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toBe(
      `✔ complete in 2 steps (3 moves); output ${plan.slice(0, -1)},"results":[],"sources":["s"],"deep":${deep}}`,
    );
    const json = await run("simulate", WF, "--fixtures", file, "--format", "json");
    expect(json.code).toBe(0);
    const state = JSON.parse(json.stdout) as SimulationState;
    expect(state.complete).toBe(true);
    // The search's output, as recorded in the trail, keeps every level.
    expect(json.stdout).toContain(deep);
    for (const format of ["text", "json"]) {
      const explored = await run(
        "simulate",
        WF,
        "--fixtures",
        file,
        "--explore",
        "--format",
        format,
      );
      expect(explored.code).toBe(1);
      expect(explored.stderr).toBe("");
    }
  });

  it("prints JSON that is byte-identical across runs", async () => {
    const a = await run("simulate", WF, "--fixtures", FIXTURES, "--format", "json");
    const b = await run("simulate", WF, "--fixtures", FIXTURES, "--format", "json");
    expect(a.stdout).toBe(b.stdout);
    expect((JSON.parse(a.stdout) as { complete: boolean }).complete).toBe(true);
  });

  it("--explore reports coverage of every route", async () => {
    const result = await run(
      "simulate",
      WF,
      "--fixtures",
      FIXTURES,
      "--explore",
      "--format",
      "json",
    );
    const report = JSON.parse(result.stdout) as { coverage: { route: string; status: string }[] };
    expect(report.coverage.map((c) => [c.route, c.status])).toEqual([
      ["onTrue", "taken"],
      ["onFalse", "taken"],
    ]);
  });

  it("warns about fixtures for unknown nodes on stderr", async () => {
    const result = await run("simulate", WF, "--fixtures", FIXTURES, "--decide", "ghost=onTrue");
    expect(result.stderr).toContain("/decide/ghost");
  });

  it.each([
    [["simulate", "nope.json"], "agentflow: cannot read 'nope.json': no such file or directory\n"],
    [
      ["simulate", WF, "--decide", "x"],
      "agentflow: --decide expects decisionId=route[,route...], got 'x'\n",
    ],
    [
      ["simulate", WF, "--format", "sarif"],
      "agentflow: unknown format 'sarif' (expected text, json)\n",
    ],
    [
      ["simulate", WF, "--max-steps", "0"],
      "agentflow: --max-steps needs a whole number from 1 to 100000, got '0'\n",
    ],
    [
      // An unbounded loop run to a billion steps would take hours and all the memory there is.
      ["simulate", WF, "--max-steps", "1e9"],
      "agentflow: --max-steps needs a whole number from 1 to 100000, got '1e9'\n",
    ],
    [
      // `Number` reads 2e1 as 20: a count is digits only.
      ["simulate", WF, "--max-steps", "2e1"],
      "agentflow: --max-steps needs a whole number from 1 to 100000, got '2e1'\n",
    ],
    [
      ["simulate", WF, "--explore", "--decide", "a=b"],
      "agentflow: --explore forces every route itself; it cannot be combined with --decide\n",
    ],
  ])("%j is a usage error", async (argv, stderr) => {
    expect(await run(...argv)).toEqual({ code: 2, stdout: "", stderr });
  });

  it("refuses a workflow that does not parse, listing its errors", async () => {
    const result = await run("simulate", "examples/registry/payments-refund.tool.json");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a usable workflow:\n {2}.+STRUCTURE_INVALID/);
  });
});

describe("parseDecide", () => {
  it("accumulates routes per decision across repeated options", () => {
    expect(parseDecide(["d=onTrue", "d=onFalse,cases/1", "e=otherwise"])).toEqual({
      d: ["onTrue", "onFalse", "cases/1"],
      e: ["otherwise"],
    });
  });
});

describe("agentflow simulate: a user's mistakes are usage errors, never internal ones", () => {
  it.each(["constructor", "__proto__", "toString"])(
    "--decide %s=onTrue names no decision: a warning, and the run goes on",
    async (id) => {
      const result = await run("simulate", WF, "--fixtures", FIXTURES, "--decide", `${id}=onTrue`);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`agentflow: warning: /decide/${id}`);
      expect(result.stderr).not.toContain("internal error");
    },
  );

  it("a fixture with fails: -1 is exit 2, naming the file and the pointer", async () => {
    const dir = tempDir("agentflow-simulate-");
    const file = join(dir, "fixtures.json");
    writeFileSync(file, JSON.stringify({ "plan-queries": { outputs: [], fails: -1 } }));
    const result = await run("simulate", WF, "--fixtures", file);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `agentflow: ${file}: /plan-queries/fails: fixtures["plan-queries"].fails must be a non-negative integer\n`,
    );
  });

  it("the same mistake under --explore is exit 2 too", async () => {
    const dir = tempDir("agentflow-simulate-");
    const file = join(dir, "fixtures.json");
    writeFileSync(file, JSON.stringify({ search: { outputs: [1] } }));
    const result = await run("simulate", WF, "--fixtures", file, "--explore");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: /search/outputs/0: `);
  });
});
