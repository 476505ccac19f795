/**
 * The Camunda Modeler's project reader refuses two packs of one name, as `agentflow check` does
 * (red team: it read both, and the team pack's waiver waived the compliance pack's error rule):
 * a problem of the project naming both files, and no pack runs.
 */
import { describe, expect, it } from "vitest";
import type { ReadFile } from "../../src/camunda-modeler/project-read.js";
import { readProject } from "../../src/camunda-modeler/project-read.js";

const pack = (name: string, severity: string, waivers = ""): string => `kind: PolicyPack
name: ${name}
version: "1"
rules:
  - id: level-3-needs-review
    severity: ${severity}
    for: agentTask
    when: level >= 3
${waivers}`;
const WAIVERS = `waivers:
  - rule: level-3-needs-review
    process: LoanOrigination
    reason: the team accepts its own warning
    grantedBy: team-lead@bank.example
    expires: "2099-12-31"
`;

/** A project at /r (a clone) whose config lists `policies`, with the files given. */
function project(files: Readonly<Record<string, string>>): ReadFile {
  const all: Record<string, string> = { "/r/.git": "", ...files };
  return (path) => {
    const text = all[path];
    if (path === "/r/.git") return Promise.resolve({ kind: "folder" });
    return Promise.resolve(text === undefined ? { kind: "missing" } : { kind: "text", text });
  };
}

describe("readProject with packs of one name", () => {
  it.each([
    [
      "two files named bank: refused, naming both, no pack runs",
      {
        "/r/compliance.yaml": pack("bank", "error"),
        "/r/team.yaml": pack("bank", "warning", WAIVERS),
      },
      [],
      [
        "/r/agentflow.config.json: policy pack /r/team.yaml is named 'bank', as policy pack /r/compliance.yaml is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
      ],
    ],
    [
      "names of their own: both run",
      { "/r/compliance.yaml": pack("bank", "error"), "/r/team.yaml": pack("team", "warning") },
      ["bank", "team"],
      [],
    ],
  ])("%s", async (_name, packs, names, problems) => {
    const read = project({
      "/r/agentflow.config.json": JSON.stringify({ policies: ["compliance.yaml", "team.yaml"] }),
      ...packs,
    });
    const got = await readProject("/r/loan.bpmn", read);
    expect(got.packs.map((p) => p.name)).toEqual(names);
    expect(got.problems).toEqual(problems);
  });
});
