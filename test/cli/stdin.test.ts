/**
 * `check --stdin [--stdin-filename <path>]` (and `-`): one document from stdin, checked as if it
 * were the named file — its kind from the name's extension, the config's ignores matched against
 * it, the report naming it — or, unnamed, as `<stdin>` with its kind sniffed from the text. Runs
 * the built CLI (`npm run build`) with the document on its stdin.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { readStdin } from "../../src/cli/stdin.js";
import { tempDir } from "../temp.js";

const BIN = resolve("bin/agentflow.js");
const BROKEN = readFileSync("examples/workflows/refund-autopilot.broken.agent.json", "utf8");
const YAML_WORKFLOW = readFileSync("examples/workflows/contract-review.agent.yaml", "utf8");
const CONTRACT = readFileSync("examples/registry/payments-refund.tool.json", "utf8");
const LOAN = readFileSync("examples/processes/loan-origination.bpmn", "utf8");

let repo = "";

/** The 1-based line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split("\n").length;
}

beforeAll(() => {
  repo = tempDir("agentflow-stdin-");
  writeFileSync(join(repo, "package.json"), "{}\n");
  writeFileSync(
    join(repo, "agentflow.config.json"),
    JSON.stringify({ rules: { BUDGET_MISSING: "off" }, ignores: ["generated/**"] }),
  );
});

interface Spawned {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI in the temporary repository with `input` on stdin. */
function check(input: string, ...args: string[]): Spawned {
  const done = spawnSync(process.execPath, [BIN, "check", ...args], {
    cwd: repo,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return { code: done.status, stdout: done.stdout, stderr: done.stderr };
}

interface Reported {
  readonly file: string;
  readonly kind: string;
  readonly diagnostics: readonly { code: string; location?: { line: number } }[];
}

function reported(stdout: string): Reported[] {
  return JSON.parse(stdout) as Reported[];
}

describe("check --stdin", () => {
  it("checks the document as the named file, with the config found from the working directory", () => {
    const text = check(BROKEN, "--stdin", "--stdin-filename", "agents/refund.agent.json");
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n")[0]).toBe("agents/refund.agent.json");
    // Positions are the text's (the example's lines may change: found, not hard-coded).
    const line = lineOf(BROKEN, '"autonomyLevel"');
    expect(text.stdout).toMatch(new RegExp(`^ {2}${line}:\\d+ +error .+AUTONOMY_INCOHERENT$`, "m"));
    expect(text.stdout).toContain("config: agentflow.config.json");
    // The config turned BUDGET_MISSING off; without it the same text reports it.
    expect(text.stdout).not.toMatch(/ {2}BUDGET_MISSING$/m);
    const bare = check(
      BROKEN,
      "--stdin",
      "--stdin-filename",
      "agents/refund.agent.json",
      "--no-config",
    );
    expect(bare.stdout).toMatch(/ {2}BUDGET_MISSING$/m);
    const json = check(
      BROKEN,
      "--stdin",
      "--stdin-filename",
      "agents/refund.agent.json",
      "-f",
      "json",
    );
    expect(json.code).toBe(1);
    const [result, ...rest] = reported(json.stdout);
    expect(rest).toEqual([]);
    expect(result?.file).toBe("agents/refund.agent.json");
    expect(result?.kind).toBe("AgentWorkflow");
    expect(result?.diagnostics.find((d) => d.code === "AUTONOMY_INCOHERENT")?.location?.line).toBe(
      line,
    );
  });

  it("reads the kind from the name's extension", () => {
    // A BPMN process named as JSON is read as JSON: a syntax error, exit 2, named by the name.
    const asJson = check(LOAN, "--stdin", "--stdin-filename", "p/loan.json");
    expect(asJson.code).toBe(2);
    expect(asJson.stderr).toMatch(/^agentflow: p\/loan\.json:1:1: /);
    const asBpmn = check(LOAN, "--stdin", "--stdin-filename", "p/loan.bpmn", "-f", "json");
    expect(asBpmn.code).toBe(1);
    expect(reported(asBpmn.stdout).map((r) => [r.file, r.kind])).toEqual([
      ["p/loan.bpmn", "BpmnProcess"],
    ]);
    // A workflow named as a process is not BPMN: unreadable, exit 2.
    const wrong = check(YAML_WORKFLOW, "--stdin", "--stdin-filename", "w.bpmn", "-f", "json");
    expect(wrong.code).toBe(2);
    expect(reported(wrong.stdout)[0]?.file).toBe("w.bpmn");
  });

  it("without a name, is <stdin> and sniffs the kind: BPMN, a YAML workflow, a tool contract", () => {
    const cases: [string, string, number][] = [
      [LOAN, "BpmnProcess", 1],
      [YAML_WORKFLOW, "AgentWorkflow", 0],
      [CONTRACT, "ToolContract", 0],
    ];
    for (const [input, kind, code] of cases) {
      const run = check(input, "--stdin", "-f", "json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(code);
      expect(reported(run.stdout).map((r) => [r.file, r.kind])).toEqual([["<stdin>", kind]]);
    }
    const text = check(LOAN, "--stdin");
    expect(text.stdout.split("\n")[0]).toBe("<stdin>");
    // `-` as the only path is the same as --stdin.
    const dash = check(BROKEN, "-", "-f", "json");
    expect(dash.code).toBe(1);
    expect(reported(dash.stdout)[0]?.file).toBe("<stdin>");
  });

  it("checks nothing when the config's ignores match the name, and says so", () => {
    const run = check(
      BROKEN,
      "--stdin",
      "--stdin-filename",
      "generated/refund.agent.json",
      "-f",
      "json",
    );
    expect(run.code).toBe(0);
    expect(reported(run.stdout)).toEqual([]);
    expect(run.stderr).toBe(
      "agentflow: generated/refund.agent.json is ignored by the ignore patterns; not checked\n",
    );
  });

  it("refuses other paths, a name check does not read, and --stdin-filename alone", () => {
    const cases: [string[], string][] = [
      [
        ["--stdin", "a.json"],
        "agentflow: stdin is checked alone: drop the other paths (a.json) or --stdin\n",
      ],
      [["-", "-"], "agentflow: stdin (-) can be read once\n"],
      [
        ["--stdin", "--stdin-filename", "notes.txt"],
        "agentflow: --stdin-filename 'notes.txt': unknown file type (expected .json, .yaml, .yml, .bpmn or .bpmn20.xml)\n",
      ],
      [["--stdin-filename", "a.json", "a.json"], "agentflow: --stdin-filename needs --stdin\n"],
    ];
    for (const [args, stderr] of cases) {
      const run = check(BROKEN, ...args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(stderr);
    }
  });
});

describe("reading stdin", () => {
  it("more than agentflow reads as text is exit 2 naming stdin, said once the limit is passed", async () => {
    const chunk = Buffer.alloc(600 * 1024, 0x61);
    let pulled = 0;
    // Endless: the read must stop at the limit, not wait for the end of the stream.
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(chunk);
      },
    });
    await expect(readStdin(endless, 2 ** 20)).rejects.toThrow(
      "cannot read stdin: it is more than the 1 MiB agentflow reads as text",
    );
    expect(pulled).toBeLessThan(5);
    endless.destroy();
    expect(await readStdin(Readable.from([Buffer.from("{}"), "\n"]), 2 ** 20)).toBe("{}\n");
  });
});
