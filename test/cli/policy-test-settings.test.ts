/**
 * What a policy test gives besides the config's absence (red-team 8): its `gates` and
 * `toolEffects`, with the config's schema and checks, apply to every BPMN input; a waiver whose
 * process two inputs define is refused as `check` refuses it; and FEEL's `today()` and `now()`
 * read the test's day, not the system clock.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/io.js";
import { BASE, folder, policyTest, process } from "./policy-test-fixtures.js";

/** Start → the offer agent (it commits the bank) → two user tasks of a template → end. */
const TEMPLATED = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com">
  <bpmn:process id="Offer" isExecutable="true">
    <bpmn:startEvent id="Start" />
    <bpmn:serviceTask id="Draft">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-offer@1.0.0" autonomyLevel="3" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="ReviewA" zeebe:modelerTemplate="com.acme.approval.v1">
      <bpmn:extensionElements><zeebe:userTask /><zeebe:assignmentDefinition candidateGroups="credit-officers" /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="ReviewB" zeebe:modelerTemplate="com.acme.approval.v1">
      <bpmn:extensionElements><zeebe:userTask /><zeebe:assignmentDefinition candidateGroups="compliance" /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="End" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Draft" />
    <bpmn:sequenceFlow id="F2" sourceRef="Draft" targetRef="ReviewA" />
    <bpmn:sequenceFlow id="F3" sourceRef="ReviewA" targetRef="ReviewB" />
    <bpmn:sequenceFlow id="F4" sourceRef="ReviewB" targetRef="End" />
  </bpmn:process>
</bpmn:definitions>
`;

/** A Camunda AI agent whose fraud-score tool (`acme:fraud-score:1`) has no known effect. */
const REFUND = readFileSync(
  new URL("../fixtures/camunda/subprocess-v11-refund.bpmn", import.meta.url),
  "utf8",
);

const READS_ONLY = `kind: PolicyPack
name: tools
version: 1.0.0
rules:
  - id: reads-only
    severity: error
    for: tool
    when: effect != "read"
`;

/** A test of `policies` on `inputs`, with `extra` lines before its results. */
const testOf = (policies: string, inputs: string, extra: string, results: string): string =>
  `kind: PolicyTest
name: t
policies: [${policies}]
registry: [registry]
inputs: [${inputs}]
${extra}results:
${results}`;

/** The case lines a run printed, or its usage error's lines (the folder's path cut). */
async function ran(files: Readonly<Record<string, string | object>>): Promise<string[]> {
  const dir = folder({ ...BASE, ...files });
  try {
    const out = await policyTest(dir);
    return out.stdout.split("\n").filter((l) => / expected (fail|pass|waived), got /.test(l));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return error.message.split("\n").map((l) => l.replaceAll(`${dir}/`, ""));
  }
}

describe("gates and toolEffects apply to every BPMN input, as the config's do", () => {
  const fourEyes = "  - rule: four-eyes\n    pass: [t.bpmn#Offer/Draft]\n";
  const cases: readonly (readonly [string, string, string])[] = [
    [
      "no selectors: the reviews are no gates",
      "",
      "  ✘ acme/four-eyes t.bpmn#Offer/Draft expected pass, got fail",
    ],
    [
      "the template selects both reviews, two roles",
      "gates: [{ template: com.acme.approval.v1 }]\n",
      "  ✔ acme/four-eyes t.bpmn#Offer/Draft expected pass, got pass",
    ],
    [
      "a candidate group selects one review, one role",
      "gates: [{ candidateGroup: credit-officers }]\n",
      "  ✘ acme/four-eyes t.bpmn#Offer/Draft expected pass, got fail",
    ],
  ];
  it.each(cases)("gates: %s", async (_, extra, line) => {
    const found = await ran({
      "t.bpmn": TEMPLATED,
      "a.policytest.yaml": testOf("acme.policy.yaml", "t.bpmn", extra, fourEyes),
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(:|$)`));
  });

  const fraud = "  - rule: reads-only\n    pass: [r.bpmn#refund_triage/Agent/acme:fraud-score:1]\n";
  const effects: readonly (readonly [string, string, string])[] = [
    [
      "none: the tool's effect is unknown",
      "",
      "  ✘ tools/reads-only r.bpmn#refund_triage/Agent/acme:fraud-score:1 expected pass, got fail",
    ],
    [
      "by job type",
      'toolEffects: { "acme:fraud-score:1": read }\n',
      "  ✔ tools/reads-only r.bpmn#refund_triage/Agent/acme:fraud-score:1 expected pass, got pass",
    ],
    [
      "another effect",
      'toolEffects: { "acme:fraud-score:1": propose }\n',
      "  ✘ tools/reads-only r.bpmn#refund_triage/Agent/acme:fraud-score:1 expected pass, got fail",
    ],
  ];
  it.each(effects)("toolEffects: %s", async (_, extra, line) => {
    const found = await ran({
      "r.bpmn": REFUND,
      "tools.policy.yaml": READS_ONLY,
      "a.policytest.yaml": testOf("tools.policy.yaml", "r.bpmn", extra, fraud),
    });
    expect(found).toHaveLength(1);
    expect(found[0]?.startsWith(line)).toBe(true);
    expect(found[0]?.slice(line.length) ?? "").toMatch(/^(:|$)/);
  });

  it("what the config refuses in them, the test refuses: every problem, placed", async () => {
    const found = await ran({
      "a.policytest.yaml": testOf(
        "acme.policy.yaml",
        "gated.bpmn",
        `gates:
  - { role: legal }
  - { group: risk }
  - { id: "" }
toolEffects:
  io.camunda:slack:1: sends
  io.camunda.connectors.X.v1: {}
  acme:rest:1: { GET: read }
  "": read
`,
        "  - rule: high\n    pass: [gated.bpmn#Loans/Offer]\n",
      ),
    });
    expect(found).toEqual([
      "a.policytest.yaml:7:5: gates[0]: names no criterion (id, candidateGroup, template or property): it would make every element a gate",
      "a.policytest.yaml:8:5: gates[1]: unknown key 'group' (known: id, candidateGroup, template, property, role)",
      "a.policytest.yaml:9:11: gates[2].id: must be a non-empty string, got string",
      `a.policytest.yaml:11:23: toolEffects["io.camunda:slack:1"]: unknown effect 'sends' (expected read, propose, notify, write-reversible, write-irreversible, external-commitment)`,
      "a.policytest.yaml:12:31: toolEffects.io.camunda.connectors.X.v1: must be an effect, or a mapping of effects by the selector's value that is not empty",
      `a.policytest.yaml:13:16: toolEffects["acme:rest:1"]: agentflow knows no operation selector for 'acme:rest:1'; name the input with "$input"`,
      'a.policytest.yaml:14:7: toolEffects[""]: the key must be a job type or template id',
    ]);
  });
});

