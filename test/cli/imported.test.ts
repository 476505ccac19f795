/**
 * A loss an importer declares reaches the user on every surface: one stderr line each in
 * `convert`, `simulate` and `report`, a section of the report, and warning diagnostics in
 * `check`'s text, JSON and SARIF output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

/** A LangGraph-subset document with two declared losses: a checkpointer and an untyped edge. */
const SOURCE = `{
  "id": "agnt-x",
  "name": "X",
  "version": "1.0.0",
  "input_schema": { "q": "string" },
  "output_schema": { "a": "string" },
  "checkpointer": { "kind": "memory" },
  "nodes": [
    { "id": "llm-1", "type": "llm", "data": { "model": "m", "promptRef": "prm:x@1.0.0", "structuredOutput": true } },
    { "id": "dec-1", "type": "decision", "data": { "condition": "output.a = \\"ok\\"", "onTrue": { "next": "end" }, "onFalse": { "next": "end" } } }
  ],
  "edges": [{ "source": "llm-1", "target": "dec-1", "data": {} }]
}
`;

const LINES = [
  "agentflow: warning: FILE:7:19 /checkpointer: ",
  "agentflow: warning: FILE:12:61 /edges/0/data/edgeType: ",
];

let dir = "";
let file = "";
beforeAll(() => {
  dir = tempDir("agentflow-imported-");
  file = join(dir, "graph.json");
  writeFileSync(file, SOURCE);
});

/** The stderr lines that declare import losses, with the file name replaced. */
function declared(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((l) => l.includes("(FIELD_DROPPED") || l.includes("(HEURISTIC"))
    .map((l) => l.replace(file, "FILE"));
}

describe("import warnings on every surface", () => {
  it.each([
    ["convert", ["convert", "FILE", "--to", "agentflow"]],
    ["simulate", ["simulate", "FILE"]],
  ])("%s prints each on stderr, located in the source", async (_, argv) => {
    const result = await run(...argv.map((a) => (a === "FILE" ? file : a)));
    const lines = declared(result.stderr);
    expect(lines).toHaveLength(2);
    expect(lines.map((line, i) => line.startsWith(LINES[i] ?? "?"))).toEqual([true, true]);
    expect(lines[0]).toMatch(/\(FIELD_DROPPED, imported from .+\)$/);
    expect(lines[1]).toMatch(/\(HEURISTIC, imported from .+\)$/);
  });

  it("report prints them and lists them in the report", async () => {
    const output = join(dir, "report.md");
    const result = await run("report", file, "-o", output);
    expect(declared(result.stderr)).toHaveLength(2);
    const md = readFileSync(output, "utf8");
    expect(md).toContain(": 2 declared loss(es) or guess(es)");
    expect(md).toMatch(/- `FIELD_DROPPED` at 7:19 `\/checkpointer`: /);
    expect(md).toMatch(/- `HEURISTIC` at 12:61 `\/edges\/0\/data\/edgeType`: /);
    const html = join(dir, "report.html");
    await run("report", file, "-o", html);
    expect(readFileSync(html, "utf8")).toContain("<code>/checkpointer</code>");
  });

  it("check carries them as warnings in JSON and SARIF", async () => {
    const json = JSON.parse((await run("check", "--format", "json", file)).stdout) as {
      diagnostics: { code: string; severity: string; path: string }[];
    }[];
    const found = json[0]?.diagnostics.filter((d) => d.code !== "CONDITION_JS_OPERATOR");
    expect(found?.slice(0, 2).map((d) => [d.code, d.severity, d.path])).toEqual([
      ["FIELD_DROPPED", "warning", "/checkpointer"],
      ["HEURISTIC", "warning", "/edges/0/data/edgeType"],
    ]);
    const sarif = JSON.parse((await run("check", "--format", "sarif", file)).stdout) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    const results = sarif.runs[0]?.results.map((r) => [r.ruleId, r.level]);
    expect(results).toEqual(
      expect.arrayContaining([
        ["FIELD_DROPPED", "warning"],
        ["HEURISTIC", "warning"],
      ]),
    );
  });
});
