/**
 * The README's demo blocks are real: each `node bin/agentflow.js …` command (the clone's own CLI;
 * agentflow is run by no registry name) followed by a `text` block is run, and its output must
 * be exactly what the README shows.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const DEMO =
  /```sh\n(?:npm install\n)?node bin\/agentflow\.js ([^\n]+)\n```\n\n```text\n([\s\S]*?)```/g;
const demos = [...readme.matchAll(DEMO)].map((m) => [m[1] ?? "", m[2] ?? ""] as const);
/** The exit code a demo's output implies: 1 for findings that block, else 0. */
function exitOf(command: string, shown: string): number {
  if (command.startsWith("gate ")) return shown.includes("promotion BLOCKED") ? 1 : 0;
  return command.startsWith("check ") ? 1 : 0;
}

describe("README", () => {
  it("shows the gate demos (a btv process, a Camunda agent, a policy pack), check and simulate", () => {
    expect(demos.map(([command]) => command.split(" ")[0])).toEqual([
      "gate",
      "gate",
      "gate",
      "check",
      "simulate",
    ]);
  });

  it.each(demos)("shows the real output of `agentflow %s`", async (command, shown) => {
    let stdout = "";
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
    const argv = command.split(" ");
    expect(await main(argv, io)).toBe(exitOf(command, shown));
    expect(stdout).toBe(shown);
  });
});
