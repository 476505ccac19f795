/**
 * Two packs of one name (red team: the CLI refused them, the library did not): a pack's name
 * prefixes its rules' codes and scopes its waivers, so a team's pack named as the compliance
 * pack is could waive the compliance pack's error rule. Every evaluation refuses such a list, in
 * one place (`applyWaivers`), with one line naming both packs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import { checkProcess, evaluateGatesSync, readProcess } from "../../src/bpmn/index.js";
import { applyWaivers, compilePolicyPack } from "../../src/policy/index.js";
import { duplicatePackProblems } from "../../src/policy/waiver-packs.js";
import { defineRule } from "../../src/rules/index.js";
import { createValidator } from "../../src/validate/index.js";

const XML = readFileSync("examples/processes/loan-origination.bpmn", "utf8");
const rule = (severity: string) => ({
  id: "level-3-needs-review",
  severity,
  for: "agentTask",
  when: "level >= 3",
});
const WAIVER = {
  rule: "level-3-needs-review",
  process: "LoanOrigination",
  reason: "the team accepts its own warning",
  grantedBy: "team-lead@bank.example",
  expires: "2099-12-31",
};
/** The compliance pack, and a team's pack of the same name that waives its own warning. */
const COMPLIANCE = { kind: "PolicyPack", name: "bank", version: "7.0", rules: [rule("error")] };
const TEAM = {
  kind: "PolicyPack",
  name: "bank",
  version: "0.1",
  rules: [rule("warning")],
  waivers: [WAIVER],
};
const CLASH =
  "policy pack team.policy.yaml is named 'bank', as policy pack compliance.policy.yaml is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules";
const PLUGIN_CLASH =
  "policy pack team.policy.yaml is named 'bank', as plugin 'bank' is; the name prefixes rule codes, so it must be unique";
const compiled = [
  compilePolicyPack(COMPLIANCE, "compliance.policy.yaml"),
  compilePolicyPack(TEAM, "team.policy.yaml"),
];

describe("duplicatePackProblems", () => {
  it.each([
    ["names of their own", [{ name: "bank" }, { name: "team" }], []],
    [
      "one name, two files",
      [
        { name: "bank", source: "compliance.policy.yaml" },
        { name: "bank", source: "team.policy.yaml" },
      ],
      [CLASH],
    ],
    [
      "one name, as data (one source): placed by position",
      [
        { name: "bank", source: "<pack>" },
        { name: "x", source: "<pack>" },
        { name: "bank", source: "<pack>" },
      ],
      [
        "policy pack <pack> (#3) is named 'bank', as policy pack <pack> (#1) is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
      ],
    ],
    [
      "no source, three of one name",
      [{ name: "bank" }, { name: "bank" }, { name: "bank" }],
      [
        "policy pack #2 is named 'bank', as policy pack #1 is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
        "policy pack #3 is named 'bank', as policy pack #1 is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
      ],
    ],
  ])("%s", (_name, packs, expected) => {
    expect(duplicatePackProblems(packs)).toEqual(expected);
  });

  it.each([
    ["a plugin of another name", [{ name: "bank", source: "team.policy.yaml" }], ["acme"], []],
    [
      "a pack named as a plugin",
      [{ name: "bank", source: "team.policy.yaml" }],
      ["acme", "bank"],
      [PLUGIN_CLASH],
    ],
    [
      "as data (one source): placed by position",
      [
        { name: "x", source: "<pack>" },
        { name: "bank", source: "<pack>" },
      ],
      ["bank"],
      [
        "policy pack <pack> (#2) is named 'bank', as plugin 'bank' is; the name prefixes rule codes, so it must be unique",
      ],
    ],
    [
      "two packs of the plugin's name: the second as the first",
      [{ name: "bank" }, { name: "bank" }],
      ["bank"],
      [
        "policy pack #1 is named 'bank', as plugin 'bank' is; the name prefixes rule codes, so it must be unique",
        "policy pack #2 is named 'bank', as policy pack #1 is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
      ],
    ],
  ])("with plugins: %s", (_name, packs, plugins, expected) => {
    expect(duplicatePackProblems(packs, plugins)).toEqual(expected);
  });
});

