/**
 * `agentflow policy test` on an agent task whose workflow could not be read: what it may call is
 * unknown, so a `tool` rule judges the tool of unknown identity there, which a case names
 * `<process>/<element>/(unknown tool)`; the rule fails it, never skips it.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

describe("policy test: the tool of an agent whose workflow could not be read", () => {
  it("names it (unknown tool), and a tool rule fails it", async () => {
    const dir = tempDir("agentflow-unknown-tool-");
    writeFileSync(join(dir, "package.json"), '{"name":"unknown-tool"}');
    copyFileSync("examples/processes/loan-origination.bpmn", join(dir, "loan.bpmn"));
    writeFileSync(
      join(dir, "t.policy.yaml"),
      `kind: PolicyPack
name: t
version: "1"
rules:
  - id: per-call
    severity: error
    for: tool
    when: authorization != "gate" and effect in ["external-commitment", "write-irreversible"]
`,
    );
    writeFileSync(
      join(dir, "t.policytest.yaml"),
      `kind: PolicyTest
name: unread
policies: [t.policy.yaml]
inputs: [loan.bpmn]
results:
  - rule: per-call
    fail: ["loan.bpmn#LoanOrigination/DraftAndSendOffer/(unknown tool)"]
`,
    );
    const home = process.cwd();
    process.chdir(dir);
    try {
      const out = await run("policy", "test", "t.policytest.yaml");
      expect(out.stdout).toContain(
        "✔ t/per-call loan.bpmn#LoanOrigination/DraftAndSendOffer/(unknown tool) expected fail, got fail",
      );
      expect(out.code).toBe(0);
    } finally {
      process.chdir(home);
    }
  });
});
