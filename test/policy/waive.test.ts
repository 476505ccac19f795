/**
 * Waivers (issue 40, item 5): a waived finding stays, marked with its reason and expiry; an
 * expired waiver applies to nothing and is an error; a waiver whose element or workflow version
 * is gone is a warning; the rule matches with or without the pack's prefix.
 */
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import type { Waiver, WaiverSubject } from "../../src/policy/index.js";
import {
  ambiguousWaiverProblems,
  applyWaivers,
  WAIVER_EXPIRED,
  WAIVER_SUBJECT_MISSING,
  waiverProblems,
} from "../../src/policy/index.js";

const finding = (
  code: string,
  elementId: string,
  severity: Diagnostic["severity"] = "error",
): Diagnostic => ({
  code,
  severity,
  message: `${code} on ${elementId}`,
  target: { kind: "bpmn-element", elementId },
  path: "",
  data: { elementId },
});

const workflowFinding = (code: string, ref: string): Diagnostic => ({
  code,
  severity: "error",
  message: code,
  target: { kind: "workflow" },
  path: "",
  data: { ref },
});

/** Subjects: a BPMN finding is in process Loans at its element; a workflow one names its ref. */
const subjectOf = (d: Diagnostic): WaiverSubject | undefined => {
  if (d.target.kind === "bpmn-element") return { process: "Loans", element: d.target.elementId };
  return typeof d.data.ref === "string" ? { workflow: d.data.ref } : undefined;
};

const present = {
  processes: new Map([["Loans", new Set(["Draft", "Send", "Approve"])]]),
  workflows: new Set(["agnt-offer@1.2.0", "agnt-check@1.0.0"]),
};

const waiver = (over: Partial<Waiver> = {}): Waiver => ({
  rule: "four-eyes",
  process: "Loans",
  element: "Send",
  reason: "pilot with one approver",
  grantedBy: "cro@bank.example",
  expires: "2027-03-31",
  ...over,
});

const PACKS = [{ name: "bank" }];