describe("two packs of one name are refused by every evaluation", () => {
  it("applyWaivers, with or without waivers", () => {
    const present = { processes: new Map(), workflows: new Set<string>() };
    for (const waivers of [[], [WAIVER]]) {
      expect(() =>
        applyWaivers([], waivers, () => undefined, present, "2027-01-15", compiled),
      ).toThrow(new TypeError(`applyWaivers: ${CLASH}`));
    }
  });

  it.each([
    ["compiled", compiled],
    ["as data", [COMPLIANCE, TEAM]],
  ])("checkProcess with packs %s: no verdict, not the compliance rule waived", async (_, packs) => {
    await expect(checkProcess(XML, { policies: packs, today: "2027-01-15" })).rejects.toThrow(
      "is named 'bank', as policy pack",
    );
  });

  it("evaluateGatesSync (what the modeller's engine evaluates through)", async () => {
    const { definitions } = await readProcess(XML);
    if (definitions === undefined) throw new Error("the example must parse");
    expect(() => evaluateGatesSync(definitions, { policies: compiled })).toThrow(CLASH);
  });

  it("createValidator, given waivers or none (the packs' rules would share their codes)", () => {
    expect(() => createValidator({ policies: compiled, waivers: [WAIVER] })).toThrow(CLASH);
    const bare = compiled.map((p) => ({ ...p, waivers: [] }));
    expect(() => createValidator({ policies: bare })).toThrow(CLASH);
  });

  it("one pack of the name: the team's waiver waives its own warning only", async () => {
    const own = { ...TEAM, waivers: [{ ...WAIVER, rule: "bank/level-3-needs-review" }] };
    const team = compilePolicyPack(own, "team.policy.yaml");
    const compliance = compilePolicyPack({ ...COMPLIANCE, name: "compliance" }, "c.yaml");
    const out = await checkProcess(XML, { policies: [compliance, team], today: "2027-01-15" });
    const found = [...out.blocking, ...out.warnings].filter((d) => d.code.includes("/"));
    expect(found.map((d) => [d.code, d.severity, d.waived !== undefined])).toEqual([
      ["compliance/level-3-needs-review", "error", false],
      ["bank/level-3-needs-review", "warning", true],
    ]);
    expect(out.allowed).toBe(false);
  });
});

/** A plugin named "bank" whose process rule is an error on every agent task. */
const gateRule = defineRule<BpmnRuleContext>({
  meta: {
    code: "level-3-needs-review",
    scope: "process",
    defaultSeverity: "error",
    description: "every agent task needs a compliance review",
    docs: "test",
    messages: { default: "{{task}} needs a compliance review" },
  },
  check(context) {
    for (const t of context.view?.agentTasks ?? []) {
      context.report({
        elementId: t.place.elementId,
        path: t.place.path,
        data: { task: t.element.id },
      });
    }
  },
});
const PLUGIN = {
  meta: { name: "compliance", version: "1.0.0" },
  rules: { "level-3-needs-review": gateRule },
};

describe("a pack named as a plugin is refused by every evaluation (red team)", () => {
  // The team's pack "bank" has a rule of the plugin's id and waives it: its waiver would name
  // the plugin's finding bank/level-3-needs-review, and the process would be allowed.
  const team = compilePolicyPack(TEAM, "team.policy.yaml");

  it("applyWaivers given the plugins' names, with or without waivers", () => {
    const present = { processes: new Map(), workflows: new Set<string>() };
    for (const waivers of [[], [WAIVER]]) {
      expect(() =>
        applyWaivers([], waivers, () => undefined, present, "2027-01-15", [team], ["bank"]),
      ).toThrow(new TypeError(`applyWaivers: ${PLUGIN_CLASH}`));
    }
  });

  it.each([
    ["compiled", [team]],
    ["as data", [TEAM]],
  ])(
    "checkProcess with the pack %s: no verdict, not the plugin's rule waived",
    async (_, packs) => {
      await expect(
        checkProcess(XML, { plugins: { bank: PLUGIN }, policies: packs, today: "2027-01-15" }),
      ).rejects.toThrow("is named 'bank', as plugin 'bank' is");
    },
  );

  it("evaluateGatesSync (what the modeller's engine evaluates through)", async () => {
    const { definitions } = await readProcess(XML);
    if (definitions === undefined) throw new Error("the example must parse");
    expect(() =>
      evaluateGatesSync(definitions, { plugins: { bank: PLUGIN }, policies: [team] }),
    ).toThrow(PLUGIN_CLASH);
  });

  it("a plugin of another name: its finding stands, the pack's waiver waives its own rule only", async () => {
    const out = await checkProcess(XML, {
      plugins: { compliance: PLUGIN },
      policies: [team],
      today: "2027-01-15",
    });
    const found = [...out.blocking, ...out.warnings].filter((d) => d.code.includes("/"));
    expect(found.map((d) => [d.code, d.severity, d.waived !== undefined])).toEqual([
      ["compliance/level-3-needs-review", "error", false],
      ["compliance/level-3-needs-review", "error", false],
      ["bank/level-3-needs-review", "warning", true],
    ]);
    expect(out.allowed).toBe(false);
  });
});