describe("a waiver whose process more than one input defines is refused, as check refuses it", () => {
  const waiver = (process: string): string =>
    `waivers:\n  - { rule: high, process: ${process}, reason: r, grantedBy: g, expires: "2027-12-31" }\n`;
  const results = "  - rule: high\n    waived: [a.bpmn#Loans/Offer]\n";
  const files = {
    "a.bpmn": process("Loans", "agnt-offer@2.0.0", 4, []),
    "b.bpmn": process("Loans", "agnt-offer@2.0.0", 4, []),
    "c.bpmn": process("OtherLoans", "agnt-offer@2.0.0", 4, []),
  };

  it.each([
    [
      "the test's own, over two inputs of one id",
      "a.bpmn, b.bpmn",
      waiver("Loans"),
      [
        'a.policytest.yaml:8:28: waivers[0].process: "Loans" is the id of a process in 2 inputs (a.bpmn, b.bpmn); a waiver names a process by its id alone, so nothing says which one was reviewed, and it would waive them all: give each process an id of its own',
      ],
    ],
    [
      "the test's own, over inputs of two ids",
      "a.bpmn, c.bpmn",
      waiver("Loans"),
      ["  ✔ acme/high a.bpmn#Loans/Offer expected waived, got fail, waived"],
    ],
    [
      "the pack's, over two inputs of one id",
      "a.bpmn, single.bpmn, b.bpmn, single-2.bpmn",
      "",
      [
        'acme.policy.yaml: waivers[0].process: "SmallLoans" is the id of a process in 2 inputs (single.bpmn, single-2.bpmn); a waiver names a process by its id alone, so nothing says which one was reviewed, and it would waive them all: give each process an id of its own',
      ],
    ],
  ] as const)("%s", async (_, inputs, extra, expected) => {
    const found = await ran({
      ...files,
      "single-2.bpmn": BASE["single.bpmn"] ?? "",
      "a.policytest.yaml": testOf(
        "acme.policy.yaml",
        inputs,
        `today: 2027-01-15\n${extra}`,
        results,
      ),
    });
    expect(found.map((l) => l.replace(/ until .*$/, ""))).toEqual(expected);
  });
});

describe("FEEL's today() and now() read the test's day", () => {
  const pack = (when: string): string => `kind: PolicyPack
name: clock
version: 1.0.0
rules:
  - id: r
    severity: error
    for: agentTask
    when: ${when}
`;
  it.each([
    ['today() < date("2027-01-01") and level >= 3', "2027-01-15", "pass"],
    ['today() < date("2027-01-01") and level >= 3', "2026-06-01", "fail"],
    ['today() = date("2031-02-03")', "2031-02-03", "fail"],
    ['now() = date and time("2031-02-03T00:00:00@UTC")', "2031-02-03", "fail"],
    ['now() > date and time("2031-02-03T00:00:00@UTC")', "2031-02-03", "pass"],
    ['date(now()) = today() and today() = date("2031-02-03")', "2031-02-03", "fail"],
  ] as const)("%s on %s: %s", async (when, today, got) => {
    const found = await ran({
      "clock.policy.yaml": pack(when),
      "a.policytest.yaml": testOf(
        "clock.policy.yaml",
        "gated.bpmn",
        `today: ${today}\n`,
        `  - rule: r\n    ${got}: [gated.bpmn#Loans/Offer]\n`,
      ),
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      new RegExp(`^ {2}✔ clock/r gated\\.bpmn#Loans/Offer expected ${got}, got ${got}(:|$)`),
    );
  });
});