describe("applyWaivers", () => {
  it("marks a matching finding waived, keeping its severity and message, by id with or without the pack", () => {
    const diagnostics = [finding("bank/four-eyes", "Send"), finding("bank/four-eyes", "Draft")];
    for (const rule of ["four-eyes", "bank/four-eyes"]) {
      const out = applyWaivers(
        diagnostics,
        [waiver({ rule })],
        subjectOf,
        present,
        "2027-03-31",
        PACKS,
      );
      expect(out.findings).toEqual([]);
      expect(out.diagnostics[0]).toEqual({
        ...diagnostics[0],
        waived: {
          reason: "pilot with one approver",
          grantedBy: "cro@bank.example",
          expires: "2027-03-31",
        },
      });
      expect(out.diagnostics[1]).toEqual(diagnostics[1]);
    }
  });

  it("does not strip a prefix that is no pack's, nor match another rule", () => {
    const diagnostics = [finding("acme/four-eyes", "Send"), finding("bank/four-eyes-lite", "Send")];
    const out = applyWaivers(diagnostics, [waiver()], subjectOf, present, "2027-01-01", PACKS);
    expect(out.diagnostics.map((d) => d.waived)).toEqual([undefined, undefined]);
  });

  it("waives built-in codes, whole processes and workflows", () => {
    const diagnostics = [
      finding("AGENT_GATE_BYPASS", "Draft"),
      finding("AGENT_GATE_BYPASS", "Send"),
      workflowFinding("BUDGET_MISSING", "agnt-offer@1.2.0"),
      workflowFinding("BUDGET_MISSING", "agnt-check@1.0.0"),
    ];
    const waivers: Waiver[] = [
      {
        rule: "AGENT_GATE_BYPASS",
        process: "Loans",
        reason: "r",
        grantedBy: "g",
        expires: "2027-12-31",
      },
      {
        rule: "BUDGET_MISSING",
        workflow: "agnt-offer@1.2.0",
        reason: "r",
        grantedBy: "g",
        expires: "2027-12-31",
      },
    ];
    const out = applyWaivers(diagnostics, waivers, subjectOf, present, "2027-06-01", PACKS);
    expect(out.diagnostics.map((d) => d.waived !== undefined)).toEqual([true, true, true, false]);
  });

  it("an expired waiver applies to nothing and is an error at its element", () => {
    const diagnostics = [finding("bank/four-eyes", "Send")];
    const out = applyWaivers(diagnostics, [waiver()], subjectOf, present, "2027-04-01", PACKS);
    expect(out.diagnostics).toEqual(diagnostics);
    expect(out.findings).toEqual([
      {
        code: "WAIVER_EXPIRED",
        severity: "error",
        message:
          'the waiver of four-eyes for element "Send" of process "Loans" (granted by cro@bank.example: pilot with one approver) expired on 2027-03-31; it no longer applies',
        remediation:
          "fix what the waiver covered, or have its owner grant a new waiver with a new end date",
        target: { kind: "bpmn-element", elementId: "Send" },
        path: "",
        data: { ...waiver(), today: "2027-04-01" },
      },
    ]);
  });

  it("reports expired workflow and process waivers, and none for subjects this run did not read", () => {
    const waivers: Waiver[] = [
      {
        rule: "X",
        workflow: "agnt-offer@1.0.0",
        reason: "r",
        grantedBy: "g",
        expires: "2026-01-01",
      },
      { rule: "X", process: "Loans", reason: "r", grantedBy: "g", expires: "2026-01-01" },
      {
        rule: "X",
        process: "Payments",
        element: "Pay",
        reason: "r",
        grantedBy: "g",
        expires: "2026-01-01",
      },
      {
        rule: "X",
        workflow: "agnt-other@1.0.0",
        reason: "r",
        grantedBy: "g",
        expires: "2026-01-01",
      },
    ];
    const out = applyWaivers([], waivers, subjectOf, present, "2026-01-02", PACKS);
    expect(out.findings.map((f) => [f.code, f.target, f.message])).toEqual([
      [
        "WAIVER_EXPIRED",
        { kind: "workflow" },
        "the waiver of X for workflow agnt-offer@1.0.0 (granted by g: r) expired on 2026-01-01; it no longer applies",
      ],
      [
        "WAIVER_EXPIRED",
        { kind: "bpmn-element", elementId: "Loans" },
        'the waiver of X for process "Loans" (granted by g: r) expired on 2026-01-01; it no longer applies',
      ],
    ]);
  });

  it("a waiver whose element or workflow version is gone is a warning, and waives nothing", () => {
    const waivers: Waiver[] = [
      waiver({ element: "SendOffer" }),
      {
        rule: "X",
        workflow: "agnt-offer@1.1.0",
        reason: "r",
        grantedBy: "g",
        expires: "2027-12-31",
      },
    ];
    const out = applyWaivers(
      [finding("bank/four-eyes", "Send")],
      waivers,
      subjectOf,
      present,
      "2027-01-01",
      PACKS,
    );
    expect(out.diagnostics[0]?.waived).toBeUndefined();
    expect(out.findings.map((f) => [f.code, f.severity, f.target, f.message])).toEqual([
      [
        "WAIVER_SUBJECT_MISSING",
        "warning",
        { kind: "bpmn-element", elementId: "Loans" },
        'the waiver of four-eyes names element "SendOffer", which process "Loans" does not have; it waives nothing',
      ],
      [
        "WAIVER_SUBJECT_MISSING",
        "warning",
        { kind: "workflow" },
        'the waiver of X names workflow agnt-offer@1.1.0, but "agnt-offer" is present only as agnt-offer@1.2.0; it waives nothing',
      ],
    ]);
  });

  it("holds through its last day, and findings without a subject are never waived", () => {
    const d = finding("bank/four-eyes", "Send");
    expect(
      applyWaivers([d], [waiver()], subjectOf, present, "2027-03-31", PACKS).diagnostics[0]?.waived,
    ).toBeDefined();
    expect(
      applyWaivers([d], [waiver()], () => undefined, present, "2027-01-01", PACKS).diagnostics[0]
        ?.waived,
    ).toBeUndefined();
  });

  it("refuses a malformed today or waiver rather than guessing", () => {
    expect(() => applyWaivers([], [], subjectOf, present, "2027-02-30", PACKS)).toThrow(
      'applyWaivers: today must be a date written YYYY-MM-DD, not "2027-02-30"',
    );
    expect(() =>
      applyWaivers([], [waiver({ expires: "next year" })], subjectOf, present, "2027-01-01", PACKS),
    ).toThrow(
      'applyWaivers: waivers[0].expires: "next year" is not a calendar date written YYYY-MM-DD',
    );
  });
});

