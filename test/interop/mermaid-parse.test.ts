// @vitest-environment happy-dom
/**
 * The workflow flowchart read back by Mermaid's own parser (the `mermaid` devDependency, on
 * happy-dom): an edge label holding what Mermaid reads as syntax — `( ) [ ] { } @`, pipes,
 * quotes, `%%`, `:::`, `-->` — still parses, and each edge carries exactly the text it was given.
 */
import mermaid from "mermaid";
import { beforeAll, describe, expect, it } from "vitest";
import { exportMermaid } from "../../src/interop/index.js";
import type { DecisionNode } from "../../src/model/index.js";
import { edge, llm, tool, workflow } from "../validate/builders.js";

interface ParsedEdge {
  readonly start: string;
  readonly end: string;
  readonly text: string;
}

/** The chart's edges as Mermaid's flowchart parser reads them. */
async function parsedEdges(text: string): Promise<ParsedEdge[]> {
  await mermaid.parse(text);
  // The one way to read a parsed chart's edges back; parse() returns only the diagram type.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db as { getEdges: () => ParsedEdge[] };
  return db.getEdges().map(({ start, end, text: label }) => ({ start, end, text: label }));
}

/**
 * A label as the browser shows it: Mermaid keeps `#quot;` and the like as placeholders
 * (`ﬂ°quot¶ß`) that its renderer turns into HTML entities, which the page then decodes.
 */
function shown(label: string): string {
  const html = label.replaceAll("ﬂ°°", "&#").replaceAll("ﬂ°", "&").replaceAll("¶ß", ";");
  const named: Readonly<Record<string, string>> = { quot: '"', amp: "&", lt: "<", gt: ">" };
  return html.replaceAll(/&(#\d+|\w+);/g, (whole, name: string) =>
    name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : (named[name] ?? whole),
  );
}

const HOSTILE = [
  "retry (max 3)",
  "items[0]",
  "{ ok: true }",
  "user@example.com",
  "@start",
  "a | b",
  'say "hi"',
  "%% not a comment",
  "%%{init: {'themeCSS': '.flowchart-link{visibility:hidden}'}}%% restyled",
  "x:::cls",
  "a --> b",
  "<b>bold</b> & `code`",
  "end",
];

beforeAll(() => {
  mermaid.initialize({ startOnLoad: false });
});

describe("exportMermaid read by Mermaid", () => {
  it("the parser refuses an unquoted label with a parenthesis (so the test below can fail)", async () => {
    await expect(mermaid.parse("flowchart TD\n  a -->|retry (max 3)| b")).rejects.toThrow(
      /Parse error/,
    );
  });

  it.each(HOSTILE)("an edge labelled %j parses, and keeps its text", async (when) => {
    const wf = workflow(
      [llm("a"), tool("b")],
      [{ ...edge("a", "b"), when }, { ...edge("b", "a", "toolCall") }],
    );
    const text = exportMermaid(wf);
    expect(text).toContain(`  n0 -->|"`);
    // Mermaid reads `%%` (a comment, or a directive that restyles the chart) anywhere in a line.
    expect(text).not.toContain("%");
    const edges = await parsedEdges(text);
    expect(edges.map((e) => ({ ...e, text: shown(e.text) }))).toEqual([
      { start: "n0", end: "n1", text: when },
      { start: "n1", end: "n0", text: "toolCall" },
    ]);
  });

  it("a chart with a delegate edge parses, with its fixed labels", async () => {
    const wf = workflow(
      [llm("a"), tool("b")],
      [edge("a", "b"), edge("b", "agnt-other@1.0.0", "delegate")],
    );
    const edges = await parsedEdges(exportMermaid(wf));
    expect(edges.map((e) => [e.start, e.end, shown(e.text)])).toEqual([
      ["n0", "n1", "data"],
      ["n1", "d1", "delegate"],
    ]);
  });

  it("a multi-way decision's edges parse, each with its case's condition", async () => {
    const conditions = HOSTILE.map((text) => `output.kind = ${JSON.stringify(text)}`);
    const d: DecisionNode = {
      id: "d",
      type: "decision",
      config: {
        cases: conditions.map((condition) => ({ condition, next: "b" })),
        otherwise: { next: "end" },
      },
    };
    const wf = workflow([llm("a"), d, llm("b")], [edge("a", "d")]);
    const edges = await parsedEdges(exportMermaid(wf));
    expect(edges.map((e) => [e.start, e.end, shown(e.text)])).toEqual([
      ["n0", "n1", "data"],
      ...conditions.map((c, k) => ["n1", "n2", `cases/${String(k)}: ${c}`]),
      ["n1", "endNode", "otherwise"],
    ]);
  });
});
