/**
 * The `agentflow` bin runs the bundled CLI (`dist/cli-bundle/`, written by `npm run build`; see
 * scripts/bundle-cli.ts). It must answer as the CLI's sources do: the same output and exit code
 * for a command of each kind, including the lazily loaded subcommands and a BPMN gate.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const COMMANDS: readonly (readonly string[])[] = [
  ["--version"],
  [
    "check",
    "examples/workflows/market-research.agent.json",
    "examples/workflows/refund-autopilot.broken.agent.json",
  ],
  [
    "check",
    "examples/processes/loan-origination.bpmn",
    "--registry",
    "examples/registry",
    "--format",
    "json",
  ],
  ["gate", "examples/processes/loan-origination.bpmn", "--registry", "examples/registry"],
  [
    "simulate",
    "examples/workflows/market-research.agent.json",
    "--fixtures",
    "examples/fixtures/market-research.fixtures.json",
  ],
  ["convert", "examples/workflows/contract-review.agent.yaml", "--to", "mermaid"],
  ["templates"],
  ["check", "no-such-file.json"],
];

describe("the bundled CLI", () => {
  it("is built: `npm run build` writes dist/cli-bundle/main.js", () => {
    expect(existsSync(new URL("../../dist/cli-bundle/main.js", import.meta.url))).toBe(true);
  });

  it.each(COMMANDS.map((argv) => [argv.join(" "), argv] as const))(
    "answers `agentflow %s` as the sources do",
    async (_, argv) => {
      const bundled = spawnSync(process.execPath, ["bin/agentflow.js", ...argv], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      });
      const sources = await run(...argv);
      expect(bundled.stdout).toBe(sources.stdout);
      expect(bundled.stderr).toBe(sources.stderr);
      expect(bundled.status).toBe(sources.code);
    },
  );
});
