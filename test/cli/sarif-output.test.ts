/**
 * `agentflow check --format sarif` on the examples is valid SARIF 2.1.0 (validated against the
 * official schema) with help links for every rule that fired and line numbers for the findings.
 */
import ajvDraft04 from "ajv-draft-04";
import formatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import schema from "../fixtures/sarif/sarif-schema-2.1.0.json" with { type: "json" };

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
