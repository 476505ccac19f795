/**
 * `agentflow check --format sarif` on the examples is valid SARIF 2.1.0 (validated against the
 * official schema) with help links for every rule that fired and line numbers for the findings.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ajvDraft04 from "ajv-draft-04";
import formatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import schema from "../fixtures/sarif/sarif-schema-2.1.0.json" with { type: "json" };
import { tempDir } from "../temp.js";

const ajv = new ajvDraft04.default({ strict: false, allErrors: true, logger: false });
formatsModule.default(ajv);
const validateSarif = ajv.compile(schema);

interface Sarif {
  runs: {
    tool: { driver: { rules: { id: string; helpUri: string }[] } };
    results: {
      ruleId: string;
      level: string;
      locations: {
        physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
      }[];
    }[];
  }[];
}

describe("agentflow check --format sarif", () => {
  it("is accepted by the official SARIF 2.1.0 schema on the examples", async () => {
    let stdout = "";
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
    expect(
      await main(["check", "--format", "sarif", "--registry", "examples/registry", "examples"], io),
    ).toBe(1);
    const sarif = JSON.parse(stdout) as Sarif;
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    const run = sarif.runs[0];
    const results = run?.results ?? [];
    expect(results.length).toBeGreaterThan(5);
    const retry = results.find((r) => r.ruleId === "RETRY_WITHOUT_MAX");
    expect(retry?.level).toBe("error");
    expect(retry?.locations[0]?.physicalLocation.artifactLocation.uri).toBe(
      "examples/workflows/refund-autopilot.broken.agent.json",
    );
    expect(retry?.locations[0]?.physicalLocation.region.startLine).toBeGreaterThan(1);
    const rule = run?.tool.driver.rules.find((r) => r.id === "RETRY_WITHOUT_MAX");
    expect(rule?.helpUri).toBe("https://agentflow.dev/docs/rules/RETRY_WITHOUT_MAX.md");
  });
});

interface SarifRun {
  tool: { driver: { version?: string; semanticVersion?: string } };
  automationDetails?: { id: string };
  originalUriBaseIds?: Record<string, { uri?: string }>;
  artifacts: { location: { uri: string; uriBaseId?: string } }[];
  results: {
    ruleId: string;
    locations: {
      physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } };
      logicalLocations: { name?: string; kind: string }[];
    }[];
    properties: { pointer: string };
  }[];
}

async function sarifOf(...argv: string[]): Promise<{ code: number; run: SarifRun }> {
  let stdout = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
  const code = await main([...argv, "--format", "sarif"], io);
  const log = JSON.parse(stdout) as { runs: SarifRun[] };
  expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
  const run = log.runs[0];
  if (run === undefined) throw new Error("no run");
  return { code, run };
}

describe("SARIF that GitHub code scanning reads without surprises", () => {
  const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
  const srcRoot = `${pathToFileURL(process.cwd()).href}/`;

  it("check: driver version, a defined %SRCROOT%, node ids as logical locations", async () => {
    const broken = "examples/workflows/refund-autopilot.broken.agent.json";
    const { run } = await sarifOf("check", "--sarif-category", "agentflow-check", broken);
    expect(run.tool.driver.version).toBe(version);
    expect(run.tool.driver.semanticVersion).toBe(version);
    expect(run.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: srcRoot } });
    expect(run.automationDetails).toEqual({ id: "agentflow-check/" });
    const retry = run.results.find((r) => r.ruleId === "RETRY_WITHOUT_MAX");
    expect(retry?.locations[0]?.logicalLocations).toEqual([
      { name: "confident-enough", fullyQualifiedName: "confident-enough", kind: "object" },
    ]);
    expect(retry?.properties.pointer).toBe("/nodes/1/config/onFalse");
  });

  it("an absolute path inside the working directory is relative to %SRCROOT%", async () => {
    const absolute = resolve("examples/workflows/refund-autopilot.broken.agent.json");
    const { run } = await sarifOf("check", absolute);
    expect(run.artifacts.map((a) => a.location)).toEqual([
      { uri: "examples/workflows/refund-autopilot.broken.agent.json", uriBaseId: "%SRCROOT%" },
    ]);
  });

  it("a file outside it is an absolute file: URI without a base", async () => {
    const dir = tempDir("agentflow-sarif-");
    const outside = join(dir, "w.agent.json");
    copyFileSync("examples/workflows/refund-autopilot.broken.agent.json", outside);
    const { run } = await sarifOf("check", relative(process.cwd(), outside));
    expect(run.artifacts.map((a) => a.location)).toEqual([{ uri: pathToFileURL(outside).href }]);
  });

  it("a working directory named like Jenkins' 'workspace@2' still holds its files (built CLI)", () => {
    const cwd = join(tempDir("agentflow-sarif-"), "ws@2 +,;=&$");
    mkdirSync(cwd);
    copyFileSync("examples/workflows/refund-autopilot.broken.agent.json", join(cwd, "f.json"));
    const bin = resolve("bin/agentflow.js");
    const sarif = (file: string): SarifRun => {
      const result = spawnSync(process.execPath, [bin, "check", file, "-f", "sarif"], {
        cwd,
        encoding: "utf8",
      });
      expect(result.status).toBe(1);
      const log = JSON.parse(result.stdout) as { runs: SarifRun[] };
      expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
      const run = log.runs[0];
      if (run === undefined) throw new Error("no run");
      return run;
    };
    const absolute = sarif(join(cwd, "f.json"));
    expect(absolute.originalUriBaseIds?.["%SRCROOT%"]?.uri).toMatch(
      /\/ws%402%20%2B%2C%3B%3D%26%24\/$/,
    );
    expect(absolute.artifacts.map((a) => a.location)).toEqual([
      { uri: "f.json", uriBaseId: "%SRCROOT%" },
    ]);
    // The same finding, named either way, keeps its fingerprint.
    const named = sarif("f.json");
    const prints = (run: SarifRun): unknown[] =>
      run.results.map((r) => (r as { partialFingerprints?: unknown }).partialFingerprints);
    expect(prints(absolute)).toEqual(prints(named));
    expect(prints(absolute).length).toBeGreaterThan(0);
  });

  it("an empty --sarif-category is exit 2 saying so, not an id of '/'", async () => {
    for (const command of ["check", "gate"]) {
      let stderr = "";
      const io: CliIo = { stdout: () => undefined, stderr: (t) => (stderr += t), isTTY: false };
      const target = command === "gate" ? "examples/processes/loan-origination.bpmn" : "examples";
      expect(await main([command, "-f", "sarif", "--sarif-category", "", target], io)).toBe(2);
      expect(stderr).toBe(
        "agentflow: --sarif-category '' is empty: give the category, e.g. agentflow (is a variable unset?)\n",
      );
    }
  });

  it("gate: valid SARIF naming the BPMN element ids, with the category", async () => {
    const { code, run } = await sarifOf(
      "gate",
      "--registry",
      "examples/registry",
      "--sarif-category",
      "agentflow/gate",
      "examples/processes/loan-origination.bpmn",
    );
    expect(code).toBe(1);
    expect(run.automationDetails).toEqual({ id: "agentflow/gate/" });
    expect(run.tool.driver.semanticVersion).toBe(version);
    expect(run.results.map((r) => [r.ruleId, r.locations[0]?.logicalLocations[0]?.name])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "DraftAndSendOffer"],
      ["TOOL_EFFECT_NEEDS_GATE", "DraftAndSendOffer"],
    ]);
  });

  it("JUnit test cases carry the element id, not a JSON Pointer", async () => {
    let stdout = "";
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
    await main(
      [
        "gate",
        "--registry",
        "examples/registry",
        "--format",
        "junit",
        "examples/processes/loan-origination.bpmn",
      ],
      io,
    );
    expect(stdout).toContain('name="AGENT_GATE_UNREACHABLE DraftAndSendOffer"');
    expect(stdout).toContain('name="TOOL_EFFECT_NEEDS_GATE DraftAndSendOffer"');
  });
});
