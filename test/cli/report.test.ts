/**
 * `agentflow report`: Markdown or HTML by the extension of -o, the same bytes for the same
 * inputs, exit 1 when the reviewed material blocks, usage errors for what cannot be written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false };
  return { code: await main(argv, io), stdout, stderr };
}

const dir = tempDir("agentflow-report-");
const LOAN = "examples/processes/loan-origination.bpmn";

describe("agentflow report", () => {
  it("writes the process report as Markdown, the same bytes twice, exit 1 when blocked", async () => {
    const a = join(dir, "a.md");
    const b = join(dir, "b.md");
    const first = await run("report", LOAN, "--registry", "examples/registry", "-o", a);
    await run("report", LOAN, "--registry", "examples/registry", "-o", b);
    expect(first.code).toBe(1);
    expect(first.stderr).toBe(`agentflow: wrote ${a} (findings that block)\n`);
    const md = readFileSync(a, "utf8");
    expect(md).toBe(readFileSync(b, "utf8"));
    expect(md).toContain("## Promotion decision: BLOCKED");
    expect(md).toMatch(
      /Checked with agentflow \d+\.\d+\.\d+, bpmn-moddle 10\.3\.1, xstate 5\.33\.3/,
    );
  });

  it("writes a self-contained HTML page for a workflow with its fixtures, exit 0", async () => {
    const out = join(dir, "research.html");
    const result = await run(
      "report",
      "examples/workflows/market-research.agent.json",
      "--registry",
      "examples/registry",
      "--fixtures",
      "examples/fixtures/market-research.fixtures.json",
      "-o",
      out,
    );
    expect(result.code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script|<link|https?:\/\/[^"<\s]*"/);
  });

  it("refuses an output it cannot write, and fixtures for a process", async () => {
    const pdf = await run("report", LOAN, "-o", join(dir, "r.pdf"));
    expect(pdf.code).toBe(2);
    expect(pdf.stderr).toContain("the report is written as .html or .md");
    const fixtures = await run("report", LOAN, "--fixtures", "x.json", "-o", join(dir, "r.md"));
    expect(fixtures.code).toBe(2);
    expect(fixtures.stderr).toContain("--fixtures applies to a workflow report");
  });
});
