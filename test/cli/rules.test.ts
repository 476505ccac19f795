/**
 * `agentflow rules`: the rules a run uses, agentflow's and the config's plugins' and packs', and
 * the organisation's rule pages generated from their meta (issue 40, item 8).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const CONFIG = "examples/policies/agentflow.config.json";

describe("agentflow rules", () => {
  it("lists agentflow's rules and the pack's, with severity, scope and origin", async () => {
    const out = await run("rules", "-c", CONFIG, "--format", "json");
    expect(out.code).toBe(0);
    const rows = JSON.parse(out.stdout) as { code: string; from: string; scope: string }[];
    expect(rows.find((r) => r.code === "AGENT_GATE_BYPASS")).toMatchObject({
      from: "agentflow",
      scope: "process",
    });
    expect(rows.filter((r) => r.from === "bank@1.0.0").map((r) => r.code)).toEqual([
      "bank/no-commitments-above-3",
      "bank/four-eyes-on-commitments",
      "bank/approved-models",
      "bank/budget-by-level",
      "bank/separation-of-duties",
      "bank/commitments-authorized-per-call",
      "bank/agents-have-a-human",
    ]);
  });

  it("writes an index and one page per pack rule, with its when and require", async () => {
    const dir = tempDir("agentflow-rules-");
    const out = await run("rules", "-c", CONFIG, "-o", dir);
    expect(out.stderr).not.toMatch(STACK_LINE);
    expect(out.stdout).toBe(`wrote 8 page(s) to ${dir}\n`);
    expect(readdirSync(join(dir, "bank")).length).toBe(7);
    const index = readFileSync(join(dir, "README.md"), "utf8");
    expect(index).toContain(
      "| [bank/four-eyes-on-commitments](bank/four-eyes-on-commitments.md) | error | process | What an agent commits or cannot undo is approved by two different roles |",
    );
    const page = readFileSync(join(dir, "bank/four-eyes-on-commitments.md"), "utf8");
    expect(page).toContain(
      '```feel\nsome t in tools satisfies t.effect in ["external-commitment", "write-irreversible"]\n```',
    );
    expect(page).toContain('"distinctRoles": 2');
  });

  it("without a config lists agentflow's rules only", async () => {
    const out = await run("rules", "--no-config");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("NODE_UNREACHABLE");
    expect(out.stdout).not.toContain("bank/");
  });
});
