/**
 * statementProblems: the in-toto Statement v1 shape, the predicate against its schema, and the
 * checks past the schema, one case per problem with its exact message.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalStatement } from "../../src/approval/index.js";
import { statementProblems } from "../../src/approval/index.js";
import { copy, sampleStatement } from "./helpers.js";

type Mutable = Record<string, unknown> & {
  subject: Record<string, unknown>[];
  predicate: Record<string, unknown> & {
    processes: (Record<string, unknown> & {
      agentTasks: (Record<string, unknown> & { dependencies: Record<string, unknown>[] })[];
    })[];
    approver: Record<string, unknown>;
  };
};

/** The sample statement, edited by `edit` on a copy. */
function edited(edit: (s: Mutable) => void): unknown {
  const statement = copy(sampleStatement()) as unknown as Mutable;
  edit(statement);
  return statement;
}

/** The first item of a list the sample is known to fill. */
function first<T>(list: readonly T[]): T {
  const [item] = list;
  if (item === undefined) throw new Error("empty list");
  return item;
}
const task = (s: Mutable) => first(first(s.predicate.processes).agentTasks);

describe("statementProblems", () => {
  it("finds nothing wrong with a statement createStatement made", () => {
    expect(statementProblems(sampleStatement())).toEqual([]);
  });

  it.each([
    ["not an object", 42, ["statement: must be an object"]],
    [
      "_type of another version",
      edited((s) => (s._type = "https://in-toto.io/Statement/v0.1")),
      ['statement _type: must be "https://in-toto.io/Statement/v1"'],
    ],
    [
      "another predicate type",
      edited((s) => (s.predicateType = "https://slsa.dev/provenance/v1")),
      ['statement predicateType: must be "https://agentflow.dev/approval/v1"'],
    ],
    [
      "no subject",
      edited((s) => (s.subject = [])),
      ["statement subject: must hold at least 1 item"],
    ],
    [
      "a missing field",
      edited((s) => delete s.predicate.approver.role),
      ["statement predicate.approver.role: missing"],
    ],
    [
      "an unknown field",
      edited((s) => (s.predicate.extra = 1)),
      ["statement predicate.extra: not a field of the statement's schema"],
    ],
    [
      "a field of the wrong type",
      edited((s) => (first(s.predicate.processes).allowed = "yes")),
      ["statement predicate.processes[0].allowed: must be true or false"],
    ],
    [
      "a digest that is not 64 hex digits",
      edited((s) => (first(s.subject).digest = { sha256: "ABC" })),
      ["statement subject[0].digest.sha256: must be 64 lowercase hex digits"],
    ],
    [
      "a content hash without its prefix",
      edited((s) => (task(s).contentHash = "a".repeat(64))),
      [
        'statement predicate.processes[0].agentTasks[0].contentHash: must be "sha256:" and 64 lowercase hex digits',
      ],
    ],
    [
      "an unknown subject kind",
      edited((s) => (first(s.subject).annotations = { agentflowKind: "script" })),
      [
        "statement subject[0].annotations.agentflowKind: must be one of process, workflow, tool, config, policy, plugin",
      ],
    ],
    [
      "an unknown gate status",
      edited((s) => (task(s).gate = "skipped")),
      [
        "statement predicate.processes[0].agentTasks[0].gate: must be one of reached, bypassed, missing",
      ],
    ],
    [
      "a negative level",
      edited((s) => (task(s).declaredLevel = -1)),
      ["statement predicate.processes[0].agentTasks[0].declaredLevel: must be at least 0"],
    ],
    [
      "an empty role",
      edited((s) => (s.predicate.approver.role = "")),
      ["statement predicate.approver.role: must not be empty"],
    ],
    [
      "a time that is not ISO 8601 UTC",
      edited((s) => (s.predicate.approver.time = "2026-01-31 09:30")),
      ["statement predicate.approver.time: must be an ISO 8601 UTC time (2026-01-31T09:30:00Z)"],
    ],
    [
      "a time of a day that does not exist",
      edited((s) => (s.predicate.approver.time = "2026-02-30T09:30:00Z")),
      ['statement predicate.approver.time: "2026-02-30T09:30:00Z" is not a time'],
    ],
    [
      "a process that is no subject of kind process",
      edited((s) => (first(s.predicate.processes).name = "agentflow.config.json")),
      ["statement predicate.processes[0].name: names no subject of kind process"],
    ],
    [
      "a workflow named by no subject",
      edited((s) => (task(s).workflow = "elsewhere.yaml")),
      [
        'statement predicate.processes[0].agentTasks[0].workflow: names "elsewhere.yaml", which is not a subject',
      ],
    ],
    [
      "a dependency named by no subject",
      edited((s) => (first(task(s).dependencies).name = "x.json")),
      [
        'statement predicate.processes[0].agentTasks[0].dependencies[0].name: names "x.json", which is not a subject',
      ],
    ],
  ])("refuses %s", (_what, value, messages) => {
    const reasons = statementProblems(value);
    expect(reasons.map((r) => r.message)).toEqual(messages);
    expect(reasons.every((r) => r.code === "STATEMENT_INVALID")).toBe(true);
  });

  it("says where a nullable field went wrong without naming its null branch", () => {
    const reasons = statementProblems(edited((s) => (task(s).ref = 5)));
    expect(reasons.map((r) => r.message)).toEqual([
      "statement predicate.processes[0].agentTasks[0].ref: must be a string",
    ]);
    expect(reasons[0]?.data).toEqual({
      pointer: "/predicate/processes/0/agentTasks/0/ref",
      problem: "type",
      detail: "string",
    });
  });

  it("refuses processes out of order or twice", () => {
    const two = (names: [string, string]) =>
      edited((s) => {
        const first = s.predicate.processes[0];
        if (first === undefined) throw new Error("no process");
        s.subject.push({
          name: "processes/a.bpmn",
          digest: { sha256: "0".repeat(64) },
          annotations: { agentflowKind: "process" },
        });
        s.subject.sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
        s.predicate.processes = names.map((name) => ({ ...first, name }));
      });
    expect(
      statementProblems(two(["processes/loan.bpmn", "processes/a.bpmn"])).map((r) => r.message),
    ).toEqual([
      'statement predicate.processes[1].name: out of order: processes must be sorted by name (after "processes/loan.bpmn")',
    ]);
    expect(
      statementProblems(two(["processes/a.bpmn", "processes/a.bpmn"])).map((r) => r.message),
    ).toEqual([
      'statement predicate.processes[1].name: names the process "processes/a.bpmn" again',
    ]);
  });

  it("refuses agent tasks out of order or twice", () => {
    const tasks = (ids: [string, string]) =>
      edited((s) => {
        const process = s.predicate.processes[0];
        const first = process?.agentTasks[0];
        if (process === undefined || first === undefined) throw new Error("no task");
        process.agentTasks = ids.map((elementId) => ({ ...first, elementId }));
      });
    expect(statementProblems(tasks(["b", "a"])).map((r) => r.message)).toEqual([
      'statement predicate.processes[0].agentTasks[1].elementId: out of order: agent tasks must be sorted by element id (after "b")',
    ]);
    expect(statementProblems(tasks(["a", "a"])).map((r) => r.message)).toEqual([
      'statement predicate.processes[0].agentTasks[1].elementId: names the agent task "a" again',
    ]);
  });

  it("refuses subjects out of order (SUBJECTS_UNSORTED), naming the subject", () => {
    const statement = sampleStatement();
    const reordered: ApprovalStatement = {
      ...statement,
      subject: [...statement.subject].reverse(),
    };
    const reasons = statementProblems(reordered);
    expect(reasons.map((r) => r.code)).toEqual([
      "SUBJECTS_UNSORTED",
      "SUBJECTS_UNSORTED",
      "SUBJECTS_UNSORTED",
    ]);
    expect(reasons[0]).toEqual({
      code: "SUBJECTS_UNSORTED",
      subject: "registry/tools/pay.json",
      message:
        "registry/tools/pay.json: subject 2 is out of order: subjects must be sorted by name (after registry/workflows/loan-review.yaml)",
      data: {
        name: "registry/tools/pay.json",
        index: 1,
        previous: "registry/workflows/loan-review.yaml",
      },
    });
  });

  it("refuses a subject named twice (SUBJECT_DUPLICATE), even when the copies agree", () => {
    const statement = sampleStatement();
    const first = statement.subject[0];
    if (first === undefined) throw new Error("no subject");
    const reasons = statementProblems({ ...statement, subject: [first, ...statement.subject] });
    expect(reasons).toEqual([
      {
        code: "SUBJECT_DUPLICATE",
        subject: "agentflow.config.json",
        message: "agentflow.config.json: named by subjects 1 and 2",
        data: { name: "agentflow.config.json", index: 1, first: 0 },
      },
    ]);
  });

  it("checks subject order even when the shape is wrong elsewhere", () => {
    const value = edited((s) => {
      s.subject.reverse();
      s.predicate.approver.role = 1;
    });
    const codes = statementProblems(value).map((r) => r.code);
    expect(codes).toContain("SUBJECTS_UNSORTED");
    expect(codes).toContain("STATEMENT_INVALID");
  });
});
