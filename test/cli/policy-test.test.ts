/**
 * `agentflow policy test [dir]` through the CLI (main.ts registers it) and through the bundled
 * bin: the example pack's cases pass with exit 0 and the coverage line, `--format json` gives the
 * same as data, a case that does not hold exits 1, and a test that cannot run exits 2 with one
 * line per problem on stderr and no stack trace.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BASE, folder, policyTest, testFile } from "./policy-test-fixtures.js";
import { run, STACK_LINE } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = "examples/policies/tests";
const COVERAGE = "✔ 25 cases passed in 1 test file; every rule covered";

describe("agentflow policy test", () => {
  it("the example's cases: exit 0, the coverage line, as the command function prints them", async () => {
    const out = await run("policy", "test", EXAMPLE);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe("");
    expect(out.stdout.split("\n")).toContain(COVERAGE);
    expect(out.stdout).toBe((await policyTest(EXAMPLE)).stdout);
  });

  it("--format json gives the same as data", async () => {
    const out = await run("policy", "test", "--format", "json", EXAMPLE);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as { cases: number; failed: number; uncovered: number };
    expect([report.cases, report.failed, report.uncovered]).toEqual([25, 0, 0]);
  });

  it("exit 1 on a case that does not hold", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(
        "results:\n  - rule: high\n    fail: [gated.bpmn#Loans/Offer]\n",
      ),
    });
    const out = await run("policy", "test", dir);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("  ✘ acme/high gated.bpmn#Loans/Offer expected fail, got pass\n");
  });

  it("exit 2 with every problem on stderr when a test cannot run", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(
        "results:\n  - rule: nope\n    fail: [gated.bpmn#Loans/Offer]\n",
      ),
    });
    const out = await run("policy", "test", dir);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(
      `agentflow: ${dir}/a.policytest.yaml:7:11: results[0].rule: no pack under test has rule 'nope' (rules: acme/high, acme/four-eyes, acme/models, acme/ungated-tools, acme/gateless)\n`,
    );
    expect(out.stderr).not.toMatch(STACK_LINE);
    expect((await run("policy", "test", "--format", "xml", dir)).code).toBe(2);
  });

  it("the bundled bin runs it as the sources do", () => {
    const result = spawnSync(process.execPath, ["bin/agentflow.js", "policy", "test", EXAMPLE], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    expect(result.status).toBe(0);
    expect(result.stdout.split("\n")).toContain(COVERAGE);
  });
});
