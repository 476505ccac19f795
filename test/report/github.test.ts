import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import type { CheckedFile } from "../../src/report/index.js";
import { formatGithub } from "../../src/report/index.js";
import { escapeGithubData, escapeGithubProperty } from "../../src/report/github.js";
import { diag } from "./diag.js";

describe("formatGithub", () => {
  it("writes one workflow command per diagnostic, in order, and nothing else", () => {
    const files: CheckedFile[] = [
      {
        file: "flows/a.json",
        kind: "AgentWorkflow",
        diagnostics: [
          diag("RETRY_WITHOUT_MAX", "error", {
            location: { line: 12, column: 5 },
            remediation: "Set maxRetries.",
          }),
          diag("NODE_UNREACHABLE", "warning", { location: { line: 3, column: 1 } }),
          diag("AUTONOMY_SELF_MODIFYING", "info"),
        ],
      },
      { file: "flows/clean.json", kind: "AgentWorkflow", diagnostics: [] },
      { file: "b.yaml", kind: "unknown", diagnostics: [diag("STRUCTURE_INVALID", "error")] },
    ];
    expect(formatGithub(files)).toBe(
      [
        "::error file=flows/a.json,line=12,col=5,title=RETRY_WITHOUT_MAX::RETRY_WITHOUT_MAX msg%0A%0ASet maxRetries.",
        "::warning file=flows/a.json,line=3,col=1,title=NODE_UNREACHABLE::NODE_UNREACHABLE msg",
        "::notice file=flows/a.json,title=AUTONOMY_SELF_MODIFYING::AUTONOMY_SELF_MODIFYING msg",
        "::error file=b.yaml,title=STRUCTURE_INVALID::STRUCTURE_INVALID msg",
        "",
      ].join("\n"),
    );
  });

  const empty: readonly [string, CheckedFile[]][] = [
    ["no files", []],
    ["clean files", [{ file: "a.json", kind: "AgentWorkflow", diagnostics: [] }]],
  ];
  it.each(empty)("writes nothing for %s", (_name, files) => {
    expect(formatGithub(files)).toBe("");
  });

  const severities: readonly [Diagnostic["severity"], string][] = [
    ["error", "::error "],
    ["warning", "::warning "],
    ["info", "::notice "],
  ];
  it.each(severities)("maps %s to %s", (severity, prefix) => {
    const out = formatGithub([{ file: "f", kind: "unknown", diagnostics: [diag("X", severity)] }]);
    expect(out.startsWith(prefix)).toBe(true);
  });

  it("escapes file, title and message so that a document cannot inject a command", () => {
    const hostile = "50%\r\n::error file=x::pwned, a:b";
    const out = formatGithub([
      {
        file: "dir,1/a:b%.json",
        kind: "unknown",
        diagnostics: [diag("CODE,x:y", "warning", { message: hostile })],
      },
    ]);
    expect(out).toBe(
      "::warning file=dir%2C1/a%3Ab%25.json,title=CODE%2Cx%3Ay::" +
        "50%25%0D%0A::error file=x::pwned, a:b\n",
    );
    expect(out.split("\n")).toHaveLength(2);
  });
});

describe("escaping", () => {
  const table: readonly [string, string, string][] = [
    ["plain", "plain", "plain"],
    ["%", "%25", "%25"],
    ["%0A", "%250A", "%250A"],
    ["\r", "%0D", "%0D"],
    ["\n", "%0A", "%0A"],
    ["\r\n", "%0D%0A", "%0D%0A"],
    [":", ":", "%3A"],
    [",", ",", "%2C"],
    ["a:b,c%d\ne", "a:b,c%25d%0Ae", "a%3Ab%2Cc%25d%0Ae"],
    ["::", "::", "%3A%3A"],
    ["é😀", "é😀", "é😀"],
  ];
  it.each(table)("%j → data %j, property %j", (raw, data, property) => {
    expect(escapeGithubData(raw)).toBe(data);
    expect(escapeGithubProperty(raw)).toBe(property);
  });
});
