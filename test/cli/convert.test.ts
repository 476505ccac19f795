import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { importDocument } from "../../src/interop/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { tempDir } from "../temp.js";

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const RESEARCH = "test/fixtures/agentflow/template-research-agent.json";

describe("agentflow convert", () => {
  it("writes the LangGraph subset and declares every loss on stderr", async () => {
    const result = await run("convert", RESEARCH, "--to", "langgraph");
    expect(result.code).toBe(0);
    expect(
      result.stderr
        .trimEnd()
        .split("\n")
        .map((l) => /\((\w+)\)$/.exec(l)?.[1]),
    ).toEqual(["NOT_EXPORTABLE", "NOT_EXPORTABLE", "NOT_EXPORTABLE"]);
    expect(result.stderr).toContain("/autonomyLevel");
    const back = importDocument(JSON.parse(result.stdout));
    expect(back?.format.id).toBe("langgraph-subset");
    expect(back?.result.workflow.nodes.map((n) => n.id)).toEqual(["llm-1", "tool-2", "dec-3"]);
  });

  it("converts a YAML workflow to agentflow JSON that parses", async () => {
    const result = await run(
      "convert",
      "examples/workflows/contract-review.agent.yaml",
      "--to",
      "agentflow",
    );
    expect(result.code).toBe(0);
    expect(parseWorkflow(JSON.parse(result.stdout)).diagnostics).toEqual([]);
  });

  it("imports another format and writes Mermaid to a file", async () => {
    const out = join(tempDir("agentflow-convert-"), "graph.mmd");
    const result = await run(
      "convert",
      "test/fixtures/openagentflow/hello_ir.json",
      "--to",
      "mermaid",
      "-o",
      out,
    );
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(out, "utf8").startsWith("flowchart TD\n")).toBe(true);
  });

  it.each([
    [
      ["convert", RESEARCH, "--to", "xml"],
      /^agentflow: cannot convert to 'xml' \(expected agentflow, mermaid, /,
    ],
    [["convert", "nope.json", "--to", "mermaid"], /^agentflow: cannot read 'nope.json'/],
    [
      ["convert", RESEARCH, "--to", "mermaid", "-o", "/nonexistent-dir/x.mmd"],
      /^agentflow: cannot write '\/nonexistent-dir\/x.mmd'/,
    ],
  ])("%j is a usage error", async (argv, stderr) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
  });

  it("requires --to", async () => {
    expect((await run("convert", RESEARCH)).code).toBe(2);
  });
});
