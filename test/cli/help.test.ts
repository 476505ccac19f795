/**
 * `agentflow --help`, `check --help` and `gate --help` describe the config file, globs, the
 * formats and the exit codes; and main.ts stays light: it imports no globbing, config or worker
 * code at the top, so `--version` and `--help` do not load them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { run } from "./run.js";

describe("help", () => {
  it("agentflow --help names the config file, the formats, -o and the exit codes", async () => {
    const { code, stdout } = await run("--help");
    expect(code).toBe(0);
    for (const words of [
      "agentflow.config.json",
      "--no-config",
      "glob patterns",
      "gitlab",
      "-o <file>",
      "Exit codes",
    ]) {
      expect(stdout).toContain(words);
    }
  });

  it.each(["check", "gate"])(
    "%s --help lists the shared options and the config fields",
    async (command) => {
      const { code, stdout } = await run(command, "--help");
      expect(code).toBe(0);
      for (const option of [
        "--config <file>",
        "--no-config",
        "--output-file <file>",
        "--ignore-pattern <pattern>",
        "--max-warnings <n>",
        "--quiet",
        "--color",
        "--no-color",
        "--sarif-category <id>",
        "--concurrency <n>",
        "--cache-location <path>",
        "gitlab",
        'rules (code: "off" | "warn" | "error")',
        "schemas/agentflow-config.schema.json",
        "node_modules and .git are never read",
      ]) {
        expect(stdout).toContain(option);
      }
    },
  );

  it("main.ts loads subcommand code only inside the actions", () => {
    const source = readFileSync(new URL("../../src/cli/main.ts", import.meta.url), "utf8");
    const imports = [...source.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gms)].map(
      (m) => m[1],
    );
    expect(imports.sort()).toEqual([
      "./convert-targets.js",
      "./io.js",
      "./main-approval.js",
      "./main-conform.js",
      "./version.js",
      "commander",
    ]);
    // The approval and conform commands, registered apart, load nothing at the top either.
    for (const file of ["main-approval.ts", "main-conform.ts"]) {
      const text = readFileSync(new URL(`../../src/cli/${file}`, import.meta.url), "utf8");
      expect([...text.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gms)], file).toEqual([]);
    }
  });

  it.each([
    [
      "approve",
      [
        "--key <private.pem>",
        "--role <role>",
        "--ticket <id>",
        "--sign <approval.json>",
        "--root <dir>",
      ],
    ],
    [
      "verify",
      [
        "--trusted-keys <dir|file>",
        "--threshold <n>",
        "--require-roles <roles>",
        "--max-age <age>",
        "--now <time>",
        "sarif",
      ],
    ],
    ["keygen", ["--output <name>", "ecdsa-p256"]],
    [
      "conform",
      [
        "--approval <approval.json>",
        "--registry <dir>",
        "--process <bpmn>",
        "--workflow <id@version>",
        "--source <source>",
        "conform fails closed",
      ],
    ],
  ])("%s --help lists its options", async (command, options) => {
    const { code, stdout } = await run(command, "--help");
    expect(code).toBe(0);
    for (const option of options) expect(stdout).toContain(option);
  });
});
