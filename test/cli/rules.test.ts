/**
 * `agentflow rules`: the rules a run uses, agentflow's and the config's plugins' and packs', and
 * the organisation's rule pages generated from their meta (issue 40, item 8).
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
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

  // A pack's text is its author's: in the text list it cannot start a line of its own (a forged
  // `::warning::` command in a CI log) or rewrite the lines above; JSON keeps it as written.
  it.each<[string, string, string]>([
    ["a plain description", "plain words", "plain words"],
    ["a newline and a command", "rule\n::warning::d", "rule\\n::warning::d"],
    ["an escape sequence and a \\r", "x\u001b[2K\rforged", "x\\u{1B}[2K\\rforged"],
    ["a right-to-left override", "pay\u202Eeulav", "pay\\u{202E}eulav"],
  ])("shows %s of a pack rule on its one line", async (_, description, shown) => {
    const dir = tempDir("agentflow-rules-text-");
    const pack = {
      kind: "PolicyPack",
      name: "evil",
      version: "1.0.0",
      rules: [{ id: "r1", severity: "error", for: "agentTask", description, when: "level >= 4" }],
    };
    writeFileSync(join(dir, "evil.policy.json"), JSON.stringify(pack));
    writeFileSync(join(dir, "c.json"), JSON.stringify({ policies: ["evil.policy.json"] }));
    const text = await run("rules", "-c", join(dir, "c.json"));
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n").filter((l) => l.includes("evil"));
    expect(lines).toEqual([`${"evil/r1".padEnd(40)}  error    process   evil@1.0.0  ${shown}`]);
    const json = await run("rules", "-c", join(dir, "c.json"), "--format", "json");
    const rows = JSON.parse(json.stdout) as { code: string; description: string }[];
    expect(rows.find((r) => r.code === "evil/r1")?.description).toBe(description);
  });

  it("without a config lists agentflow's rules only", async () => {
    const out = await run("rules", "--no-config");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("NODE_UNREACHABLE");
    expect(out.stdout).not.toContain("bank/");
  });
});
