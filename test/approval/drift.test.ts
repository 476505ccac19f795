/**
 * compareStatements: one reason per difference, each with its exact message, sorted by subject
 * then code; the inputs' order and the approver's claim are never compared.
 */
import { describe, expect, it } from "vitest";
import type {
  ApprovalStatement,
  ProcessApproval,
  StatementInput,
  TaskApproval,
} from "../../src/approval/index.js";
import { compareStatements, createStatement } from "../../src/approval/index.js";
import { HASH_B, REVIEW, sampleInput, sampleStatement } from "./helpers.js";

const approved = sampleStatement();
const digestOf = (statement: ApprovalStatement, name: string): string =>
  statement.subject.find((s) => s.name === name)?.digest.sha256 ?? "";

/** The messages of comparing the sample with the sample changed by `overrides`. */
function drift(overrides: Partial<StatementInput>): string[] {
  return compareStatements(approved, sampleStatement(overrides)).map((r) => r.message);
}

const base = sampleInput();
const withFile = (name: string, bytes: string) =>
  base.files.map((f) => (f.name === name ? { ...f, bytes } : f));
const withTask = (patch: Partial<TaskApproval>): ProcessApproval[] =>
  base.processes.map((p) => ({ ...p, agentTasks: p.agentTasks.map((t) => ({ ...t, ...patch })) }));

