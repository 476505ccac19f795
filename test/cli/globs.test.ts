/**
 * Glob patterns on the command line (quoted, as in CI), `--ignore-pattern`, `ignores` in the
 * config file, and the folders never walked (`node_modules`, `.git`).
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const GOOD = JSON.stringify({
  kind: "ToolContract",
  id: "tool:ok",
  version: "1.0.0",
  name: "ok",
  inputSchema: { q: "text" },
  outputSchema: { hits: "text[]" },
  effect: "read",
  authorization: "automatic",
});

const LOAN = "examples/processes/loan-origination.bpmn";

/** The files a text report lists, in order. */
function listed(stdout: string): string[] {
  return (
    stdout
      .split("\n")
      // The config line after the summary names a .json file too: it is not a checked file.
      .filter((line) => /^\S.*\.(json|ya?ml|bpmn)(\s|$)/.test(line) && !line.startsWith("config: "))
      .map((line) => line.split(/\s/)[0] ?? "")
  );
}

describe("glob patterns", () => {
  it("check 'examples/**/*.json' reads every match, sorted, and no fixtures", async () => {
    const result = await run("check", "examples/**/*.json");
    expect(result.code).toBe(1);
    const files = listed(result.stdout);
    expect(files).toEqual([...files].sort());
    expect(files).toContain("examples/workflows/refund-autopilot.broken.agent.json");
    expect(files).toContain("examples/registry/credit-risk.agent.json");
    expect(files.some((f) => f.includes(".fixtures."))).toBe(false);
    expect(files.some((f) => f.endsWith(".yaml"))).toBe(false);
  });

  it("a pattern that matches nothing is exit 2 saying so", async () => {
    const result = await run("check", "examples/**/*.nothing.json");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "agentflow: no .json, .yaml, .yml, .bpmn or .bpmn20.xml file matches 'examples/**/*.nothing.json'\n",
    );
  });

  it("gate takes a glob of processes", async () => {
    const result = await run("gate", "--registry", "examples/registry", "examples/**/*.bpmn");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "examples/processes/loan-origination.bpmn: promotion BLOCKED (2 blocking, 0 warning(s))",
    );
  });

  it("never reads node_modules or .git, walked or globbed", async () => {
    const dir = tempDir("agentflow-globs-");
    for (const sub of ["node_modules/pkg", ".git/objects", "src"]) {
      mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, sub, "tool.json"), GOOD);
    }
    for (const path of [dir, `${dir}/**/*.json`]) {
      const result = await run("check", path);
      expect(result.code).toBe(0);
      expect(listed(result.stdout)).toEqual([join(dir, "src", "tool.json")]);
    }
  });
});

describe("dot-files and dot-folders in a glob", () => {
  // A dot-file is read as the same file without the dot (as a walk reads it, and as an engine
  // deploying `**/*.bpmn` deploys it); a dot-folder only when the pattern names it.
  const dir = tempDir("agentflow-glob-dots-");
  for (const sub of ["src", "src/.cache", ".github/flows", ".github/flows/.old"]) {
    mkdirSync(join(dir, sub), { recursive: true });
  }
  for (const file of [
    "src/tool.json",
    "src/.hidden.tool.json",
    "src/.cache/tool.json",
    ".github/flows/tool.json",
    ".github/flows/.old/tool.json",
  ]) {
    writeFileSync(join(dir, file), GOOD);
  }
  it.each<[pattern: string, files: string[]]>([
    ["src/*.json", ["src/.hidden.tool.json", "src/tool.json"]],
    ["**/*.json", ["src/.hidden.tool.json", "src/tool.json"]],
    ["src/**/*.json", ["src/.hidden.tool.json", "src/tool.json"]],
    [".github/**/*.json", [".github/flows/tool.json"]],
    [".github/flows/.old/*.json", [".github/flows/.old/tool.json"]],
    ["src/.*/*.json", ["src/.cache/tool.json"]],
  ])("check '%s' reads %j", async (pattern, files) => {
    const result = await run("check", join(dir, pattern));
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual(files.map((file) => join(dir, file)));
  });
});

