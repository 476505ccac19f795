/** Mermaid export of multi-way decisions: each case's condition on its own edge. */
import { describe, expect, it } from "vitest";
import { exportMermaid } from "../../src/interop/index.js";
import type { DecisionNode } from "../../src/model/index.js";
import { edge, llm, workflow } from "../validate/builders.js";

/** A multi-way decision `d` after `a`, routing to `a` and `b`. */
function chart(config: DecisionNode["config"]): string[] {
  const d: DecisionNode = { id: "d", type: "decision", config };
  return exportMermaid(workflow([llm("a"), d, llm("b")], [edge("a", "d")])).split("\n");
}

/** The lines of `d`: its diamond and its route edges. */
function decisionLines(lines: readonly string[]): string[] {
  return lines.filter((l) => l.startsWith("  n1{") || l.startsWith("  n1 -->"));
}

const LONG = `output.reason = "${"x".repeat(300)}"`;

describe("exportMermaid: multi-way decisions", () => {
  it.each([
    {
      name: "FEEL cases: each condition on its edge, escaped; bounds kept; the diamond names it",
      config: {
        cases: [
          { condition: 'output.route = "refund"', next: "b", maxRetries: 2 },
          { condition: 'output.route = "a|b"', next: "a" },
          { condition: "output.n > 3", next: "end" },
        ],
        otherwise: { next: "end", maxRetries: 1 },
      },
      lines: [
        '  n1{"d"}',
        '  n1 -->|"cases/0: output.route = #quot;refund#quot; · max 2"| n2',
        '  n1 -->|"cases/1: output.route = #quot;a#124;b#quot;"| n0',
        '  n1 -->|"cases/2: output.n #gt; 3"| endNode',
        '  n1 -->|"otherwise · max 1"| endNode',
      ],
    },
    {
      name: "a long condition cut to 150 escaped characters, never inside an entity code",
      config: { cases: [{ condition: LONG, next: "b" }], otherwise: { next: "end" } },
      lines: [
        '  n1{"d"}',
        `  n1 -->|"cases/0: ${`output.reason = #quot;${"x".repeat(300)}`.slice(0, 150)}…"| n2`,
        '  n1 -->|"otherwise"| endNode',
      ],
    },
    {
      name: "natural-language cases: no text on the chart, as before",
      config: {
        conditionLanguage: "text" as const,
        cases: [{ condition: "the claim is a refund", next: "b" }],
        otherwise: { next: "end" },
      },
      lines: [
        '  n1{"d<br/>(natural language)"}',
        '  n1 -->|"cases/0"| n2',
        '  n1 -->|"otherwise"| endNode',
      ],
    },
    {
      name: "a binary decision: its condition on the diamond, onTrue / onFalse as before",
      config: {
        condition: "output.ok = true",
        onTrue: { next: "b" },
        onFalse: { next: "a", maxRetries: 3 },
      },
      lines: [
        '  n1{"d<br/>output.ok = true"}',
        '  n1 -->|"onTrue"| n2',
        '  n1 -->|"onFalse · max 3"| n0',
      ],
    },
  ])("$name", ({ config, lines }) => {
    expect(decisionLines(chart(config))).toEqual(lines);
  });

  it("cuts before an entity code the limit falls inside", () => {
    // 146 characters of `#quot;`-free text before the quote: the limit (150) falls inside it.
    const condition = `output.s = ${"y".repeat(134)}"z"`;
    const [, first] = decisionLines(
      chart({ cases: [{ condition, next: "b" }], otherwise: { next: "end" } }),
    );
    expect(first).toBe(`  n1 -->|"cases/0: output.s = ${"y".repeat(134)}…"| n2`);
  });
});
