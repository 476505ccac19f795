/**
 * `agentflow policy test` as a function (`policyTestCommand`): each subject a test lists is a
 * case judged by the pack's rule on the inputs, a missing subject fails, waivers are judged on the
 * test's `today`, every rule's coverage is listed, and what cannot be read is a usage error
 * naming the file and the place.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/io.js";
import { ACME, BASE, folder, policyTest, process, testFile } from "./policy-test-fixtures.js";

const ALL_RULES = `today: 2027-01-15
results:
  - rule: high
    fail: [bare.bpmn#Instant/Offer]
    pass: [gated.bpmn#Loans/Offer]
  - rule: acme/four-eyes
    fail: [bare.bpmn#Instant/Offer]
    pass: [gated.bpmn#Loans/Offer]
    waived: [single.bpmn#SmallLoans/Offer]
  - rule: models
    fail: [bare.bpmn#Instant/Offer/agnt-offer@2.0.0]
    pass: [gated.bpmn#Loans/Offer/agnt-offer@1.0.0]
  - rule: ungated-tools
    fail: [gated.bpmn#Loans/Offer/tool:lookup@1.0.0]
    pass: [gated.bpmn#Loans/Offer/tool:commit@1.0.0]
  - rule: gateless
    fail: [bare.bpmn#Instant]
    pass: [gated.bpmn#Loans]
`;

describe("cases that hold", () => {
  it("exit 0: one line per case, the file's summary, every rule covered", async () => {
    const dir = folder({ ...BASE, "acme.policytest.yaml": testFile(ALL_RULES) });
    const out = await policyTest(dir);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    const file = join(dir, "acme.policytest.yaml");
    expect(lines[0]).toBe(`${file}: acme cases`);
    expect(lines).toContain(
      "  ✔ acme/high bare.bpmn#Instant/Offer expected fail, got fail: Offer runs at level 4",
    );
    expect(lines).toContain("  ✔ acme/high gated.bpmn#Loans/Offer expected pass, got pass");
    expect(lines).toContain(
      '  ✔ acme/gateless bare.bpmn#Instant expected fail, got fail: process "Instant" breaks policy rule gateless of acme',
    );
    expect(lines.find((l) => l.includes("single.bpmn#SmallLoans/Offer"))).toMatch(
      /^ {2}✔ acme\/four-eyes single\.bpmn#SmallLoans\/Offer expected waived, got fail, waived until 2027-03-31 by cro@acme\.example \(pilot\): .+ only gates of "credit": Offer → G0 → G1 → End$/,
    );
    expect(lines).toContain("  11 cases: 11 passed");
    expect(lines).toContain("rule coverage (5 rules in 1 pack):");
    expect(lines).toContain("  ✔ acme/four-eyes      2 failing cases, 1 passing case");
    expect(lines).toContain("✔ 11 cases passed in 1 test file; every rule covered");
    expect(out.stderr).toBe("");
  });

  it("json: the same as data", async () => {
    const dir = folder({ ...BASE, "t.policytest.yaml": testFile(ALL_RULES) });
    const report = JSON.parse((await policyTest(dir, "json")).stdout) as {
      files: { name: string; passed: number; failed: number; cases: Record<string, unknown>[] }[];
      coverage: Record<string, unknown>[];
      cases: number;
      failed: number;
      uncovered: number;
    };
    expect([report.cases, report.failed, report.uncovered]).toEqual([11, 0, 0]);
    expect(report.files[0]?.cases).toContainEqual({
      rule: "acme/ungated-tools",
      subject: "gated.bpmn#Loans/Offer/tool:lookup@1.0.0",
      expected: "fail",
      actual: "fail",
      ok: true,
      message: 'tool "tool:lookup@1.0.0" breaks policy rule ungated-tools of acme',
      findings: 1,
    });
    expect(report.coverage).toContainEqual({
      rule: "acme/models",
      pack: "acme",
      source: join(dir, "acme.policy.yaml"),
      failing: 1,
      passing: 1,
      covered: true,
    });
  });
});

describe("cases that do not hold", () => {
  it("exit 1: a wrong expectation says what the rule found", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(`results:
  - rule: high
    fail: [gated.bpmn#Loans/Offer]
    pass: [bare.bpmn#Instant/Offer]
`),
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(1);
    const lines = out.stdout.split("\n");
    expect(lines).toContain("  ✘ acme/high gated.bpmn#Loans/Offer expected fail, got pass");
    expect(lines).toContain(
      "  ✘ acme/high bare.bpmn#Instant/Offer expected pass, got fail: Offer runs at level 4",
    );
    expect(lines).toContain("  2 cases: 0 passed, 2 failed");
    expect(lines.at(-2)).toBe("✘ 2 of 2 cases failed in 1 test file; 4 rules not covered");
  });

  it("a subject that is not in its input fails, naming what the input has", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(`results:
  - rule: high
    pass: [gated.bpmn#Loans/Nope, gated.bpmn#Other/Offer]
  - rule: ungated-tools
    pass: [gated.bpmn#Loans/Offer/tool:nope@1.0.0]
`),
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(1);
    const lines = out.stdout.split("\n");
    expect(lines).toContain(
      '  ✘ acme/high gated.bpmn#Loans/Nope expected pass, got no such subject: no agentTask "Loans/Nope" in gated.bpmn (it has Loans/Offer)',
    );
    expect(lines).toContain(
      '  ✘ acme/high gated.bpmn#Other/Offer expected pass, got no such subject: no agentTask "Other/Offer" in gated.bpmn (it has Loans/Offer)',
    );
    expect(lines).toContain(
      '  ✘ acme/ungated-tools gated.bpmn#Loans/Offer/tool:nope@1.0.0 expected pass, got no such subject: no tool "Loans/Offer/tool:nope@1.0.0" in gated.bpmn (it has Loans/Offer/tool:commit@1.0.0, Loans/Offer/tool:lookup@1.0.0)',
    );
  });

  it("an expired waiver no longer covers the finding: the waived case fails", async () => {
    const body = `today: 2027-04-01
results:
  - rule: four-eyes
    waived: [single.bpmn#SmallLoans/Offer]
    fail: [gated.bpmn#Loans/Offer]
`;
    const out = await policyTest(folder({ ...BASE, "a.policytest.yaml": testFile(body) }));
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(
      /\n {2}✘ acme\/four-eyes single\.bpmn#SmallLoans\/Offer expected waived, got fail: .+ only gates of "credit": Offer → G0 → G1 → End\n/,
    );
    expect(out.stdout).toContain(
      "  ✘ acme/four-eyes gated.bpmn#Loans/Offer expected fail, got pass\n",
    );
  });

  it("the test's own waivers count, as the config's do", async () => {
    const body = `today: 2027-01-15
waivers:
  - { rule: acme/high, process: Instant, element: Offer, reason: r, grantedBy: g, expires: "2027-01-15" }
results:
  - rule: high
    waived: [bare.bpmn#Instant/Offer]
`;
    const out = await policyTest(folder({ ...BASE, "a.policytest.yaml": testFile(body) }));
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("got fail, waived until 2027-01-15 by g (r)");
  });
});

describe("rule ids the listing of subjects uses", () => {
  it("a pack rule named as a subject kind, waived by its bare id, is judged (it was exit 3)", async () => {
    const pack = `kind: PolicyPack
name: amb
version: 1.0.0
rules:
  - { id: agentTask, severity: error, for: agentTask, when: level >= 4 }
  - { id: tool, severity: error, for: tool, when: authorization != "gate" }
waivers:
  - { rule: agentTask, process: Instant, element: Offer, reason: r, grantedBy: g, expires: "2099-01-01" }
`;
    const dir = folder({
      ...BASE,
      "amb.policy.yaml": pack,
      "a.policytest.yaml": `kind: PolicyTest
name: amb
policies: [amb.policy.yaml]
registry: [registry]
inputs: [bare.bpmn, gated.bpmn]
today: 2027-01-15
waivers:
  - { rule: tool, process: Loans, reason: r, grantedBy: g, expires: "2099-01-01" }
results:
  - rule: agentTask
    waived: [bare.bpmn#Instant/Offer]
  - rule: tool
    waived: [gated.bpmn#Loans/Offer/tool:lookup@1.0.0]
`,
    });
    const out = await policyTest(dir);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("✔ 2 cases passed in 1 test file");
  });
});

describe("failing closed", () => {
  it("an agent whose workflow cannot be read fails what it may break: its workflow is a subject of unknown facts", async () => {
    const dir = folder({
      ...BASE,
      "unknown.bpmn": process("Ghost", "agnt-ghost@1.0.0", 2, ["a"]),
      "a.policytest.yaml": testFile(
        `results:
  - rule: four-eyes
    fail: [unknown.bpmn#Ghost/Offer]
  - rule: models
    pass: [unknown.bpmn#Ghost/Offer/agnt-ghost@1.0.0]
`,
        "[unknown.bpmn]",
      ),
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(1);
    const lines = out.stdout.split("\n");
    // Its tools are unknown, so it may commit the bank: one approving role is not enough.
    expect(lines.find((l) => l.includes("unknown.bpmn#Ghost/Offer expected fail"))).toMatch(
      /^ {2}✔ acme\/four-eyes unknown\.bpmn#Ghost\/Offer expected fail, got fail: .+ only gates of "a": Offer → G0 → End$/,
    );
    // Its workflow is a subject still, every fact of it unknown: a rule on its models cannot
    // pass it (it was skipped, as if there were nothing to judge).
    expect(lines.find((l) => l.includes("#Ghost/Offer/agnt-ghost@1.0.0"))).toBe(
      "  ✘ acme/models unknown.bpmn#Ghost/Offer/agnt-ghost@1.0.0 expected pass, got fail (undecided): workflow \"agnt-ghost@1.0.0\": policy rule models of acme cannot be decided (it reads 'models', which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)), so it counts as broken",
    );
  });

  it("a case that holds only because its rule could not decide is marked", async () => {
    // A tool ref is no date: feelin's date() fails on it, so the ungated tool is undecided.
    const trap = `kind: PolicyPack
name: trap
version: 1.0.0
rules:
  - id: ungated
    severity: error
    for: tool
    when: if authorization = "gate" then false else date(ref) < date("2027-01-01")
`;
    const dir = folder({
      ...BASE,
      "trap.policy.yaml": trap,
      "a.policytest.yaml": `kind: PolicyTest
name: trap
policies: [trap.policy.yaml]
registry: [registry]
inputs: [gated.bpmn]
results:
  - rule: ungated
    fail: [gated.bpmn#Loans/Offer/tool:lookup@1.0.0]
    pass: [gated.bpmn#Loans/Offer/tool:commit@1.0.0]
`,
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines).toContain(
      '  ⚠ trap/ungated gated.bpmn#Loans/Offer/tool:lookup@1.0.0 expected fail, got fail (undecided): tool "tool:lookup@1.0.0": policy rule ungated of trap cannot be decided (FEEL INVALID_ARGUMENTS: date(\'"tool:lookup@1.0.0"\') is not a valid date), so it counts as broken',
    );
    expect(lines).toContain(
      "  ✔ trap/ungated gated.bpmn#Loans/Offer/tool:commit@1.0.0 expected pass, got pass",
    );
    expect(lines).toContain(
      '⚠ 1 case expecting a finding got one its rule could not decide (marked "undecided"): check the rule\'s when',
    );
  });

  it("rules without a failing or a passing case are listed, which does not fail the run", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(`results:
  - rule: high
    pass: [gated.bpmn#Loans/Offer]
`),
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines).toContain(
      "  ⚠ acme/high           0 failing cases, 1 passing case: not covered (no failing case)",
    );
    expect(lines).toContain(
      "  ⚠ acme/gateless       0 failing cases, 0 passing cases: not covered (no failing case, no passing case)",
    );
    expect(lines).toContain("✔ 1 case passed in 1 test file; 5 rules not covered");
  });
});

describe("workflow inputs", () => {
  it("judge the workflow and each tool it calls as <id>@<version>[/<tool ref>]", async () => {
    const dir = folder({
      ...BASE,
      "a.policytest.yaml": testFile(
        `results:
  - rule: models
    fail: [registry/offer-2.agent.json#agnt-offer@2.0.0]
    pass: [registry/offer.agent.json#agnt-offer@1.0.0]
  - rule: ungated-tools
    fail: [registry/offer.agent.json#agnt-offer@1.0.0/tool:lookup@1.0.0]
    pass: [registry/offer.agent.json#agnt-offer@1.0.0/tool:commit@1.0.0]
  - rule: models
    pass: [registry/offer.agent.json#agnt-offer@9.9.9]
`,
        "[registry/offer.agent.json, registry/offer-2.agent.json]",
      ),
    });
    const out = await policyTest(dir);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("  5 cases: 4 passed, 1 failed");
    expect(out.stdout).toContain(
      '  ✘ acme/models registry/offer.agent.json#agnt-offer@9.9.9 expected pass, got no such subject: no workflow "agnt-offer@9.9.9" in registry/offer.agent.json (it has agnt-offer@1.0.0)',
    );
  });
});

describe("what cannot run is a usage error naming the file and the place", () => {
  async function problems(files: Record<string, string | object>): Promise<string[]> {
    const dir = folder({ ...BASE, ...files });
    const error = await policyTest(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message.split("\n").map((l) => l.replaceAll(`${dir}/`, ""));
  }

  it("a rule the packs do not have, and subjects that do not fit the grammar", async () => {
    const found = await problems({
      "a.policytest.yaml": testFile(`results:
  - rule: nope
    fail: [gated.bpmn#Loans/Offer]
  - rule: high
    fail: [gated.bpmn#Loans, other.bpmn#Loans/Offer]
  - rule: models
    fail: [gated.bpmn#Loans/Offer/agnt-offer]
`),
    });
    expect(found).toEqual([
      "a.policytest.yaml:7:11: results[0].rule: no pack under test has rule 'nope' (rules: acme/high, acme/four-eyes, acme/models, acme/ungated-tools, acme/gateless)",
      'a.policytest.yaml:10:12: results[1].fail[0]: rule acme/high is for agentTask: an agentTask subject in a BPMN input is <process id>/<element id>, not "Loans"',
      'a.policytest.yaml:10:30: results[1].fail[1]: "other.bpmn#Loans/Offer" names no input of this test: a subject is <input>#<name>, its input one of gated.bpmn, single.bpmn, bare.bpmn',
      'a.policytest.yaml:12:12: results[2].fail[0]: rule acme/models is for workflow: a workflow subject in a BPMN input is <process id>/<element id>/<workflow id>@<version>, not "Loans/Offer/agnt-offer"',
    ]);
  });

  it("a pack with problems, an unreadable input, a tool contract as an input", async () => {
    const found = await problems({
      "bad.policy.yaml":
        "kind: PolicyPack\nname: bad\nversion: 1.0.0\nrules:\n  - id: x\n    severity: error\n    for: agentTask\n    when: levl > 3\n",
      "broken.bpmn": "<bpmn:definitions",
      "a.policytest.yaml": `kind: PolicyTest
name: t
policies: [bad.policy.yaml]
inputs: [gated.bpmn]
results:
  - rule: x
    pass: [gated.bpmn#Loans/Offer]
`,
      "b.policytest.yaml": testFile(
        "results:\n  - rule: high\n    pass: [gated.bpmn#Loans/Offer]\n",
        "[gated.bpmn, missing.bpmn, broken.bpmn, registry/commit.tool.json]",
      ),
    });
    expect(found[0]).toMatch(/^bad\.policy\.yaml:8:11: rule x: when: unknown fact 'levl' /);
    expect(found.slice(1, 3)).toEqual([
      "b.policytest.yaml:5:22: inputs[1]: cannot read 'missing.bpmn': no such file or directory",
      "b.policytest.yaml:5:36: inputs[2]: cannot be read as BPMN:",
    ]);
    expect(found[3]).toMatch(/^ {2}broken\.bpmn:1:1: /);
    expect(found[4]).toBe(
      "b.policytest.yaml:5:49: inputs[3]: registry/commit.tool.json is a tool contract: contracts are resolved, not judged on their own; list its folder under registry",
    );
  });

  it("a waiver of a rule the test does not run, or of a bare id two packs share", async () => {
    const other = ACME.replace("name: acme", "name: other").replace(/waivers:[\s\S]*$/, "");
    const waiver = (rule: string) =>
      `  - { rule: ${rule}, process: Loans, reason: r, grantedBy: g, expires: "2027-12-31" }`;
    const found = await problems({
      "other.policy.yaml": other,
      "a.policytest.yaml": `kind: PolicyTest
name: t
policies: [acme.policy.yaml, other.policy.yaml]
registry: [registry]
inputs: [gated.bpmn]
waivers:
${waiver("hihg")}
${waiver("high")}
${waiver("acme/high")}
${waiver("AGENT_GATE_BYPASS")}
results:
  - rule: acme/high
    pass: [gated.bpmn#Loans/Offer]
`,
    });
    expect(found).toEqual([
      "a.policytest.yaml:7:13: waivers[0].rule: 'hihg' is no rule of this test (a built-in code, or a rule of its packs: <pack>/<id> or its id)",
      "a.policytest.yaml:8:13: waivers[1].rule: 'high' is a rule of more than one pack (acme/high, other/high): write <pack>/<id>",
      "acme.policy.yaml: waivers[0].rule: 'four-eyes' is a rule of more than one pack (acme/four-eyes, other/four-eyes): write <pack>/<id>",
    ]);
  });

  it("a test file that does not fit its schema: every problem, placed", async () => {
    const found = await problems({
      "a.policytest.yaml": `kind: PolicyTest
name: t
policies: []
inputs: [gated.bpmn, gated.bpmn]
today: 2027-02-30
colour: blue
results:
  - rule: high
`,
    });
    expect(found).toEqual([
      "a.policytest.yaml:3:11: policies: must not be an empty list",
      "a.policytest.yaml:4:22: inputs[1]: listed twice (also inputs[0])",
      'a.policytest.yaml:5:8: today: "2027-02-30" is not a calendar date',
      'a.policytest.yaml:6:9: colour: unknown key "colour" (keys here: kind, name, description, policies, registry, inputs, today, gates, toolEffects, waivers, results)',
      "a.policytest.yaml:8:5: results[0]: names no subject: give fail, pass or waived",
    ]);
  });

  it("a folder without test files, a path that does not exist, an unknown format", async () => {
    const empty = folder({ "readme.md": "nothing here" });
    await expect(policyTest(empty)).rejects.toThrow(
      `no policy tests in '${empty}': a test file is named *.policytest.yaml, *.policytest.yml or *.policytest.json`,
    );
    await expect(policyTest(join(empty, "nope"))).rejects.toThrow("does not exist");
    await expect(policyTest(empty, "sarif")).rejects.toThrow(
      "unknown format 'sarif' (expected text, json)",
    );
  });
});

describe("what is run", () => {
  it("one named test file, or every *.policytest.* below a folder, in sorted order", async () => {
    const body = "results:\n  - rule: high\n    pass: [gated.bpmn#Loans/Offer]\n";
    const dir = folder({
      ...BASE,
      "b.policytest.yaml": testFile(body),
      "sub/a.policytest.json": JSON.stringify({
        kind: "PolicyTest",
        name: "json",
        policies: ["../acme.policy.yaml"],
        inputs: ["../gated.bpmn"],
        results: [{ rule: "high", pass: ["../gated.bpmn#Loans/Offer"] }],
      }),
      "node_modules/x/c.policytest.yaml": "not: read",
      // A dot-file is run as the same file without the dot; a dot-folder is passed over.
      ".c.policytest.yaml": testFile(body),
      ".old/d.policytest.yaml": "not: read",
    });
    const all = await policyTest(dir);
    const heads = all.stdout
      .split("\n")
      .filter((l) => l.endsWith(": acme cases") || l.endsWith(": json"));
    expect(heads).toEqual([
      `${dir}/.c.policytest.yaml: acme cases`,
      `${dir}/b.policytest.yaml: acme cases`,
      `${dir}/sub/a.policytest.json: json`,
    ]);
    const one = await policyTest(join(dir, "b.policytest.yaml"));
    expect(one.stdout).toContain("✔ 1 case passed in 1 test file; 5 rules not covered");
  });
});
