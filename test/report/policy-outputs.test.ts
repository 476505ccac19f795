/**
 * The organisation's policy in every output format: a waived finding is shown as waived (never
 * dropped) and does not count as blocking; plugins and packs are named with their versions and
 * hashes, and SARIF points each of their results at its extension.
 */
import ajvDraft04 from "ajv-draft-04";
import formatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { CheckedFile, ToolExtension } from "../../src/report/index.js";
import {
  formatGithub,
  formatGitlab,
  formatJunit,
  formatSarif,
  formatText,
  waiverText,
} from "../../src/report/index.js";
import schema from "../fixtures/sarif/sarif-schema-2.1.0.json" with { type: "json" };
import { diag } from "./diag.js";

const ajv = new ajvDraft04.default({ strict: false, allErrors: true, logger: false });
formatsModule.default(ajv);
const validateSarif = ajv.compile(schema);

const WAIVER = {
  reason: "pilot until the new gate ships",
  grantedBy: "CRO J. Doe",
  expires: "2027-03-31",
};

const LOAN: CheckedFile = {
  file: "processes/loan.bpmn",
  kind: "BpmnProcess",
  diagnostics: [
    diag("bank/four-eyes", "error", {
      target: { kind: "bpmn-element", elementId: "Send" },
      waived: WAIVER,
      location: { line: 7, column: 5 },
    }),
    diag("acme/MODEL_ALLOWED", "error", { location: { line: 9, column: 3 } }),
    diag("BUDGET_MISSING", "warning"),
  ],
};
const FILES: CheckedFile[] = [LOAN];
const [WAIVED_FINDING] = LOAN.diagnostics;

const EXTENSIONS: ToolExtension[] = [
  {
    kind: "plugin",
    name: "acme",
    version: "2.0.0",
    sha256: "sha256:aaaa",
    rules: [
      {
        code: "acme/MODEL_ALLOWED",
        description: "A model outside the allow-list.",
        defaultSeverity: "error",
        helpUri: "https://example.com/acme/MODEL_ALLOWED",
      },
    ],
  },
  {
    kind: "policy",
    name: "bank",
    version: "1.2.0",
    sha256: "sha256:bbbb",
    rules: [
      {
        code: "bank/four-eyes",
        description: "Two approver roles on every path.",
        defaultSeverity: "error",
        helpUri: "file:///repo/policy/bank.policy.yaml#four-eyes",
      },
      {
        code: "bank/models",
        description: "Allowed models only.",
        defaultSeverity: "warning",
        helpUri: "file:///repo/policy/bank.policy.yaml#models",
      },
    ],
  },
];

describe("waived findings in the text report", () => {
  it("says who waived it until when on the finding's line, and counts it apart", () => {
    const lines = formatText(FILES).split("\n");
    expect(lines).toContain(
      "  7:5  error    bank/four-eyes msg  bank/four-eyes  waived until 2027-03-31 (CRO J. Doe): pilot until the new gate ships",
    );
    expect(lines).toContain("  9:3  error    acme/MODEL_ALLOWED msg  acme/MODEL_ALLOWED");
    expect(lines).toContain("✖ 3 problems (1 error, 1 warning, 1 waived) in 1 file checked");
  });

  it("a run whose only error is waived has no error mark", () => {
    const only: CheckedFile[] = [
      { ...LOAN, diagnostics: WAIVED_FINDING === undefined ? [] : [WAIVED_FINDING] },
    ];
    expect(formatText(only)).toContain(
      "⚠ 1 problem (0 errors, 0 warnings, 1 waived) in 1 file checked",
    );
  });
});

