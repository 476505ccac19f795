/**
 * `agentflow report`: Markdown or HTML by the extension of -o, the same bytes for the same
 * inputs, exit 1 when the reviewed material blocks, usage errors for what cannot be written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { contentHash } from "../../src/model/index.js";
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

describe("agentflow report reads the settings gate reads: one verdict", () => {
  const softened = (registry?: string): string => {
    const config = join(tempDir("agentflow-report-config-"), "agentflow.config.json");
    const settings = {
      ...(registry === undefined ? {} : { registry: join(process.cwd(), registry) }),
      rules: { AGENT_GATE_UNREACHABLE: "warn", TOOL_EFFECT_NEEDS_GATE: "warn" },
    };
    writeFileSync(config, JSON.stringify(settings));
    return config;
  };

  it("a config that turns the gate rules to warnings allows in the report as in gate", async () => {
    const config = softened();
    const gate = await run("gate", "-c", config, "--registry", "examples/registry", LOAN);
    const out = join(dir, "softened.md");
    const report = await run(
      "report",
      LOAN,
      "-c",
      config,
      "--registry",
      "examples/registry",
      "-o",
      out,
    );
    expect(gate.stdout).toContain("promotion ALLOWED");
    expect(gate.code).toBe(0);
    expect(report.code).toBe(0);
    const md = readFileSync(out, "utf8");
    expect(md).toContain("## Promotion decision: ALLOWED");
    // The rules list says each at the severity it ran at.
    expect(md).toMatch(/AGENT_GATE_UNREACHABLE[^\n]*warning/);
  });

  it("takes the registry the config names, and names the config, the rule set and each tool's hash", async () => {
    const config = softened("examples/registry");
    const out = join(dir, "configured.md");
    const report = await run("report", LOAN, "-c", config, "-o", out);
    expect(report.code).toBe(0);
    const md = readFileSync(out, "utf8");
    // Resolved through the registry the config names: the agent table's source column says so.
    expect(md).toMatch(
      /\| DraftAndSendOffer +\| agnt-offer-sender\\@1\.0\.0 [^\n]*\| registry +\|/,
    );
    const contract = readFileSync("examples/registry/send-loan-offer.tool.json", "utf8");
    const hash = contentHash(JSON.parse(contract));
    expect(md).toContain(
      `| tool contract | tool:send-loan-offer\\@1.1.0 | ${hash} | used by DraftAndSendOffer |`,
    );
    const settings = JSON.parse(readFileSync(config, "utf8")) as unknown;
    expect(md).toContain(`| config | ${config} | ${contentHash(settings)} |`);
    expect(md).toMatch(
      /\| rule set \| agentflow [^|]+, preset recommended, Camunda agents gate-required \| sha256:[0-9a-f]{64} \| changed from the preset: AGENT_GATE_UNREACHABLE warning \(preset error\), TOOL_EFFECT_NEEDS_GATE warning \(preset error\) \|/,
    );
  });

  it("blocks, as gate does, when a registry document cannot be read", async () => {
    const registry = tempDir("agentflow-report-broken-registry-");
    for (const name of [
      "credit-risk.agent.json",
      "offer-sender.agent.json",
      "credit-bureau-report.tool.json",
      "send-loan-offer.tool.json",
    ]) {
      writeFileSync(join(registry, name), readFileSync(join("examples/registry", name)));
    }
    writeFileSync(join(registry, "stray.tool.json"), "{ not json");
    const config = softened();
    const out = join(dir, "broken.md");
    const report = await run("report", LOAN, "-c", config, "--registry", registry, "-o", out);
    const gate = await run("gate", "-c", config, "--registry", registry, LOAN);
    expect(gate.code).toBe(1);
    expect(report.code).toBe(1);
    const md = readFileSync(out, "utf8");
    expect(md).toContain("## Promotion decision: BLOCKED");
    expect(md).toContain(`| registry document | ${join(registry, "stray.tool.json")} | not read |`);
  });
});
