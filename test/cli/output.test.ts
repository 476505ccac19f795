/**
 * `-o/--output-file` on `check` and `gate` (the report in the file, a one-line summary on
 * stderr), `--quiet` (errors only) and colour: `--color`/`--no-color`, `FORCE_COLOR`, `NO_COLOR`.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const BROKEN = "examples/workflows/refund-autopilot.broken.agent.json";
const LOAN = "examples/processes/loan-origination.bpmn";
const ESC = "\u001b[";

/** Runs with a terminal (or not) and an environment, as a shell would. */
async function runIn(
  env: Readonly<Record<string, string>>,
  isTTY: boolean,
  ...argv: string[]
): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY, env };
  const code = await main(argv, io);
  return { code, stdout };
}

describe("-o/--output-file", () => {
  it("check writes the report to the file and one summary line to stderr", async () => {
    const out = join(tempDir("agentflow-out-"), "check.sarif");
    const result = await run("check", "--format", "sarif", "-o", out, BROKEN);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`agentflow: wrote ${out}: 7 errors, 4 warnings in 1 file\n`);
    const written = readFileSync(out, "utf8");
    expect(written).toBe((await run("check", "--format", "sarif", BROKEN)).stdout);
  });

  it("gate writes the report to the file, and the exit code still says blocked", async () => {
    const out = join(tempDir("agentflow-out-"), "gate.txt");
    const result = await run("gate", "--registry", "examples/registry", "--output-file", out, LOAN);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `agentflow: wrote ${out}: 1 process(es): 0 allowed, 1 blocked, 0 unreadable\n`,
    );
    expect(readFileSync(out, "utf8")).toContain(`${LOAN}: promotion BLOCKED`);
  });

  it("a second identical run over the folder that holds the -o file does not read it", async () => {
    const dir = tempDir("agentflow-out-");
    copyFileSync(BROKEN, join(dir, "w.agent.json"));
    const out = join(dir, "gl-code-quality-report.json");
    const first = await run("check", dir, "-f", "gitlab", "-o", out);
    expect(first.code).toBe(1);
    const report = readFileSync(out, "utf8");
    for (const args of [[dir], [`${dir}/*.json`]]) {
      const again = await run("check", ...args, "-f", "gitlab", "-o", out);
      expect([again.code, again.stderr]).toEqual([first.code, first.stderr]);
      expect(readFileSync(out, "utf8")).toBe(report);
    }
    // Named as an input, it is read, and writing over it is refused.
    const named = await run("check", dir, out, "-f", "gitlab", "-o", out);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("is one of the input files");
  });

  it("refuses to write over an input file, and a missing folder, with exit 2", async () => {
    const dir = tempDir("agentflow-out-");
    const input = join(dir, "w.agent.json");
    copyFileSync(BROKEN, input);
    const over = await run("check", "-o", input, input);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain("is one of the input files");
    expect(readFileSync(input, "utf8")).toBe(readFileSync(BROKEN, "utf8"));
    const nowhere = await run("check", "-o", join(dir, "no", "x.txt"), BROKEN);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain("does not exist");
  });

  it("a bad -o is refused before anything is read; a character device is written to", async () => {
    const dir = tempDir("agentflow-out-");
    const html = join(dir, "not.bpmn");
    writeFileSync(html, "<html/>");
    for (const command of ["check", "gate"]) {
      const missing = join(dir, "missing", "dir", "f.txt");
      const nowhere = await run(command, "-o", missing, html);
      // Only the -o problem: the unreadable process was never read.
      expect([nowhere.code, nowhere.stderr]).toEqual([
        2,
        `agentflow: cannot write '${missing}': its folder '${join(dir, "missing", "dir")}' does not exist\n`,
      ]);
      const empty = await run(command, "-o", "", html);
      expect([empty.code, empty.stderr]).toEqual([
        2,
        "agentflow: -o needs a file name, got an empty path (is a variable unset?)\n",
      ]);
      const folder = await run(command, "-o", dir, html);
      expect([folder.code, folder.stderr]).toEqual([
        2,
        `agentflow: cannot write '${dir}': it is a directory\n`,
      ]);
    }
    const devNull = await run("check", "-o", "/dev/null", BROKEN);
    expect(devNull.code).toBe(1);
    expect(devNull.stderr).toBe("agentflow: wrote /dev/null: 7 errors, 4 warnings in 1 file\n");
  });
});

describe("--quiet", () => {
  it("gate's verdict line counts blocking findings only, not the warnings it hides", async () => {
    const quiet = await run("gate", "--quiet", LOAN);
    const verdict = quiet.stdout.split("\n").find((l) => l.includes(": promotion "));
    expect(verdict).toMatch(new RegExp(`^${LOAN}: promotion BLOCKED \\(\\d+ blocking\\)$`));
    const loud = await run("gate", LOAN);
    expect(loud.stdout).toMatch(/promotion BLOCKED \(\d+ blocking, \d+ warning\(s\)\)/);
  });

  it("reports errors only, in every format, and keeps the exit code", async () => {
    const text = await run("check", "--quiet", BROKEN);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("RETRY_WITHOUT_MAX");
    expect(text.stdout).not.toMatch(/^\s+\S+\s+warning/m);
    expect(text.stdout).not.toContain("BUDGET_MISSING");
    const json = await run("check", "--quiet", "--format", "json", BROKEN);
    const files = JSON.parse(json.stdout) as { diagnostics: { severity: string }[] }[];
    expect(new Set(files.flatMap((f) => f.diagnostics.map((d) => d.severity)))).toEqual(
      new Set(["error"]),
    );
    const gate = await run("gate", "--quiet", "--format", "json", LOAN);
    expect((JSON.parse(gate.stdout) as { warnings: unknown[] }).warnings).toEqual([]);
  });
});

