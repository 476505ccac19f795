/**
 * The Operation section rendered: the same counts, shares, classes and worst runs in Markdown
 * and HTML, each worst run's path drawn on the workflow (Mermaid classes, SVG marks).
 */
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../../src/conform/index.js";
import { deviationMessage } from "../../../src/conform/index.js";
import type { AuditReport } from "../../../src/report/audit/index.js";
import {
  markdownText,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";
import { mermaidErrors } from "./mermaid-grammar.js";
import { conformance, reportWithRuns } from "./operation-fixture.js";

/** The section of `text` from `start` to the next `end`. */
function slice(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from).toBeGreaterThanOrEqual(0);
  const to = text.indexOf(end, from + start.length);
  return text.slice(from, to < 0 ? undefined : to);
}

/** The Mermaid blocks of a Markdown text. */
function mermaidBlocks(text: string): string[] {
  return [...text.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? "");
}

/** Per node id of one SVG drawing: its classes, and the link around it (if any). */
function svgNodes(svg: string): Map<string, { classes: string[]; href: string | undefined }> {
  const out = new Map<string, { classes: string[]; href: string | undefined }>();
  for (const m of svg.matchAll(
    /(?:<a href="([^"]*)">)?<g class="node ([^"]*)" data-node-id="([^"]*)">/g,
  )) {
    out.set(m[3] ?? "", { classes: (m[2] ?? "").split(" "), href: m[1] });
  }
  return out;
}

describe("the Operation section in Markdown", () => {
  let report: AuditReport;
  let conf: ConformanceReport;
  let md: string;
  it("renders", async () => {
    conf = conformance();
    report = await reportWithRuns(conf);
    md = renderAuditMarkdown(report);
    expect(md.indexOf("## Operation")).toBeGreaterThan(md.indexOf("## Workflow agnt-rsch@2.1.0"));
    expect(md.indexOf("## Oversight checklist")).toBeGreaterThan(md.indexOf("## Operation"));
  });

  it("gives the runs checked, the shares and the unread record", () => {
    const op = slice(md, "## Operation", "### Deviations by class");
    expect(op).toContain("4 recorded run(s), 17 event(s), checked against the registry");
    expect(op).toContain("`runs.jsonl` (otlp, 17 record(s))");
    expect(op).toContain("**✖ 1 of 4 run(s) conform (25%).**");
    expect(op).toContain("Process instances: 0 checked, 0 deviating.");
    expect(op).toContain("| ✔ conforming | 1 | 25% |");
    expect(op).toContain("| ✖ deviating | 2 | 50% |");
    expect(op).toMatch(/\| ⚠ unverified [^|]*not counted as conforming\) \| 1 \| 25% \|/);
    expect(op).toContain("- `runs.jsonl:17`: not JSON");
  });

  it("tabulates the classes with conform's sentences, unchanged", () => {
    const classes = slice(md, "### Deviations by class", "### Worst runs");
    const rows = classes.split("\n").filter((l) => l.startsWith("| `"));
    expect(rows.map((r) => r.split(" | ").slice(0, 2))).toEqual([
      ["| `IDENTITY_MISMATCH`", "2"],
      ["| `NODE_UNKNOWN`", "1"],
      ["| `TRANSITION_UNKNOWN`", "1"],
      ["| `TOOL_INPUT_INVALID`", "1"],
    ]);
    const invalid = conf.runs
      .flatMap((r) => r.deviations)
      .find((d) => d.class === "TOOL_INPUT_INVALID");
    expect(invalid).toBeDefined();
    if (invalid !== undefined) {
      expect(rows[3]).toBe(
        `| \`TOOL_INPUT_INVALID\` | 1 | ${markdownText(deviationMessage(invalid))} |`,
      );
    }
  });

  it("shows the worst runs in order, each deviation at its event", () => {
    const worst = slice(md, "### Worst runs", "## Oversight checklist");
    const headings = worst.split("\n").filter((l) => l.startsWith("#### "));
    expect(headings).toEqual([
      "#### Run three (agnt-rsch\\@2.1.0): deviating — 4 deviation(s), 0 unverified part(s), 6 event(s)",
      "#### Run one (agnt-rsch\\@2.1.0): deviating — 1 deviation(s), 0 unverified part(s), 4 event(s)",
      "#### Run open (agnt-rsch\\@2.1.0): unverified — 0 deviation(s), 1 unverified part(s), 2 event(s)",
    ]);
    expect(worst).toContain("| `runs.jsonl:14` | `NODE_UNKNOWN` | `llm-9` |");
    expect(worst).toContain("| `runs.jsonl:9` | `TOOL_INPUT_INVALID` | `tool-2` |");
    // An unfinished run is placed at its last record, where its records stop.
    expect(worst).toContain(
      "| `runs.jsonl:16` | `RUN_UNFINISHED` | the records end before the run does |",
    );
    expect(worst).toContain("Deviating nodes the workflow does not have: llm-9.");
    expect(worst).toContain("Path: (1) llm-1 → (2) tool-2");
  });

  it("draws each worst run's path on the workflow as valid Mermaid", () => {
    const blocks = mermaidBlocks(slice(md, "### Worst runs", "## Oversight checklist"));
    expect(blocks).toHaveLength(3);
    for (const block of blocks) {
      const statements = block.split("\n").filter((l) => !/^ {2}class(Def)? /.test(l));
      expect(mermaidErrors(statements.join("\n"))).toEqual([]);
    }
    const classes = (block: string | undefined): string[] =>
      (block ?? "").split("\n").filter((l) => l.startsWith("  class "));
    // research: p0 llm-1, p1 tool-2, p2 dec-3, p3 the end
    expect(classes(blocks[0])).toEqual(["  class p0,p1 visited", "  class p0 deviating"]);
    expect(blocks[0]).toContain(`p0["(1) llm-1 ✖ 2<br/>llm"]`);
    expect(blocks[0]).toContain(`p2{"dec-3<br/>decision"}`);
    expect(classes(blocks[1])).toEqual(["  class p0,p1 visited", "  class p1 deviating"]);
    expect(blocks[1]).toContain(`p1[/"(2) tool-2 ✖ 1<br/>tool"/]`);
    expect(classes(blocks[2])).toEqual(["  class p0 visited"]);
  });
});

