import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import type { CheckedFile } from "../../src/report/index.js";
import { formatJson } from "../../src/report/index.js";

const DIAGNOSTIC: Diagnostic = {
  code: "RETRY_WITHOUT_MAX",
  severity: "error",
  message: "Route 'retry' loops back without maxRetries.",
  target: { kind: "node", nodeId: "check" },
  path: "/nodes/1",
  data: { nodeId: "check" },
  location: { line: 4, column: 5 },
};

const SMALL: CheckedFile[] = [
  {
    file: "a.json",
    kind: "AgentWorkflow",
    id: "a",
    version: "1.0.0",
    contentHash: "sha256:00",
    diagnostics: [DIAGNOSTIC],
  },
  { file: "b.json", kind: "unknown", diagnostics: [] },
];

describe("formatJson", () => {
  it("renders a small case exactly", () => {
    expect(formatJson(SMALL)).toBe(`[
  {
    "file": "a.json",
    "kind": "AgentWorkflow",
    "id": "a",
    "version": "1.0.0",
    "contentHash": "sha256:00",
    "diagnostics": [
      {
        "code": "RETRY_WITHOUT_MAX",
        "severity": "error",
        "message": "Route 'retry' loops back without maxRetries.",
        "target": {
          "kind": "node",
          "nodeId": "check"
        },
        "path": "/nodes/1",
        "data": {
          "nodeId": "check"
        },
        "location": {
          "line": 4,
          "column": 5
        }
      }
    ]
  },
  {
    "file": "b.json",
    "kind": "unknown",
    "diagnostics": []
  }
]
`);
  });

  const cases: readonly [string, CheckedFile[]][] = [
    ["no files", []],
    ["a small case", SMALL],
    [
      "hostile strings",
      [
        {
          file: 'q"\\\n\u0000\uD800',
          kind: "unknown",
          diagnostics: [{ ...DIAGNOSTIC, message: "</script>\u2028\u001b[31m" }],
        },
      ],
    ],
  ];
  it.each(cases)("round-trips %s and ends with one newline", (_name, files) => {
    const out = formatJson(files);
    expect(JSON.parse(out)).toEqual(files);
    expect(out.endsWith("\n") && !out.endsWith("\n\n")).toBe(true);
    expect(formatJson(files)).toBe(out);
  });

  it("keeps diagnostics in the order given (rule order, then document order)", () => {
    const second = { ...DIAGNOSTIC, code: "B", location: { line: 1, column: 1 } };
    const parsed = JSON.parse(
      formatJson([{ file: "f", kind: "unknown", diagnostics: [DIAGNOSTIC, second] }]),
    ) as CheckedFile[];
    expect(parsed[0]?.diagnostics.map((d) => d.code)).toEqual(["RETRY_WITHOUT_MAX", "B"]);
  });
});
