/**
 * Every text of the Markdown report is escaped for its context (issue 17): checked with a real
 * CommonMark + GFM reader, case by case here and on random text in test/properties/report.ts.
 */
import { describe, expect, it } from "vitest";
import { visibleText } from "../../../src/model/index.js";
import {
  auditWorkflowReport,
  markdownCode,
  markdownText,
  renderAuditMarkdown,
} from "../../../src/report/index.js";
import { edge, llm, tool, workflow } from "../../validate/builders.js";
import { escapeHtml, markdownReader, renderInline, structureOf } from "./markdown-reader.js";

const HOSTILE = [
  "Refunds\n## Promotion decision: ALLOWED",
  "a\n```\n# pwned",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "[x](javascript:alert(1))",
  "![x](https://evil.example/t.png)",
  "**bold** _em_ ~~gone~~ $x$ `code`",
  "- a list",
  "1. a list",
  "> a quote",
  "# a heading",
  "=== a setext line",
  "a | b | c",
  "&lt;b&gt; &#60;",
  "back\\slash\\",
  "bidi \u202Eevil\u202C and zero\u200Bwidth",
  "snake_case_id and __init__",
  // GFM autolinks: a bare domain, a URL, an address, and so every id@version.
  "approve at www.evil-phish.example/approve",
  "log in at https://evil.example/login or ftp://evil.example",
  "write to ops@evil.example, mailto:ops@evil.example",
  "agnt-credit-risk@1.0.0 calls tool:send-loan-offer@1.1.0",
];

describe("markdownText", () => {
  it.each(HOSTILE)("renders %j as its literal text, on one line", (text) => {
    const html = renderInline(markdownText(text));
    expect(html).toBe(escapeHtml(visibleText(text)));
    expect(markdownText(text)).not.toContain("\n");
  });

  it("keeps ids readable: an underscore inside a word stays as it is", () => {
    expect(markdownText("credit_risk_v2")).toBe("credit_risk_v2");
    expect(markdownText("_lead")).toBe("\\_lead");
  });

  it.each(HOSTILE)("as a table cell, %j stays one cell", (text) => {
    const doc = `| a | b |\n|---|---|\n| ${markdownText(text)} | end |\n`;
    const tokens = markdownReader.parse(doc, {});
    const cells = tokens.filter((t) => t.type === "td_open");
    expect(cells).toHaveLength(2);
    expect(tokens.filter((t) => t.type === "inline").at(-1)?.content).toBe("end");
  });
});

describe("markdownCode", () => {
  it.each([...HOSTILE, "`", "``x``", " spaced ", "a|b"])(
    "renders %j as code of its text",
    (text) => {
      expect(renderInline(markdownCode(text))).toBe(
        `<code>${escapeHtml(visibleText(text))}</code>`,
      );
    },
  );

  it("in a table cell, a pipe stays inside the code", () => {
    const doc = `| a | b |\n|---|---|\n| ${markdownCode("x|y", { cell: true })} | end |\n`;
    expect(markdownReader.render(doc)).toContain("<td><code>x|y</code></td>");
  });
});

describe("the Markdown report of a hostile workflow", () => {
  it("has only its own headings, no HTML, no links, and one intact mermaid block", async () => {
    const wf = workflow(
      [
        llm("draft\n```\n## Promotion decision: ALLOWED", {
          model: "gpt-4o\n```\n# Approved by compliance <script>alert(1)</script>",
        }),
        tool("pay\u202E", "tool:pay@1.0.0", { params: { q: "x" } }),
      ],
      [edge("draft\n```\n## Promotion decision: ALLOWED", "pay\u202E")],
      {
        name: "Refunds\n## Promotion decision: ALLOWED\n<img src=x onerror=alert(1)>",
        description: "[click](javascript:alert(1))",
      },
    );
    const report = await auditWorkflowReport(wf, {
      file: "evil\n# file.json",
      text: JSON.stringify(wf),
      tools: { agentflow: "0.0.0" },
    });
    const markdown = renderAuditMarkdown(report);
    const { headings, fences, html, links } = structureOf(markdown);
    expect(html).toEqual([]);
    expect(links).toEqual([]);
    // Every heading is one the report writes; the forged ones stay text inside them.
    const own =
      /^(Agent workflow review|What was reviewed|Workflow |Autonomy|Diagram|Rules|Simulation |Route coverage|Oversight checklist)/;
    expect(headings.filter((h) => !own.test(h))).toEqual([]);
    expect(headings[0]).toMatch(/^Agent workflow review: Refunds\\\\n/);
    expect(fences).toHaveLength(1);
    expect(fences[0]?.info).toBe("mermaid");
    expect(fences[0]?.content).toBe(`${report.workflows[0]?.mermaid.trimEnd() ?? ""}\n`);
    expect(fences[0]?.content).not.toContain("```");
    expect(fences[0]?.content).toContain("pay\\u{202E}");
    expect(markdown).not.toContain("\u202E");
  });
});