describe("colour", () => {
  it.each([
    ["a terminal", {}, true, [], true],
    ["a pipe", {}, false, [], false],
    ["--color on a pipe", {}, false, ["--color"], true],
    ["--no-color on a terminal", {}, true, ["--no-color"], false],
    ["NO_COLOR on a terminal", { NO_COLOR: "1" }, true, [], false],
    ["an empty NO_COLOR", { NO_COLOR: "" }, true, [], true],
    ["FORCE_COLOR on a pipe", { FORCE_COLOR: "1" }, false, [], true],
    ["FORCE_COLOR=0 on a terminal", { FORCE_COLOR: "0" }, true, [], false],
    ["FORCE_COLOR over NO_COLOR", { FORCE_COLOR: "1", NO_COLOR: "1" }, false, [], true],
    ["--no-color over FORCE_COLOR", { FORCE_COLOR: "1" }, true, ["--no-color"], false],
  ] as const)("%s", async (_name, env, tty, flags, colored) => {
    for (const command of [
      ["check", BROKEN],
      ["gate", LOAN],
    ]) {
      const result = await runIn(env, tty, ...command.slice(0, 1), ...flags, ...command.slice(1));
      expect(result.stdout.includes(ESC)).toBe(colored);
    }
  });

  it("a file written with -o has no colour unless --color", async () => {
    const dir = tempDir("agentflow-out-");
    await runIn({}, true, "check", "-o", join(dir, "a.txt"), BROKEN);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).not.toContain(ESC);
    await runIn({}, false, "check", "--color", "-o", join(dir, "b.txt"), BROKEN);
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toContain(ESC);
  });

  it("FORCE_COLOR puts no colour into a file written with -o, for check and gate", async () => {
    const dir = tempDir("agentflow-out-");
    await runIn({ FORCE_COLOR: "1" }, true, "check", "-o", join(dir, "c.txt"), BROKEN);
    await runIn({ FORCE_COLOR: "1" }, false, "gate", "-o", join(dir, "g.txt"), LOAN);
    const check = readFileSync(join(dir, "c.txt"), "utf8");
    const gate = readFileSync(join(dir, "g.txt"), "utf8");
    expect(check).toContain("RETRY_WITHOUT_MAX");
    expect(gate).toContain("promotion BLOCKED");
    expect([check.includes(ESC), gate.includes(ESC)]).toEqual([false, false]);
  });
});

describe("--format gitlab", () => {
  it("check and gate write a Code Quality report whose fingerprints are stable across runs", async () => {
    const check = await run("check", "--format", "gitlab", BROKEN);
    expect(check.code).toBe(1);
    const issues = JSON.parse(check.stdout) as {
      check_name: string;
      severity: string;
      fingerprint: string;
      location: { path: string; lines: { begin: number } };
    }[];
    const retry = issues.find((i) => i.check_name === "RETRY_WITHOUT_MAX");
    expect(retry?.severity).toBe("major");
    expect(retry?.location).toEqual({ path: BROKEN, lines: { begin: 25 } });
    expect((await run("check", "--format", "gitlab", BROKEN)).stdout).toBe(check.stdout);
    const gate = await run("gate", "--registry", "examples/registry", "--format", "gitlab", LOAN);
    expect(gate.code).toBe(1);
    const blocking = JSON.parse(gate.stdout) as { check_name: string; severity: string }[];
    expect(blocking.map((i) => [i.check_name, i.severity])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "major"],
      ["TOOL_EFFECT_NEEDS_GATE", "major"],
    ]);
  });

  it("paths inside the working directory are relative, however they were given", async () => {
    const up = relative(process.cwd(), join(process.cwd(), "..", basename(process.cwd()), BROKEN));
    for (const given of [resolve(BROKEN), up]) {
      const result = await run("check", "--format", "gitlab", given);
      const issues = JSON.parse(result.stdout) as { location: { path: string } }[];
      expect(new Set(issues.map((i) => i.location.path))).toEqual(new Set([BROKEN]));
    }
  });

  it("fixing one of two findings of a code on one node leaves the other's fingerprint", async () => {
    const file = join(tempDir("agentflow-gitlab-"), "w.agent.json");
    const workflow = (type: string): string =>
      JSON.stringify({
        kind: "AgentWorkflow",
        id: "agnt-x",
        version: "1.0.0",
        name: "x",
        nodes: [
          { id: "s", type, config: 5 },
          { id: "e", type: "end" },
        ],
        edges: [{ from: "s", to: "e" }],
      });
    const report = async (): Promise<Map<string, string>> => {
      const result = await run("check", "--format", "gitlab", file);
      expect(result.code).toBe(1);
      const issues = JSON.parse(result.stdout) as { description: string; fingerprint: string }[];
      return new Map(issues.map((i) => [i.description, i.fingerprint]));
    };
    const type = '/nodes/0/type: must be one of "llm", "tool", "decision"';
    const config = "/nodes/0/config: must be an object, found an integer";
    writeFileSync(file, workflow("bogus"));
    const before = await report();
    expect([before.has(type), before.has(config)]).toEqual([true, true]);
    writeFileSync(file, workflow("llm"));
    const after = await report();
    expect(after.has(type)).toBe(false);
    // Every finding still there keeps its fingerprint; none takes the fixed one's.
    expect(after.size).toBe(before.size - 1);
    for (const [description, fingerprint] of after) {
      expect([description, fingerprint]).toEqual([description, before.get(description)]);
    }
    expect([...after.values()]).not.toContain(before.get(type));
  });
});