describe("ignores", () => {
  it("--ignore-pattern passes over matching files and folders, in walks and globs", async () => {
    for (const path of ["examples", "examples/**/*.json"]) {
      const result = await run(
        "check",
        "--ignore-pattern",
        "**/*.broken.agent.json",
        "--ignore-pattern",
        "examples/registry",
        path,
      );
      const files = listed(result.stdout);
      expect(files.length).toBeGreaterThan(0);
      expect(files.some((f) => f.includes("broken") || f.startsWith("examples/registry"))).toBe(
        false,
      );
    }
  });

  it("ignores in the config are relative to the config file; named files are still read", async () => {
    const dir = tempDir("agentflow-ignores-");
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "tool.json"), GOOD);
    writeFileSync(join(dir, "tool.json"), GOOD);
    const config = join(dir, "agentflow.config.json");
    writeFileSync(config, JSON.stringify({ ignores: ["generated/**"] }));
    const walked = await run("check", "-c", config, dir);
    expect(listed(walked.stdout)).toEqual([join(dir, "tool.json")]);
    const named = await run("check", "-c", config, join(dir, "generated", "tool.json"));
    expect(listed(named.stdout)).toEqual([join(dir, "generated", "tool.json")]);
  });

  it("a folder whose every file is ignored holds no file to check: exit 2, naming what was ignored", async () => {
    const result = await run("check", "--ignore-pattern", "**", "examples/workflows");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "'examples/workflows' holds no .json, .yaml, .yml, .bpmn or .bpmn20.xml file that the ignore patterns leave: they pass over 'examples/workflows/contract-review.agent.yaml', 'examples/workflows/invoice-exception-review.agent.json', 'examples/workflows/market-research.agent.json' and 1 more\n",
    );
  });

  it("a file named twice, or by a folder and a glob, is checked once, in its first place", async () => {
    const dir = tempDir("agentflow-globs-");
    mkdirSync(join(dir, "workflows"));
    mkdirSync(join(dir, "processes"));
    const flow = join(dir, "workflows", "market-research.agent.json");
    copyFileSync("examples/workflows/market-research.agent.json", flow);
    copyFileSync(LOAN, join(dir, "processes", "loan.bpmn"));
    const check = await run("check", join(dir, "workflows"), `${dir}/workflows/*.json`, flow);
    expect(check.code).toBe(0);
    expect(listed(check.stdout)).toEqual([flow]);
    expect(check.stdout).not.toContain("REGISTRY_DUPLICATE");
    expect(check.stdout).toContain("1 file checked, no problems");
    const gate = await run(
      "gate",
      "--registry",
      "examples/registry",
      join(dir, "processes"),
      `${dir}/processes/*.bpmn`,
    );
    expect(gate.code).toBe(1);
    expect(gate.stdout.match(/promotion BLOCKED/g)).toEqual(["promotion BLOCKED"]);
    expect(gate.stdout).not.toContain("2 processes");
  });

  it("a glob through symbolic-link loops checks each real file once, by its own path", async () => {
    const dir = tempDir("agentflow-globs-");
    mkdirSync(join(dir, "a"));
    writeFileSync(join(dir, "a", "x.json"), GOOD);
    symlinkSync("../a", join(dir, "a", "self"));
    symlinkSync("..", join(dir, "a", "up"));
    const result = await run("check", `${dir}/a/**/*.json`);
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual([join(dir, "a", "x.json")]);
    expect(result.stdout).not.toContain("REGISTRY_DUPLICATE");
  });

  it("an empty --ignore-pattern (an unset $VAR in CI) is exit 2 saying so, for check and gate", async () => {
    for (const command of ["check", "gate"]) {
      const result = await run(command, "--ignore-pattern", "", "examples/processes");
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "agentflow: --ignore-pattern '' is empty: give a glob pattern (is a variable unset?)\n",
      );
      expect(result.stdout).toBe("");
    }
  });
});
