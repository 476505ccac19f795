import { describe, expect, it } from "vitest";
import { parseWorkflowText } from "../../../src/model/index.js";
import { readDocumentText } from "../../../src/model/text/index.js";
import { foldCommentHeader } from "../../../src/model/text/yaml.js";

describe("foldCommentHeader", () => {
  it("turns a long header of comment and empty lines into one comment of the same length", () => {
    const header = "# a comment\n\n#\n".repeat(1_000);
    const text = header + "kind: AgentWorkflow\n";
    const folded = foldCommentHeader(text);
    expect(folded).toHaveLength(text.length);
    expect(folded.slice(header.length)).toBe("kind: AgentWorkflow\n");
    expect(folded.slice(0, header.length).split("\n")).toHaveLength(2);
    expect(folded.startsWith("#")).toBe(true);
  });

  it.each([
    ["a short header", "# a\n# b\nkind: x\n"],
    ["an indented comment (may belong to what follows)", " #\n".repeat(5_000) + "a: 1\n"],
    ["a directive after comments", "#\n".repeat(5_000) + "%YAML 1.2\n---\na: 1\n"],
  ])("leaves %s alone where folding could change it", (_name, text) => {
    const folded = foldCommentHeader(text);
    expect(folded.endsWith(text.slice(text.search(/^[^#\n]/m)))).toBe(true);
    expect(folded).toHaveLength(text.length);
  });

  it("keeps every line and column after the header", () => {
    const text = "#\n".repeat(500_000) + "a: 1\na: 2\n";
    const read = readDocumentText(text);
    expect(read.ok).toBe(false);
    expect(read.problems).toEqual([
      expect.objectContaining({ code: "DUPLICATE_KEY", location: { line: 500_002, column: 1 } }),
    ]);
    const unclosed = parseWorkflowText("#\n".repeat(500_000) + "a: [\n");
    expect(unclosed.diagnostics[0]).toMatchObject({ code: "SYNTAX_ERROR" });
    expect(unclosed.diagnostics[0]?.location?.line).toBeGreaterThan(500_000);
  });
});
