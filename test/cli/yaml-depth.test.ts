/**
 * A YAML text nested a million levels deep (2 MB) is refused by every command that reads a
 * workflow, with the same located error, and without building the million-level tree first:
 * the reader gives up at the first level too deep. The per-test timeout is the hang guard.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const LEVELS = 1_000_000;
const dir = tempDir("agentflow-yaml-depth-");
const flow = join(dir, "flow.agent.yaml");
const block = join(dir, "block.agent.yaml");
writeFileSync(flow, "[".repeat(LEVELS) + "]".repeat(LEVELS));
writeFileSync(block, "- ".repeat(LEVELS) + "x\n");
const TOO_DEEP = "The YAML text nests collections more than 256 levels deep";

describe.each([
  ["flow", flow, "1:257"],
  ["block", block, "1:513"],
])("a YAML text %s-nested a million levels", (_kind, file, at) => {
  it.each([
    ["check", [file]],
    ["convert", [file, "--to", "agentflow"]],
    ["simulate", [file]],
    ["report", [file, "-o", join(dir, "r.md")]],
    ["check --registry", ["examples/workflows", "--registry", dir]],
  ])(
    "%s refuses it with its place (exit 2 or a finding), never a crash",
    async (command, args) => {
      const result = await run(command.split(" ")[0] ?? "", ...args);
      const said = result.stdout + result.stderr;
      // A registry's file is a block of the report; a named file is said as file:line:column.
      expect(said).toContain(
        command === "check --registry" ? `${file}\n  ${at}  error    ${TOO_DEEP}` : `${file}:${at}`,
      );
      expect(said).toContain(TOO_DEEP);
      expect(said).not.toMatch(STACK_LINE);
      expect(result.code).toBe(command === "check --registry" ? 1 : 2);
    },
    20_000,
  );
});
