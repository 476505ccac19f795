import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import type { CheckedFile } from "../../src/report/index.js";
import { formatText } from "../../src/report/index.js";
import { diag } from "./diag.js";

const SMALL: CheckedFile[] = [
  {
    file: "a.json",
    kind: "AgentWorkflow",
    diagnostics: [
      diag("B", "warning"),
      diag("A", "error", { location: { line: 10, column: 2 } }),
      diag("C", "info", { location: { line: 2, column: 15 } }),
    ],
  },
  { file: "b.json", kind: "AgentWorkflow", diagnostics: [] },
];

const ESC = "\u001b";

describe("formatText", () => {
  it("names the source format of an imported file", () => {
    expect(
      formatText([
        { file: "g.json", kind: "AgentWorkflow", format: "langgraph-subset", diagnostics: [] },
      ]),
    ).toBe(
      "g.json (imported from langgraph-subset)  ✔ no problems\n\n✔ 1 file checked, no problems\n",
    );
  });

  it("renders a small case exactly", () => {
    expect(formatText(SMALL)).toBe(
      [
        "a.json",
        "  2:15  info     C msg  C",
        "  10:2  error    A msg  A",
        "  -     warning  B msg  B",
        "",
        "b.json  ✔ no problems",
        "",
        "✖ 3 problems (1 error, 1 warning, 1 info) in 2 files checked",
        "",
      ].join("\n"),
    );
  });

  const colour: readonly [string, { color?: boolean }, boolean][] = [
    ["no options", {}, false],
    ["color: false", { color: false }, false],
    ["color: true", { color: true }, true],
  ];
  it.each(colour)("uses ANSI colours with %s: %s", (_name, options, coloured) => {
    expect(formatText(SMALL, options).includes(ESC)).toBe(coloured);
  });

  it("colours by severity and strips to the plain output", () => {
    const out = formatText(SMALL, { color: true });
    expect(out).toContain(`${ESC}[31merror  ${ESC}[0m`);
    expect(out).toContain(`${ESC}[33mwarning${ESC}[0m`);
    expect(out).toContain(`${ESC}[36minfo   ${ESC}[0m`);
    // eslint-disable-next-line no-control-regex -- the point is to remove the escape sequences
    expect(out.replace(/\u001b\[\d+m/g, "")).toBe(formatText(SMALL));
  });

  const orders: readonly [string, Diagnostic[], string[]][] = [
    [
      "by line, then column",
      [
        diag("L3", "error", { location: { line: 3, column: 1 } }),
        diag("L1C9", "error", { location: { line: 1, column: 9 } }),
        diag("L1C2", "error", { location: { line: 1, column: 2 } }),
      ],
      ["L1C2", "L1C9", "L3"],
    ],
    [
      "unlocated last, in their given order",
      [
        diag("U1", "error"),
        diag("L", "error", { location: { line: 100, column: 1 } }),
        diag("U2", "error"),
      ],
      ["L", "U1", "U2"],
    ],
  ];
  it.each(orders)("sorts %s", (_name, diagnostics, codes) => {
    const lines = formatText([{ file: "f", kind: "unknown", diagnostics }]).split("\n");
    expect(lines.slice(1, 1 + codes.length).map((l) => l.split("  ").at(-1))).toEqual(codes);
  });

  const summaries: readonly [string, CheckedFile[], string][] = [
    ["no files", [], "✔ 0 files checked, no problems"],
    ["a clean file", SMALL.slice(1), "✔ 1 file checked, no problems"],
    [
      "one warning",
      [{ file: "w", kind: "unknown", diagnostics: [diag("W", "warning")] }],
      "⚠ 1 problem (0 errors, 1 warning) in 1 file checked",
    ],
    [
      "two errors",
      [{ file: "e", kind: "unknown", diagnostics: [diag("E", "error"), diag("E", "error")] }],
      "✖ 2 problems (2 errors, 0 warnings) in 1 file checked",
    ],
  ];
  it.each(summaries)("summarises %s", (_name, files, summary) => {
    const lines = formatText(files).split("\n");
    expect(lines.at(-2)).toBe(summary);
    expect(lines.at(-1)).toBe("");
  });
});

describe("formatText on a file with 200,000 diagnostics", () => {
  it("prints every one, aligned (spreading them as arguments overflowed the stack)", () => {
    const diagnostics = Array.from({ length: 200_000 }, (_, i) =>
      diag("E", "error", { location: { line: i + 1, column: 1 } }),
    );
    const lines = formatText([{ file: "big.json", kind: "AgentWorkflow", diagnostics }]).split(
      "\n",
    );
    expect(lines.filter((l) => l.endsWith("  error    E msg  E"))).toHaveLength(200_000);
    expect(lines[1]).toBe(`  ${"1:1".padEnd(8)}  error    E msg  E`);
    expect(lines[200_000]).toBe("  200000:1  error    E msg  E");
    expect(lines.at(-2)).toBe("✖ 200000 problems (200000 errors, 0 warnings) in 1 file checked");
  });
});
