/**
 * An export lists at most WARNINGS_LIMIT warnings of one kind (docs/interop/README.md): past the
 * limit a kind's warnings are counted, not built, and one note where the first of them would
 * have stood says how many were left out and quotes the first.
 */
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../bench/generate.js";
import type { InteropWarning } from "../../src/interop/index.js";
import { FORMATS, WARNINGS_LIMIT } from "../../src/interop/index.js";
import { ExportWarnings } from "../../src/interop/warnings.js";
import { parseWorkflow } from "../../src/model/index.js";

function warning(path: string): InteropWarning {
  return { code: "NOT_EXPORTABLE", message: `${path} left out`, path, data: { path } };
}

describe("ExportWarnings", () => {
  it("lists every warning of a kind up to the limit, in order", () => {
    const warnings = new ExportWarnings();
    warnings.add("a", () => warning("/a/0"));
    warnings.add("b", () => warning("/b/0"));
    warnings.add("a", () => warning("/a/1"));
    expect(WARNINGS_LIMIT).toBe(1_000);
    expect(warnings.list()).toEqual([warning("/a/0"), warning("/b/0"), warning("/a/1")]);
  });

  it("counts a kind past the limit, building only its first unlisted warning", () => {
    const warnings = new ExportWarnings();
    let built = 0;
    for (let i = 0; i < 2_500; i += 1) {
      warnings.add("a", () => {
        built += 1;
        return warning(`/a/${String(i)}`);
      });
      if (i === 1_200) warnings.add("b", () => warning("/b/0"));
    }
    expect(built).toBe(WARNINGS_LIMIT + 1);
    const list = warnings.list();
    expect(list).toHaveLength(WARNINGS_LIMIT + 2);
    expect(list.slice(0, WARNINGS_LIMIT)).toEqual(
      Array.from({ length: WARNINGS_LIMIT }, (_, i) => warning(`/a/${String(i)}`)),
    );
    // the note stands where /a/1000 would have, before the later kind
    expect(list[WARNINGS_LIMIT]).toEqual({
      code: "NOT_EXPORTABLE",
      message:
        "… and 1,500 more warning(s) of this kind, not listed: an export lists at most 1,000 of one kind. The first of them: /a/1000 left out",
      path: "/a/1000",
      data: { path: "/a/1000", unlisted: 1_500, limit: WARNINGS_LIMIT },
    });
    expect(list[WARNINGS_LIMIT + 1]).toEqual(warning("/b/0"));
    // listing again gives the same warnings
    expect(warnings.list()).toEqual(list);
  });
});

describe("the exports of a 5,000-node chain", () => {
  const parsed = parseWorkflow(generateWorkflow(5_000, "chain"));
  const wf = parsed.workflow;
  if (wf === undefined) throw new Error("the chain does not parse");

  it.each(FORMATS.filter((f) => f.export !== undefined).map((f) => [f.id, f] as const))(
    "%s: at most 1,000 warnings of a kind, and a note that counts the rest",
    (_id, format) => {
      const warnings = format.export?.(wf).warnings ?? [];
      const notes = warnings.filter((w) => w.data?.unlisted !== undefined);
      for (const note of notes) {
        expect(note.message).toMatch(/^… and [\d,]+ more warning\(s\) of this kind, not listed/);
        expect(note.data?.limit).toBe(WARNINGS_LIMIT);
      }
      const unlisted = notes.reduce((sum, n) => sum + Number(n.data?.unlisted), 0);
      // every node loses something in every format but the LangGraph subset
      expect(warnings.length + unlisted).toBeGreaterThanOrEqual(
        format.id === "langgraph-subset" ? 1 : 5_000,
      );
      expect(warnings.length).toBeLessThanOrEqual(10 * (WARNINGS_LIMIT + 1));
    },
  );

  it("langgraph-gen: 1,000 of the 12,500 config keys left out, then the count of the rest", () => {
    const warnings = FORMATS.find((f) => f.id === "langgraph-gen")?.export?.(wf).warnings ?? [];
    const config = warnings.filter((w) => /^\/nodes\/\d+\/config\//.test(w.path));
    // 2,500 llm nodes lose model, promptRef and structuredOutput; 2,500 tools usesTool and params
    expect(config).toHaveLength(WARNINGS_LIMIT + 1);
    const note = config[WARNINGS_LIMIT];
    expect(note?.data).toMatchObject({ unlisted: 12_500 - WARNINGS_LIMIT, limit: WARNINGS_LIMIT });
    expect(note?.message).toContain("The first of them: node 'n");
  });
});
