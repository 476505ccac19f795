/** The GitLab Code Quality report: fields GitLab reads, severities, and stable fingerprints. */
import { describe, expect, it } from "vitest";
import type { CheckedFile } from "../../src/report/index.js";
import { formatGitlab } from "../../src/report/index.js";
import { diag } from "./diag.js";

interface Issue {
  type: string;
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number } };
}

const FILES: CheckedFile[] = [
  {
    file: "./flows/a.json",
    kind: "AgentWorkflow",
    diagnostics: [
      diag("RETRY_WITHOUT_MAX", "error", {
        target: { kind: "node", nodeId: "check" },
        path: "/nodes/2",
        location: { line: 10, column: 3 },
      }),
      diag("BUDGET_MISSING", "warning"),
      diag("AUTONOMY_SELF_MODIFYING", "info", { location: { line: 3, column: 1 } }),
    ],
  },
  {
    file: "procs\\p.bpmn",
    kind: "BpmnProcess",
    diagnostics: [
      diag("AGENT_UNRESOLVED", "warning", { target: { kind: "bpmn-element", elementId: "T1" } }),
      diag("AGENT_UNRESOLVED", "warning", { target: { kind: "bpmn-element", elementId: "T1" } }),
    ],
  },
];

// FILES' BPMN file is a Windows path, read as Windows reads it.
const parse = (files: CheckedFile[], windowsPaths = true): Issue[] =>
  JSON.parse(formatGitlab(files, { windowsPaths })) as Issue[];

describe("formatGitlab", () => {
  // On Windows a backslash separates folders; elsewhere it is a character of the file's name.
  it.each<[string, boolean, string]>([
    ["procs\\p.bpmn", true, "procs/p.bpmn"],
    ["procs\\p.bpmn", false, "procs\\p.bpmn"],
    ["./back\\slash.bpmn", false, "back\\slash.bpmn"],
    ["C:\\repo\\p.bpmn", false, "C:/repo/p.bpmn"],
    ["./a/b.bpmn", false, "a/b.bpmn"],
  ])("places %j (windows: %s) at %j", (file, windows, path) => {
    const files = [{ file, kind: "BpmnProcess" as const, diagnostics: [diag("X", "error")] }];
    expect(parse(files, windows).map((i) => i.location.path)).toEqual([path]);
  });

  it("writes the fields GitLab reads, one issue per diagnostic, in order", () => {
    const issues = parse(FILES);
    expect(issues.map((i) => [i.check_name, i.severity, i.location])).toEqual([
      ["RETRY_WITHOUT_MAX", "major", { path: "flows/a.json", lines: { begin: 10 } }],
      ["BUDGET_MISSING", "minor", { path: "flows/a.json", lines: { begin: 1 } }],
      ["AUTONOMY_SELF_MODIFYING", "info", { path: "flows/a.json", lines: { begin: 3 } }],
      ["AGENT_UNRESOLVED", "minor", { path: "procs/p.bpmn", lines: { begin: 1 } }],
      ["AGENT_UNRESOLVED", "minor", { path: "procs/p.bpmn", lines: { begin: 1 } }],
    ]);
    expect(issues.every((i) => i.type === "issue")).toBe(true);
    expect(issues[0]?.description).toBe("RETRY_WITHOUT_MAX msg");
  });

  it("gives unique fingerprints that do not move with lines or wording", () => {
    const issues = parse(FILES);
    const prints = issues.map((i) => i.fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
    expect(prints.every((p) => /^[0-9a-f]{64}$/.test(p))).toBe(true);
    const moved = FILES.map((f) => ({
      ...f,
      diagnostics: f.diagnostics.map((d) => ({
        ...d,
        message: "reworded",
        location: { line: 99, column: 9 },
      })),
    }));
    expect(parse(moved).map((i) => i.fingerprint)).toEqual(prints);
    const renamed = [{ ...FILES[0], file: "flows/b.json" } as CheckedFile];
    expect(parse(renamed)[0]?.fingerprint).not.toBe(prints[0]);
  });

  it("is an empty array for clean input", () => {
    expect(formatGitlab([{ file: "a.json", kind: "AgentWorkflow", diagnostics: [] }])).toBe("[]\n");
  });
});
