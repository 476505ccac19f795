/**
 * createStatement: every input by the sha256 of its raw bytes, subjects and processes sorted so
 * that the order inputs are named in changes nothing, and a caller's mistakes refused.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createStatement } from "../../src/approval/index.js";
import { sampleInput } from "./helpers.js";

const sha256 = (bytes: Uint8Array | string): string =>
  createHash("sha256").update(bytes).digest("hex");

describe("createStatement", () => {
  it("writes an in-toto Statement v1 with agentflow's predicate", () => {
    const statement = createStatement(sampleInput());
    expect(statement._type).toBe("https://in-toto.io/Statement/v1");
    expect(statement.predicateType).toBe("https://agentflow.dev/approval/v1");
    expect(Object.keys(statement)).toEqual(["_type", "subject", "predicateType", "predicate"]);
    expect(Object.keys(statement.predicate)).toEqual([
      "agentflow",
      "ruleSet",
      "inputs",
      "processes",
      "approver",
    ]);
    expect(statement.predicate.approver).toEqual({
      role: "credit-officer",
      ticket: "CHG-1",
      time: "2026-01-31T09:30:00Z",
    });
  });

  it("names each input by the sha256 of its raw bytes, with its kind", () => {
    const statement = createStatement(sampleInput());
    expect(statement.subject.find((s) => s.name === "processes/loan.bpmn")).toEqual({
      name: "processes/loan.bpmn",
      digest: { sha256: sha256("<definitions/>\n") },
      annotations: { agentflowKind: "process" },
    });
  });

  it("hashes raw bytes: a CRLF file and its LF twin differ, a BOM counts", () => {
    const file = (bytes: Uint8Array | string) =>
      createStatement(
        sampleInput({
          files: [
            ...sampleInput().files.filter((f) => f.name !== "agentflow.config.json"),
            { name: "agentflow.config.json", kind: "config", bytes },
          ],
        }),
      ).subject.find((s) => s.name === "agentflow.config.json")?.digest.sha256;
    const lf = file("{\n}\n");
    const crlf = file("{\r\n}\r\n");
    expect(lf).toBe(sha256("{\n}\n"));
    expect(crlf).toBe(sha256("{\r\n}\r\n"));
    expect(crlf).not.toBe(lf);
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    expect(file(bom)).toBe(sha256(bom));
    expect(file(bom)).not.toBe(file("{}"));
    // A string is its UTF-8 bytes.
    expect(file("é")).toBe(sha256(Uint8Array.from([0xc3, 0xa9])));
  });

  it("sorts subjects by name in code-unit order, whatever order the files come in", () => {
    const input = sampleInput({
      files: [
        { name: "a/é.json", kind: "tool", bytes: "1" },
        { name: "a/z.json", kind: "tool", bytes: "2" },
        { name: "B.bpmn", kind: "process", bytes: "3" },
        { name: "a/Z.json", kind: "tool", bytes: "4" },
      ],
      processes: [{ name: "B.bpmn", processIds: [], allowed: true, agentTasks: [] }],
      inputs: { paths: [], registry: [], config: null },
    });
    const statement = createStatement(input);
    expect(statement.subject.map((s) => s.name)).toEqual([
      "B.bpmn",
      "a/Z.json",
      "a/z.json",
      "a/é.json",
    ]);
    const reversed = createStatement({ ...input, files: [...input.files].reverse() });
    expect(JSON.stringify(reversed)).toBe(JSON.stringify(statement));
  });

  it("sorts processes by name and writes every decision's fields in one order", () => {
    const base = sampleInput();
    const [process] = base.processes;
    if (process === undefined) throw new Error("no process");
    const task = process.agentTasks[0];
    if (task === undefined) throw new Error("no task");
    const shuffled = Object.fromEntries(Object.entries(task).reverse()) as typeof task;
    const input = sampleInput({
      files: [...base.files, { name: "processes/a.bpmn", kind: "process", bytes: "" }],
      processes: [
        { ...process, agentTasks: [shuffled] },
        { name: "processes/a.bpmn", processIds: [], allowed: true, agentTasks: [] },
      ],
    });
    const statement = createStatement(input);
    expect(statement.predicate.processes.map((p) => p.name)).toEqual([
      "processes/a.bpmn",
      "processes/loan.bpmn",
    ]);
    expect(JSON.stringify(statement.predicate.processes[1]?.agentTasks[0])).toBe(
      JSON.stringify(task),
    );
  });

  it("keeps the inputs' paths in the order given (drift never compares them)", () => {
    const statement = createStatement(
      sampleInput({
        inputs: { paths: ["b", "a"], registry: ["r"], config: "agentflow.config.json" },
      }),
    );
    expect(statement.predicate.inputs.paths).toEqual(["b", "a"]);
  });

  it("leaves the ticket out when the approver gives none", () => {
    const statement = createStatement(
      sampleInput({ approver: { role: "r", time: "2026-01-31T09:30:00.123Z" } }),
    );
    expect(statement.predicate.approver).toEqual({ role: "r", time: "2026-01-31T09:30:00.123Z" });
    expect(JSON.stringify(statement.predicate.approver)).not.toContain("ticket");
  });

  it("refuses two files of one name", () => {
    const base = sampleInput();
    const files = [
      ...base.files,
      { name: "processes/loan.bpmn", kind: "process" as const, bytes: "x" },
    ];
    expect(() => createStatement({ ...base, files })).toThrow(
      new TypeError('file "processes/loan.bpmn" is given twice'),
    );
  });

  it("refuses two processes of one name", () => {
    const base = sampleInput();
    const processes = [...base.processes, ...base.processes];
    expect(() => createStatement({ ...base, processes })).toThrow(
      new TypeError('process "processes/loan.bpmn" is given twice'),
    );
  });

  it("refuses a statement that statementProblems would refuse, with its messages", () => {
    const base = sampleInput();
    const files = base.files.filter((f) => f.name !== "registry/tools/pay.json");
    expect(() => createStatement({ ...base, files })).toThrow(
      new TypeError(
        'not an approval statement:\nstatement predicate.processes[0].agentTasks[0].dependencies[0].name: names "registry/tools/pay.json", which is not a subject',
      ),
    );
    expect(() => createStatement({ ...base, approver: { role: "r", time: "yesterday" } })).toThrow(
      /statement predicate\.approver\.time: must be an ISO 8601 UTC time/,
    );
  });
});
