/**
 * Judging the cases of a policy test from the findings: a waiver must cover every finding for a
 * `waived` case, a missing subject fails whatever was expected, and coverage counts each pack
 * once however many test files name it; the published schema is the one test files are read with.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { compilePolicyPack } from "../../src/policy/index.js";
import type { PlannedCase, TestedPack } from "../../src/cli/policy-test-cases.js";
import { coverageOf, judgeCase, rulesOf } from "../../src/cli/policy-test-cases.js";
import { policyTestReport, policyTestText } from "../../src/cli/policy-test-render.js";
import { POLICY_TEST_SCHEMA } from "../../src/cli/policy-test-schema.js";
import type { InputVerdicts } from "../../src/cli/policy-test-subjects.js";

const pack = compilePolicyPack({
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules: [
    { id: "high", severity: "error", for: "agentTask", when: "level >= 4" },
    { id: "gateless", severity: "error", for: "process" },
  ],
});
const tested: TestedPack = { key: "/p/bank.policy.yaml", source: "bank.policy.yaml", pack };
const rules = rulesOf([tested]);
const high = rules.get("bank/high");
if (high === undefined) throw new Error("no rule bank/high");

const grant = { reason: "pilot", grantedBy: "cro", expires: "2027-03-31" };
const finding = (waived: boolean): Diagnostic => ({
  code: "bank/high",
  severity: "error",
  message: "Offer runs at level 4",
  target: { kind: "bpmn-element", elementId: "Offer" },
  path: "",
  data: {},
  ...(waived ? { waived: grant } : {}),
});

function verdicts(found: readonly Diagnostic[]): InputVerdicts {
  return {
    kind: "bpmn",
    subjects: new Map([["agentTask", new Set(["Loans/Offer"])]]),
    findings: new Map([["bank/high", new Map([["Loans/Offer", found]])]]),
  };
}

const planned = (expected: PlannedCase["expected"], name = "Loans/Offer"): PlannedCase => ({
  rule: high,
  expected,
  subject: `p.bpmn#${name}`,
  input: "p.bpmn",
  name,
});

describe("judgeCase", () => {
  it("a waived case needs every finding waived; a fail case takes any finding", () => {
    const mixed = verdicts([finding(true), finding(false)]);
    expect(judgeCase(planned("waived"), mixed)).toMatchObject({ actual: "fail", ok: false });
    expect(judgeCase(planned("waived"), mixed).waived).toBeUndefined();
    expect(judgeCase(planned("fail"), mixed)).toMatchObject({ ok: true, findings: 2 });
    const all = verdicts([finding(true), finding(true)]);
    expect(judgeCase(planned("waived"), all)).toMatchObject({ ok: true, waived: grant });
    expect(judgeCase(planned("fail"), all)).toMatchObject({ ok: true, waived: grant });
    expect(judgeCase(planned("pass"), all)).toMatchObject({ actual: "fail", ok: false });
  });

  it("a subject that is not there fails, whatever was expected", () => {
    for (const expected of ["fail", "pass", "waived"] as const) {
      expect(judgeCase(planned(expected, "Loans/Nope"), verdicts([]))).toEqual({
        rule: "bank/high",
        subject: "p.bpmn#Loans/Nope",
        expected,
        actual: "missing",
        ok: false,
        findings: 0,
        reason: 'no agentTask "Loans/Nope" in p.bpmn (it has Loans/Offer)',
      });
    }
  });

  it("the text names how many more findings the rule reported", () => {
    const result = judgeCase(planned("pass"), verdicts([finding(false), finding(false)]));
    const text = policyTestText(
      policyTestReport([{ file: "t.policytest.yaml", name: "t", cases: [result] }], []),
    );
    expect(text).toContain(
      "  ✘ bank/high p.bpmn#Loans/Offer expected pass, got fail: Offer runs at level 4 (+1 more)\n",
    );
  });
});

describe("coverageOf", () => {
  it("counts each pack once, across test files, waived cases as failing ones", () => {
    const again: TestedPack = { ...tested, source: "../bank.policy.yaml" };
    const coverage = coverageOf(
      [tested, again],
      [planned("fail"), planned("waived"), { ...planned("pass"), rule: { ...high, pack: again } }],
    );
    expect(coverage).toEqual([
      {
        rule: "bank/high",
        pack: "bank",
        source: "bank.policy.yaml",
        failing: 2,
        passing: 1,
        covered: true,
      },
      {
        rule: "bank/gateless",
        pack: "bank",
        source: "bank.policy.yaml",
        failing: 0,
        passing: 0,
        covered: false,
      },
    ]);
  });
});

describe("schemas/policy-test.schema.json", () => {
  it("is published as npm run schemas writes it, and accepts the example's test file", () => {
    const published = readFileSync(
      new URL("../../schemas/policy-test.schema.json", import.meta.url),
      "utf8",
    );
    expect(published).toBe(JSON.stringify(POLICY_TEST_SCHEMA, null, 2) + "\n");
    const validate = new Ajv2020({ strict: true }).compile(POLICY_TEST_SCHEMA);
    const test = {
      kind: "PolicyTest",
      name: "t",
      policies: ["bank.policy.yaml"],
      inputs: ["p.bpmn"],
      results: [{ rule: "bank/high", fail: ["p.bpmn#Loans/Offer"] }],
    };
    expect(validate(test)).toBe(true);
    expect(validate({ ...test, results: [{ rule: "high" }] })).toBe(false);
    expect(validate({ ...test, results: [{ rule: "Bank/high", pass: ["x"] }] })).toBe(false);
  });
});
