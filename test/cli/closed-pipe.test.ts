/**
 * `agentflow … | head`: a reader that goes away before the report is written (a closed pipe,
 * `EPIPE`) ends the output quietly — no stack trace, nothing on stderr — and the run exits with
 * the code the command decided, so a blocked `gate … | head -1` still fails a pipeline that
 * checks. The built CLI runs with its stdout pipe closed before it starts writing: the parent
 * closes its end as soon as the child is spawned, long before the child has loaded. Any other
 * failure to write stdout (`/dev/full`, as a full disk) is said in one line, with exit 2.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = resolve("bin/agentflow.js");

/** Runs the built CLI with stdout closed at once; resolves to its exit code and stderr. */
function withStdoutClosed(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      done({ code, stderr });
    });
  });
}

/** Runs the built CLI and closes its stdout as soon as the first chunk arrives. */
function closedAfterFirstChunk(
  ...args: string[]
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.once("data", () => child.stdout.destroy());
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      done({ code, stderr });
    });
  });
}

describe("a closed stdout pipe", () => {
  it.each([
    ["templates", ["templates"], 0],
    ["check, clean", ["check", "--no-config", "examples/registry/credit-risk.agent.json"], 0],
    [
      "check, with errors, as JSON",
      ["check", "--no-config", "-f", "json", "examples/workflows"],
      1,
    ],
    [
      "gate, blocked",
      ["gate", "--no-config", "--registry", "examples/registry", "examples/processes"],
      1,
    ],
    ["convert", ["convert", "examples/workflows/market-research.agent.json", "--to", "mermaid"], 0],
  ])("%s: no trace, nothing on stderr, the command's own exit code", async (_, args, code) => {
    expect(await withStdoutClosed(...args)).toEqual({ code, stderr: "" });
  });

  it("stdout that fails otherwise (a full disk) is one line on stderr and exit 2, not a trace", () => {
    const full = openSync("/dev/full", "w");
    try {
      const result = spawnSync(process.execPath, [BIN, "templates"], {
        encoding: "utf8",
        stdio: ["ignore", full, "pipe"],
      });
      expect([result.status, result.stderr]).toEqual([
        2,
        "agentflow: cannot write the output: ENOSPC: no space left on device, write\n",
      ]);
    } finally {
      closeSync(full);
    }
  });

  it.each([
    ["--help", ["--help"]],
    ["rules as JSON", ["rules", "--no-config", "-f", "json"]],
    [
      "check as JSON",
      ["check", "--no-config", "-f", "json", "-r", "examples/registry", "examples"],
    ],
  ])(
    "%s, the pipe closed after the first chunk: no trace, nothing on stderr, the command's own code",
    async (_, args) => {
      const whole = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
      expect(whole.stdout.length).toBeGreaterThan(0);
      expect(await closedAfterFirstChunk(...args)).toEqual({ code: whole.status, stderr: "" });
    },
  );

  it("agentflow --help | head -1 prints the first line and nothing else", () => {
    const shell = spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" --help | head -1`], {
      encoding: "utf8",
    });
    expect([shell.status, shell.stdout, shell.stderr]).toEqual([
      0,
      "Usage: agentflow [options] [command]\n",
      "",
    ]);
  });

  it("help on a closed pipe exits 0 quietly too", async () => {
    expect(await withStdoutClosed("--help")).toEqual({ code: 0, stderr: "" });
  });
});