describe("the Operation section in HTML", () => {
  let html: string;
  it("renders, linked from the contents", async () => {
    html = renderAuditHtml(await reportWithRuns());
    expect(html).toContain(`<li><a href="#operation">Operation</a></li>`);
    expect(html).toContain(`<section class="operation" id="operation">`);
    expect(html).toContain(`<span class="tag bad">✖ 1 of 4 run(s) conform</span>`);
  });

  it("gives the same counts, shares and classes as the Markdown", () => {
    const op = slice(html, `<section class="operation"`, "</section>");
    expect(op).toContain("✖ 1 of 4 run(s) conform (25%)");
    expect(op).toContain(
      `<tr><td>✖ deviating</td><td><span class="num">2</span></td><td>50%</td></tr>`,
    );
    expect(op).toContain("process instances: 0 checked, 0 deviating");
    expect(op).toContain("1 record(s) could not be read");
    const classes = [
      ...op.matchAll(/<tr><td><code>([A-Z_]+)<\/code><\/td><td><span class="num">(\d+)</g),
    ];
    expect(classes.map((m) => [m[1], m[2]])).toEqual([
      ["IDENTITY_MISMATCH", "2"],
      ["NODE_UNKNOWN", "1"],
      ["TRANSITION_UNKNOWN", "1"],
      ["TOOL_INPUT_INVALID", "1"],
    ]);
    const headings = [...op.matchAll(/<h4 id="(op-run-\d)">Run (\w+) /g)].map((m) => [m[1], m[2]]);
    expect(headings).toEqual([
      ["op-run-1", "three"],
      ["op-run-2", "one"],
      ["op-run-3", "open"],
    ]);
  });

  it("marks the visited nodes in order and links each deviating node to its deviation", () => {
    const svg = (k: number): string =>
      slice(html, `aria-labelledby="op-run-${String(k)}-title"`, "</svg>");
    const three = svgNodes(svg(1));
    expect([...three.keys()]).toEqual(["llm-1", "tool-2", "dec-3", "#end"]);
    expect(three.get("llm-1")).toEqual({
      classes: ["llm", "has-findings", "visited"],
      href: "#op-run-1-d-1",
    });
    expect(three.get("tool-2")).toEqual({ classes: ["tool", "visited"], href: undefined });
    expect(three.get("dec-3")).toEqual({ classes: ["decision"], href: undefined });
    expect(html).toContain(`<span id="op-run-1-d-1"><code>runs.jsonl:11</code></span>`);
    expect(svg(1)).toContain(
      "llm-1, llm — ✖ 2 deviation(s): IDENTITY_MISMATCH — executed by the run, (1)",
    );
    expect(svg(1)).toMatch(/<g class="order"><circle[^>]*\/><text[^>]*>1<\/text><\/g>/);
    const one = svgNodes(svg(2));
    expect(one.get("tool-2")).toEqual({
      classes: ["tool", "has-findings", "visited"],
      href: "#op-run-2-d-1",
    });
    expect(one.get("llm-1")).toEqual({ classes: ["llm", "visited"], href: undefined });
    const open = svgNodes(svg(3));
    expect(open.get("llm-1")?.classes).toEqual(["llm", "visited"]);
    expect(open.get("tool-2")?.classes).toEqual(["tool"]);
  });
});
