/**
 * `check` on a policy pack: a pack is checked as `gate` would read it from a config, so a pack
 * with a problem fails CI where it is written, at its place, before any config names it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const PACK = `kind: PolicyPack
name: acme
version: 1.0.0
rules:
  - id: high
    severity: error
    for: agentTask
    when: levl >= 4
`;

describe("check on a policy pack", () => {
  it("passes the example pack", async () => {
    const out = await run("check", "--no-config", "examples/policies/bank.policy.yaml");
    expect(out.stdout).toContain("examples/policies/bank.policy.yaml  ✔ no problems");
    expect(out.code).toBe(0);
  });

  it("reports each problem at its line and column, and exits 1", async () => {
    const dir = tempDir("agentflow-check-pack-");
    const file = join(dir, "acme.policy.yaml");
    writeFileSync(file, PACK);
    const out = await run("check", "--no-config", "--format", "json", file);
    expect(out.stderr).not.toMatch(STACK_LINE);
    expect(out.code).toBe(1);
    const [checked] = JSON.parse(out.stdout) as {
      kind: string;
      diagnostics: { code: string; message: string; location?: { line: number } }[];
    }[];
    expect(checked?.kind).toBe("PolicyPack");
    expect(checked?.diagnostics.map((d) => [d.code, d.location?.line])).toEqual([
      ["POLICY_PACK_INVALID", 8],
    ]);
    expect(checked?.diagnostics[0]?.message).toMatch(
      /^rule high: rules\[0\]\.when: unknown fact 'levl'/,
    );
  });
});
