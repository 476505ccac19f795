/**
 * The README's demo blocks are real: each `node bin/agentflow.js …` command (the clone's own CLI;
 * agentflow is run by no registry name) followed by a `text` block is run, and its output must
 * be exactly what the README shows.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { tempDir } from "./temp.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const DEMO =
  /```sh\n(?:npm install\n)?node bin\/agentflow\.js ([^\n]+)\n```\n\n```text\n([\s\S]*?)```/g;
const demos = [...readme.matchAll(DEMO)].map((m) => [m[1] ?? "", m[2] ?? ""] as const);
/** The exit code a demo's output implies: 1 for findings that block, else 0. */
function exitOf(command: string, shown: string): number {
  if (command.startsWith("gate ")) return shown.includes("promotion BLOCKED") ? 1 : 0;
  if (command.startsWith("conform ")) return shown.includes(" 0 deviating, 0 unverified") ? 0 : 1;
  return command.startsWith("check ") ? 1 : 0;
}

describe("README", () => {
  it("shows the gate demos (a btv process, a Camunda agent, a policy pack), conform, check and simulate", () => {
    expect(demos.map(([command]) => command.split(" ")[0])).toEqual([
      "gate",
      "gate",
      "gate",
      "conform",
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

  /**
   * The approval demo runs three commands; a new key has a new id and the approval a new time,
   * so those are put back as the README shows them, and everything else must match.
   */
  it("shows the real output of the approval demo", async () => {
    const block =
      /```sh\n(node bin\/agentflow\.js keygen [^`]*?)```\n\n```text\n([\s\S]*?)```/.exec(readme);
    const commands = (block?.[1] ?? "").trim().split("\n");
    const shown = block?.[2] ?? "";
    expect(commands.map((c) => c.split(" ")[2])).toEqual(["keygen", "approve", "verify"]);
    const dir = tempDir("agentflow-readme-");
    let output = "";
    const io: CliIo = {
      stdout: (t) => (output += t),
      stderr: (t) => (output += t),
      isTTY: false,
    };
    const codes: number[] = [];
    for (const command of commands) {
      const argv = command.replace("node bin/agentflow.js ", "").replaceAll("/tmp/", `${dir}/`);
      codes.push(await main(argv.split(" "), io));
    }
    expect(codes).toEqual([0, 0, 1]);
    const keyid = /^[0-9a-f]{64}$/m.exec(output)?.[0] ?? "";
    const shownKeyid = /^[0-9a-f]{64}$/m.exec(shown)?.[0] ?? "";
    expect(keyid).toMatch(/^[0-9a-f]{64}$/);
    const normalised = output
      .replaceAll(`${dir}/`, "/tmp/")
      .replaceAll(keyid, shownKeyid)
      .replaceAll(keyid.slice(0, 12), shownKeyid.slice(0, 12));
    expect(normalised).toBe(shown);
  });
});