describe("SARIF with plugins and packs", () => {
  const log = JSON.parse(formatSarif(FILES, { extensions: EXTENSIONS })) as {
    runs: {
      tool: {
        driver: { rules: { id: string }[] };
        extensions: {
          name: string;
          version: string;
          rules: { id: string; helpUri: string }[];
          properties: { sha256: string; kind: string };
        }[];
      };
      results: {
        ruleId: string;
        ruleIndex: number;
        rule?: { id: string; index: number; toolComponent: { name: string; index: number } };
        suppressions?: unknown[];
      }[];
    }[];
  };
  const [run] = log.runs;
  if (run === undefined) throw new Error("no run");

  it("is a valid SARIF 2.1.0 log", () => {
    expect(validateSarif(log), JSON.stringify(validateSarif.errors, null, 2)).toBe(true);
  });

  it("names each plugin and pack as a tool extension with its version, hash and rules", () => {
    expect(run.tool.extensions.map((e) => [e.name, e.version, e.properties])).toEqual([
      ["acme", "2.0.0", { kind: "plugin", sha256: "sha256:aaaa" }],
      ["bank", "1.2.0", { kind: "policy", sha256: "sha256:bbbb" }],
    ]);
    expect(run.tool.extensions[1]?.rules.map((r) => [r.id, r.helpUri])).toEqual([
      ["bank/four-eyes", "file:///repo/policy/bank.policy.yaml#four-eyes"],
      ["bank/models", "file:///repo/policy/bank.policy.yaml#models"],
    ]);
    // The driver describes agentflow's own codes only.
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(["BUDGET_MISSING"]);
  });

  it("points a plugin's or pack's result at its extension, and the rest at the driver", () => {
    const [waived, plugin, builtIn] = run.results;
    expect(waived?.rule).toEqual({
      id: "bank/four-eyes",
      index: 0,
      toolComponent: { name: "bank", index: 1 },
    });
    expect(plugin).toMatchObject({
      ruleId: "acme/MODEL_ALLOWED",
      ruleIndex: 0,
      rule: { toolComponent: { name: "acme", index: 0 } },
    });
    expect(builtIn).toMatchObject({ ruleId: "BUDGET_MISSING", ruleIndex: 0 });
    expect(builtIn?.rule).toBeUndefined();
  });

  it("marks a waived result as suppressed, accepted, with the waiver as its justification", () => {
    expect(run.results[0]?.suppressions).toEqual([
      {
        kind: "external",
        status: "accepted",
        justification: "pilot until the new gate ships (granted by CRO J. Doe, expires 2027-03-31)",
      },
    ]);
    expect(run.results[1]?.suppressions).toBeUndefined();
  });
});

describe("JUnit, GitLab and GitHub with a waived finding", () => {
  it("JUnit: a waived error passes, its output naming the waiver", () => {
    const xml = formatJunit(FILES, { rules: EXTENSIONS.flatMap((e) => e.rules) });
    expect(xml).toContain('<testsuites name="agentflow" tests="3" failures="1" errors="0">');
    expect(xml).toContain(
      `<testcase classname="processes/loan.bpmn" name="bank/four-eyes Send">\n      <system-out>error: bank/four-eyes msg\n${waiverText(WAIVER)}; not a failure while the waiver holds`,
    );
    expect(xml).toContain("see file:///repo/policy/bank.policy.yaml#four-eyes");
    expect(xml).toContain('<failure type="acme/MODEL_ALLOWED"');
  });

  it("GitLab: a waived issue is info with the waiver in its description; every issue names the rule set", () => {
    const issues = JSON.parse(formatGitlab(FILES, { ruleSet: "sha256:feed" })) as {
      severity: string;
      description: string;
      agentflow: { ruleSet: string; waived?: unknown };
    }[];
    expect(issues.map((i) => i.severity)).toEqual(["info", "major", "minor"]);
    expect(issues[0]?.description).toBe(
      "bank/four-eyes msg (waived until 2027-03-31 (CRO J. Doe): pilot until the new gate ships)",
    );
    expect(issues[0]?.agentflow).toEqual({ ruleSet: "sha256:feed", waived: WAIVER });
    expect(issues[1]?.agentflow).toEqual({ ruleSet: "sha256:feed" });
  });

  it("GitLab without a rule set adds no field of its own", () => {
    const issues = JSON.parse(
      formatGitlab([{ ...LOAN, diagnostics: [diag("X", "error")] }]),
    ) as object[];
    expect(Object.keys(issues[0] ?? {})).not.toContain("agentflow");
  });

  it("GitHub: a waived finding is a notice that says so", () => {
    const lines = formatGithub(FILES).trimEnd().split("\n");
    expect(lines[0]).toBe(
      "::notice file=processes/loan.bpmn,line=7,col=5,title=bank/four-eyes::bank/four-eyes msg%0A%0Awaived until 2027-03-31 (CRO J. Doe): pilot until the new gate ships",
    );
    expect(lines[1]).toMatch(
      /^::error file=processes\/loan.bpmn,line=9,col=3,title=acme\/MODEL_ALLOWED::/,
    );
  });
});
