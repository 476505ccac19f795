/**
 * Honest exits (issue 17): 0 allowed or clean, 1 blocked or errors, 2 a usage mistake or
 * unreadable input, said in one line and never as a pass; never 3 for a user's input.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const GOOD = "examples/workflows/market-research.agent.json";

describe("an unreadable file is never shown as passing", () => {
  const dir = tempDir("agentflow-exits-");
  const empty = join(dir, "empty.json");
  writeFileSync(empty, "");

  it("text: listed with its error and counted, exit 2", async () => {
    const result = await run("check", empty, GOOD);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain(`${empty}  ✔`);
    expect(result.stdout).toContain(
      `${empty}\n  1:1  error    The text is empty; a JSON value was expected.  SYNTAX_ERROR\n`,
    );
    expect(result.stdout).toContain(`${GOOD}  ✔ no problems`);
    expect(result.stdout).toContain("✖ 1 problem (1 error, 0 warnings) in 2 files checked");
    expect(result.stdout).not.toContain("no problems\n\n✔");
    expect(result.stderr).toBe(
      `agentflow: ${empty}:1:1: The text is empty; a JSON value was expected.\n`,
    );
  });

  it.each([
    ["json", /"code": "SYNTAX_ERROR"/],
    ["sarif", /"ruleId": "SYNTAX_ERROR"/],
    ["junit", /<failure type="SYNTAX_ERROR"/],
    ["github", /^::error file=.*empty\.json,line=1,col=1,title=SYNTAX_ERROR::/m],
  ])("%s: the file carries its error, exit 2", async (format, shown) => {
    const result = await run("check", "--format", format, empty, GOOD);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(shown);
  });
});

describe("a path that is not a regular file", () => {
  it("a FIFO is refused at once with a message, not read (which would wait forever)", async () => {
    const dir = tempDir("agentflow-fifo-");
    const fifo = join(dir, "pipe.agent.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    for (const argv of [
      ["check", fifo],
      ["simulate", fifo],
      ["convert", fifo, "--to", "mermaid"],
      ["report", fifo, "-o", join(dir, "r.md")],
      ["simulate", GOOD, "--fixtures", fifo],
    ]) {
      const result = await run(...argv);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: `agentflow: cannot read '${fifo}': it is a FIFO (named pipe), not a regular file\n`,
      });
    }
    const gate = join(dir, "pipe.bpmn");
    spawnSync("mkfifo", [gate]);
    expect((await run("gate", gate)).stderr).toBe(
      `agentflow: cannot read '${gate}': it is a FIFO (named pipe), not a regular file\n`,
    );
  }, 20_000);

  it("a character device is refused the same way", async () => {
    const result = await run("simulate", "/dev/null");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "agentflow: cannot read '/dev/null': it is a character device, not a regular file\n",
    );
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});

describe("writing the output", () => {
  it("convert X -o X is refused, the input kept, unless --force", async () => {
    const dir = tempDir("agentflow-overwrite-");
    const file = join(dir, "research.agent.json");
    const text = readFileSync(GOOD, "utf8");
    writeFileSync(file, text);
    const refused = await run("convert", file, "--to", "mermaid", "-o", file);
    expect(refused).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: -o '${file}' is the input file, which this run reads; writing it would replace what was read (add --force to overwrite it)\n`,
    });
    expect(readFileSync(file, "utf8")).toBe(text);
    // Another name for the same file is the same file.
    const link = join(dir, "link.json");
    symlinkSync(file, link);
    expect((await run("convert", file, "--to", "langgraph", "-o", link)).code).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(text);
    const forced = await run("convert", file, "--to", "mermaid", "-o", file, "--force");
    expect(forced.code).toBe(0);
    expect(readFileSync(file, "utf8")).toMatch(/^flowchart /);
  });

  it.each([
    ["report", ["examples/processes/loan-origination.bpmn", "-o", "/missing/dir/r.html"]],
    ["convert", [GOOD, "--to", "agentflow", "-o", "/missing/dir/r.json"]],
  ])("%s -o into a missing folder says so in the CLI's words", async (command, args) => {
    const result = await run(command, ...args);
    const out = args.at(-1) ?? "";
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: cannot write '${out}': its folder '/missing/dir' does not exist\n`,
    });
  });

  it("report -o onto a directory is refused", async () => {
    const dir = tempDir("agentflow-outdir-");
    const out = join(dir, "r.md");
    mkdirSync(out);
    const result = await run("report", GOOD, "-o", out);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`agentflow: cannot write '${out}': it is a directory\n`);
  });
});

describe("a fixtures file written wrong", () => {
  it.each([
    ["simulate", (f: string) => ["simulate", GOOD, "--fixtures", f]],
    ["report", (f: string) => ["report", GOOD, "--fixtures", f, "-o", `${f}.md`]],
  ])("%s says which file and which value (exit 2), never exit 3", async (_command, argv) => {
    const dir = tempDir("agentflow-bad-fixtures-");
    // A workflow given as fixtures: its "$schema" is no node's fixture.
    const file = join(dir, "wrong.fixtures.json");
    writeFileSync(file, readFileSync(GOOD, "utf8"));
    const result = await run(...argv(file));
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: ${file}: /$schema: fixtures["$schema"] must be an object\n`,
    });
  });
});
