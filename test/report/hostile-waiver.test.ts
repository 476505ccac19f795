/**
 * A waiver's reason and grantor are the config's text, and a diagnostic handed to the formats may
 * carry raw text: on every surface a person reads, invisible characters are shown escaped, so a
 * `\r` or an escape sequence cannot erase the lines above it or forge "promotion ALLOWED". The
 * data formats (JSON, SARIF's suppression, GitLab's `agentflow.waived`) keep the text as written.
 */
import { describe, expect, it } from "vitest";
import type { DiagnosticWaiver } from "../../src/model/index.js";
import type { CheckedFile } from "../../src/report/index.js";
import {
  formatGithub,
  formatGitlab,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
  waiverText,
} from "../../src/report/index.js";
import { diag } from "./diag.js";

const ERASE = "\r\u001b[1A\u001b[2K\u001b[1A\u001b[2K";

const waiver = (reason: string, grantedBy = "cro"): DiagnosticWaiver => ({
  reason,
  grantedBy,
  expires: "2099-01-01",
});

describe("waiverText", () => {
  it.each<[string, DiagnosticWaiver, string]>([
    ["plain", waiver("pilot"), "waived until 2099-01-01 (cro): pilot"],
    [
      "a reason that erases lines",
      waiver(`pilot${ERASE}x: promotion ALLOWED`),
      "waived until 2099-01-01 (cro): pilot\\r\\u{1B}[1A\\u{1B}[2K\\u{1B}[1A\\u{1B}[2Kx: promotion ALLOWED",
    ],
    [
      "a grantor with a newline and a bidi override",
      waiver("pilot", "cro\n\u202Eorc"),
      "waived until 2099-01-01 (cro\\n\\u{202E}orc): pilot",
    ],
    ["a zero-width space", waiver("pi\u200Blot"), "waived until 2099-01-01 (cro): pi\\u{200B}lot"],
  ])("shows %s escaped", (_, given, expected) => {
    expect(waiverText(given)).toBe(expected);
  });
});

describe("hostile text in the formats", () => {
  const files: CheckedFile[] = [
    {
      file: "p.bpmn",
      kind: "BpmnProcess",
      diagnostics: [
        diag("bank/four-eyes", "error", {
          message: "needs two roles\n\u001b[2K\r✔ 1 file checked, no problems",
          location: { line: 7, column: 5 },
          waived: waiver(`pilot${ERASE}`),
        }),
        diag("bank/x\u001b[2K", "error", { location: { line: 9, column: 1 } }),
      ],
    },
  ];

  it("prints no control character in text, each finding on its one line", () => {
    expect(formatText(files).split("\n")).toEqual([
      "p.bpmn",
      "  7:5  error    needs two roles\\n\\u{1B}[2K\\r✔ 1 file checked, no problems  bank/four-eyes  waived until 2099-01-01 (cro): pilot\\r\\u{1B}[1A\\u{1B}[2K\\u{1B}[1A\\u{1B}[2K",
      "  9:1  error    bank/x\\u{1B}[2K msg  bank/x\\u{1B}[2K",
      "",
      "✖ 2 problems (1 error, 0 warnings, 1 waived) in 1 file checked",
      "",
    ]);
  });

  // Messages are escaped where they are made (rules/message.ts); here the waiver alone is hostile.
  const waived: CheckedFile[] = [
    {
      file: "p.bpmn",
      kind: "BpmnProcess",
      diagnostics: [diag("bank/four-eyes", "error", { waived: waiver(`pilot${ERASE}`) })],
    },
  ];
  const descriptions = (out: string): string =>
    (JSON.parse(out) as { description: string }[]).map((i) => i.description).join("\n");
  it.each<[string, string]>([
    ["github", formatGithub(waived)],
    ["junit", formatJunit(waived)],
    ["gitlab", descriptions(formatGitlab(waived))],
  ])("shows the waiver escaped in %s", (_, out) => {
    expect(out).toContain("(cro): pilot\\r\\u{1B}[1A\\u{1B}[2K\\u{1B}[1A\\u{1B}[2K");
    expect(out.includes("\r") || out.includes("\u001b")).toBe(false);
  });

  it("keeps the waiver as written in the data formats", () => {
    const json = JSON.parse(formatJson(files)) as CheckedFile[];
    expect(json[0]?.diagnostics[0]?.waived?.reason).toBe(`pilot${ERASE}`);
    const gitlab = JSON.parse(formatGitlab(files)) as {
      agentflow?: { waived?: DiagnosticWaiver };
    }[];
    expect(gitlab[0]?.agentflow?.waived?.reason).toBe(`pilot${ERASE}`);
    const sarif = JSON.parse(formatSarif(files)) as {
      runs: { results: { suppressions?: { justification: string }[] }[] }[];
    };
    expect(sarif.runs[0]?.results[0]?.suppressions?.[0]?.justification).toBe(
      `pilot${ERASE} (granted by cro, expires 2099-01-01)`,
    );
  });
});