describe("compareStatements", () => {
  it("finds nothing between a statement and itself rebuilt", () => {
    expect(compareStatements(approved, sampleStatement())).toEqual([]);
  });

  it("ignores the inputs' order, the paths named and the approver's claim", () => {
    const current = sampleStatement({
      files: [...base.files].reverse(),
      inputs: {
        paths: ["processes/loan.bpmn", "x"],
        registry: ["registry"],
        config: "agentflow.config.json",
      },
      approver: { role: "someone-else", time: "2027-01-01T00:00:00Z" },
    });
    expect(compareStatements(approved, current)).toEqual([]);
  });

  it("SUBJECT_CHANGED: one byte changed in a process", () => {
    const reasons = compareStatements(
      approved,
      sampleStatement({ files: withFile("processes/loan.bpmn", "<definitions/>\r\n") }),
    );
    const was = digestOf(approved, "processes/loan.bpmn");
    expect(reasons).toEqual([
      {
        code: "SUBJECT_CHANGED",
        subject: "processes/loan.bpmn",
        message: `processes/loan.bpmn: sha256 differs from the approved ${was.slice(0, 12)}…`,
        data: {
          name: "processes/loan.bpmn",
          field: "sha256",
          approved: was,
          current: digestOf(
            sampleStatement({ files: withFile("processes/loan.bpmn", "<definitions/>\r\n") }),
            "processes/loan.bpmn",
          ),
        },
      },
    ]);
  });

  it("SUBJECT_CHANGED: an input now of another kind", () => {
    const files = base.files.map((f) =>
      f.name === "registry/tools/pay.json" ? { ...f, kind: "policy" as const } : f,
    );
    expect(drift({ files })).toEqual([
      "registry/tools/pay.json: now a policy pack, approved as a tool contract",
    ]);
  });

  it("SUBJECT_REMOVED: an input no longer used", () => {
    const files = base.files.filter((f) => f.name !== "agentflow.config.json");
    expect(drift({ files, inputs: { ...base.inputs, config: null } })).toEqual([
      "agentflow.config.json: removed since the approval (approved as the config)",
    ]);
  });

  // A file the decisions no longer read but still there is not gone (SUBJECT_REMOVED says that).
  const PAY = "registry/tools/pay.json";
  const payDigest = digestOf(approved, PAY);
  it.each([
    [
      "still there, unchanged",
      payDigest,
      `${PAY}: unchanged, but no longer an input of the decisions (approved as a tool contract)`,
    ],
    [
      "still there, changed",
      "c".repeat(64),
      `${PAY}: sha256 differs from the approved ${payDigest.slice(0, 12)}…, and no longer an input of the decisions (approved as a tool contract)`,
    ],
  ])("an approved tool contract no longer read, %s", (_case, now, message) => {
    const current = sampleStatement({
      files: base.files.filter((f) => f.name !== PAY),
      processes: withTask({ dependencies: [] }),
    });
    const reasons = compareStatements(approved, current, new Map([[PAY, now]])).filter(
      (r) => r.subject === PAY,
    );
    expect(reasons.map((r) => [r.code, r.message, r.data.current])).toEqual([
      ["SUBJECT_UNUSED", message, now],
    ]);
  });

  it("SUBJECT_ADDED: a registry file a decision now resolves to", () => {
    const files = [
      ...base.files,
      { name: "registry/tools/pay-v2.json", kind: "tool" as const, bytes: "{}" },
    ];
    const processes = withTask({
      dependencies: [
        {
          ...REVIEW.dependencies[0],
          name: "registry/tools/pay-v2.json",
        } as TaskApproval["dependencies"][number],
      ],
    });
    const reasons = compareStatements(approved, sampleStatement({ files, processes }));
    expect(reasons.map((r) => [r.code, r.message])).toEqual([
      [
        "DECISION_CHANGED",
        "processes/loan.bpmn: agent task Review: tool tool:pay@1.0.0: name registry/tools/pay-v2.json, approved registry/tools/pay.json",
      ],
      [
        "SUBJECT_ADDED",
        "registry/tools/pay-v2.json: added since the approval (tool:pay@1.0.0 now resolves to it)",
      ],
    ]);
  });

  it("SUBJECT_ADDED: a file no decision resolves to is named by its kind", () => {
    const files = [...base.files, { name: "policy/bank.yaml", kind: "policy" as const, bytes: "" }];
    expect(drift({ files })).toEqual([
      "policy/bank.yaml: added since the approval (a policy pack)",
    ]);
  });

  it("SUBJECT_REMOVED and no decision reason for a process removed with its file", () => {
    const files = [
      ...base.files,
      { name: "processes/a.bpmn", kind: "process" as const, bytes: "" },
    ];
    const processes = [
      ...base.processes,
      { name: "processes/a.bpmn", processIds: ["A"], allowed: true, agentTasks: [] },
    ];
    const both = sampleStatement({ files, processes });
    expect(compareStatements(both, approved).map((r) => r.message)).toEqual([
      "processes/a.bpmn: removed since the approval (approved as a process)",
    ]);
  });

  it("VERSION_CHANGED: another agentflow", () => {
    expect(drift({ version: "0.2.0" })).toEqual([
      `agentflow 0.2.0 runs; ${approved.predicate.agentflow.version} approved`,
    ]);
  });

  it("RULESET_CHANGED: another digest, another preset", () => {
    expect(drift({ ruleSet: { digest: HASH_B, preset: "strict" } })).toEqual([
      "rule set: digest sha256:bbbbbbbbbbbb… differs from the approved sha256:aaaaaaaaaaaa…",
      "rule set: preset strict, approved recommended",
    ]);
  });

  it.each([
    [
      "ref",
      { ref: "agent:loan-review@1.1.0" },
      "ref agent:loan-review@1.1.0, approved agent:loan-review@1.0.0",
    ],
    ["declaredLevel", { declaredLevel: 3 }, "declaredLevel 3, approved 2"],
    ["justifiedLevel", { justifiedLevel: null }, "justifiedLevel none, approved 2"],
    ["effectiveLevel", { effectiveLevel: 4 }, "effectiveLevel 4, approved 2"],
    ["gate", { gate: "bypassed" }, "gate bypassed, approved reached"],
    [
      "resolution",
      { resolution: "snapshot", workflow: null },
      "resolution snapshot, approved registry",
    ],
    [
      "contentHash",
      { contentHash: HASH_B },
      "contentHash sha256:bbbbbbbbbbbb…, approved sha256:aaaaaaaaaaaa…",
    ],
    ["source", { source: "camunda" }, "source camunda, approved btv"],
  ] as const)("DECISION_CHANGED: a task's %s", (_field, patch, words) => {
    const messages = drift({ processes: withTask(patch) });
    expect(messages[0]).toBe(`processes/loan.bpmn: agent task Review: ${words}`);
    if (!("workflow" in patch)) expect(messages).toHaveLength(1);
  });

  it("DECISION_CHANGED: a task's workflow read from another file", () => {
    const files = [
      ...base.files,
      { name: "workflows/loan-review.yaml", kind: "workflow" as const, bytes: "id: loan-review\n" },
    ];
    const messages = drift({
      files,
      processes: withTask({ workflow: "workflows/loan-review.yaml" }),
    });
    expect(messages).toEqual([
      "processes/loan.bpmn: agent task Review: workflow workflows/loan-review.yaml, approved registry/workflows/loan-review.yaml",
      "workflows/loan-review.yaml: added since the approval (agent:loan-review@1.0.0 now resolves to it)",
    ]);
  });

  it("DECISION_CHANGED: a task added, a task removed", () => {
    const renamed = withTask({ elementId: "Assess" });
    expect(drift({ processes: renamed })).toEqual([
      "processes/loan.bpmn: agent task Assess added since the approval",
      "processes/loan.bpmn: agent task Review removed since the approval",
    ]);
  });

  it("DECISION_CHANGED: a dependency added, removed, or resolved otherwise", () => {
    const dependency = REVIEW.dependencies[0];
    if (dependency === undefined) throw new Error("no dependency");
    expect(drift({ processes: withTask({ dependencies: [] }) })).toEqual([
      "processes/loan.bpmn: agent task Review: tool tool:pay@1.0.0 removed since the approval",
    ]);
    const delegate = {
      kind: "delegate" as const,
      ref: "agent:helper@1.0.0",
      name: null,
      contentHash: null,
      failure: "missing",
    };
    expect(drift({ processes: withTask({ dependencies: [delegate, dependency] }) })).toEqual([
      "processes/loan.bpmn: agent task Review: delegate agent:helper@1.0.0 added since the approval",
    ]);
    const failed = { ...dependency, name: null, contentHash: null, failure: "conflict" };
    expect(drift({ processes: withTask({ dependencies: [failed] }) })).toEqual([
      "processes/loan.bpmn: agent task Review: tool tool:pay@1.0.0: contentHash none, approved sha256:bbbbbbbbbbbb…",
      "processes/loan.bpmn: agent task Review: tool tool:pay@1.0.0: failure conflict, approved none",
      "processes/loan.bpmn: agent task Review: tool tool:pay@1.0.0: name none, approved registry/tools/pay.json",
    ]);
  });

  it("DECISION_CHANGED: the process's ids and verdict", () => {
    const processes = base.processes.map((p) => ({
      ...p,
      processIds: ["Loan", "Appeal"],
      allowed: false,
    }));
    expect(drift({ processes })).toEqual([
      "processes/loan.bpmn: processIds [Loan, Appeal], approved [Loan]",
      "processes/loan.bpmn: promotion BLOCKED now, approved ALLOWED",
    ]);
  });

  it("DECISION_CHANGED: a decision added or removed for a process file in both", () => {
    const none = createStatement({ ...base, processes: [] });
    expect(compareStatements(approved, none).map((r) => r.message)).toEqual([
      "processes/loan.bpmn: its decision removed since the approval",
    ]);
    expect(compareStatements(none, approved).map((r) => r.message)).toEqual([
      "processes/loan.bpmn: a decision added since the approval",
    ]);
  });

  it("sorts by subject (none first), then code, and keeps the data", () => {
    const current = sampleStatement({
      version: "9.9.9",
      files: withFile("registry/tools/pay.json", "{}").concat([
        { name: "a.json", kind: "tool", bytes: "" },
      ]),
      processes: withTask({ gate: "missing" }),
    });
    const reasons = compareStatements(approved, current);
    expect(reasons.map((r) => [r.subject ?? "", r.code])).toEqual([
      ["", "VERSION_CHANGED"],
      ["a.json", "SUBJECT_ADDED"],
      ["processes/loan.bpmn", "DECISION_CHANGED"],
      ["registry/tools/pay.json", "SUBJECT_CHANGED"],
    ]);
    expect(reasons[2]?.data).toEqual({
      process: "processes/loan.bpmn",
      change: "task-field",
      elementId: "Review",
      field: "gate",
      approved: "reached",
      current: "missing",
    });
  });
});