describe("a bare rule id that two packs have", () => {
  const rules = [{ id: "no-level-2" }, { id: "four-eyes" }];
  const own = waiver({ rule: "no-level-2", element: "Draft" });
  const packs = [
    { name: "security", source: "security.policy.yaml", spec: { rules } },
    {
      name: "cost",
      source: "cost.policy.yaml",
      spec: { rules: [{ id: "no-level-2" }] },
      waivers: [own],
    },
  ];
  const both = [finding("security/no-level-2", "Send"), finding("cost/no-level-2", "Send")];
  const refusal =
    "'no-level-2' is a rule of more than one pack (security/no-level-2, cost/no-level-2): write <pack>/<id>";

  it("is refused in the config's waivers and in a pack's own (it waived both packs' rules)", () => {
    const config = waiver({ rule: "no-level-2" });
    expect(() =>
      applyWaivers(both, [config, own], subjectOf, present, "2027-01-01", packs),
    ).toThrow(
      `applyWaivers: waivers[0].rule: ${refusal}; cost.policy.yaml: waivers[0].rule: ${refusal}`,
    );
    expect(ambiguousWaiverProblems([config, own], packs)).toEqual([
      `waivers[0].rule: ${refusal}`,
      `cost.policy.yaml: waivers[0].rule: ${refusal}`,
    ]);
  });

  it("is not refused with its pack written, nor when one pack has it", () => {
    const written = waiver({ rule: "cost/no-level-2" });
    const out = applyWaivers(both, [written], subjectOf, present, "2027-01-01", packs);
    expect(out.diagnostics.map((d) => d.waived !== undefined)).toEqual([false, true]);
    expect(ambiguousWaiverProblems([waiver({ rule: "four-eyes" })], packs)).toEqual([]);
    expect(ambiguousWaiverProblems([waiver({ rule: "no-level-2" })], [{ name: "bank" }])).toEqual(
      [],
    );
  });
});

describe("a bare rule id that is agentflow's code and a pack's rule", () => {
  const packs = [{ name: "bank", spec: { rules: [{ id: "TOOL_EFFECT_NEEDS_GATE" }] } }];
  const both = [
    finding("TOOL_EFFECT_NEEDS_GATE", "Send"),
    finding("bank/TOOL_EFFECT_NEEDS_GATE", "Send"),
  ];

  it("is refused: it waived both the built-in finding and the pack's", () => {
    const bare = waiver({ rule: "TOOL_EFFECT_NEEDS_GATE" });
    expect(() => applyWaivers(both, [bare], subjectOf, present, "2027-01-01", packs)).toThrow(
      "applyWaivers: waivers[0].rule: 'TOOL_EFFECT_NEEDS_GATE' is agentflow's rule and a pack's (TOOL_EFFECT_NEEDS_GATE, bank/TOOL_EFFECT_NEEDS_GATE): write <pack>/<id> for a pack's; agentflow's can be waived once no pack's rule has its id",
    );
  });

  it("is not refused with its pack written, nor without a pack of that id", () => {
    const written = waiver({ rule: "bank/TOOL_EFFECT_NEEDS_GATE" });
    const out = applyWaivers(both, [written], subjectOf, present, "2027-01-01", packs);
    expect(out.diagnostics.map((d) => d.waived !== undefined)).toEqual([false, true]);
    const bare = waiver({ rule: "TOOL_EFFECT_NEEDS_GATE" });
    expect(ambiguousWaiverProblems([bare], [{ name: "bank", spec: { rules: [] } }])).toEqual([]);
    const alone = applyWaivers(both.slice(0, 1), [bare], subjectOf, present, "2027-01-01", []);
    expect(alone.diagnostics.map((d) => d.waived !== undefined)).toEqual([true]);
  });
});

describe("waiverProblems", () => {
  it("accepts a well-formed waiver and names each problem of a bad one", () => {
    expect(waiverProblems(waiver(), "waivers[0]")).toEqual([]);
    expect(
      waiverProblems(
        { rule: "x", workflow: "w@1", reason: "r", grantedBy: "g", expires: "2028-02-29" },
        "w",
      ),
    ).toEqual([]);
    expect(
      waiverProblems(
        { rule: "", process: "P", workflow: "w", expires: "2100-02-29", by: 1 },
        "cfg: /waivers/0",
      ),
    ).toEqual([
      'cfg: /waivers/0.by: unknown key "by" (keys here: rule, process, element, workflow, reason, grantedBy, expires)',
      "cfg: /waivers/0: missing 'reason'",
      "cfg: /waivers/0: missing 'grantedBy'",
      "cfg: /waivers/0.rule: must not be empty",
      'cfg: /waivers/0.expires: "2100-02-29" is not a calendar date written YYYY-MM-DD',
      "cfg: /waivers/0: names both a process and a workflow; a waiver covers one subject",
      'cfg: /waivers/0.workflow: "w" is not written id@version',
    ]);
    expect(waiverProblems(null, "w")).toEqual(["w: must be a mapping, not null"]);
  });

  it("words its findings from one meta per code", () => {
    expect([WAIVER_EXPIRED.code, WAIVER_EXPIRED.defaultSeverity, WAIVER_EXPIRED.docs]).toEqual([
      "WAIVER_EXPIRED",
      "error",
      "docs/rules/WAIVER_EXPIRED.md",
    ]);
    expect([WAIVER_SUBJECT_MISSING.code, WAIVER_SUBJECT_MISSING.defaultSeverity]).toEqual([
      "WAIVER_SUBJECT_MISSING",
      "warning",
    ]);
  });
});
