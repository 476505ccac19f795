/**
 * A fixtures file the reader refuses is said as the reader's first problem, with its code and
 * its place, by `simulate` and `report` alike: a key given twice, a lone surrogate, as every
 * other reader of agentflow says them, not "fixtures must be an object".
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const WF = "examples/workflows/market-research.agent.json";
const dir = tempDir("agentflow-fixtures-read-");

const cases: [name: string, file: string, text: string, said: string][] = [
  [
    "a JSON key given twice",
    "dup.fixtures.json",
    '{"plan-queries": {"outputs": []},\n "plan-queries": {"outputs": []}}',
    '2:2: DUPLICATE_KEY Key "plan-queries" appears more than once in the top-level mapping; only one value could be kept.',
  ],
  [
    "a YAML key given twice",
    "dup.fixtures.yaml",
    "plan-queries:\n  outputs: []\nplan-queries:\n  outputs: []\n",
    '3:1: DUPLICATE_KEY Key "plan-queries" appears more than once in the top-level mapping; only one value could be kept.',
  ],
  [
    "a lone surrogate",
    "surrogate.fixtures.json",
    '{"plan-queries": {"outputs": [{"query": "\\ud800"}]}}',
    "1:41: NOT_JSON_DATA /plan-queries/outputs/0/query: a string holding a lone surrogate (U+D800) is not Unicode text, so the document has no canonical form or content hash",
  ],
];

describe("--fixtures a file the reader refuses", () => {
  it.each(cases)("simulate: %s, with its place (exit 2)", async (_name, name, text, said) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    const result = await run("simulate", WF, "--fixtures", file);
    expect(result.stderr).toBe(`agentflow: ${file}:${said}\n`);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(2);
  });

  // report reads --fixtures with the same reader: one case shows it.
  it.each(cases.slice(0, 1))(
    "report: %s, with its place (exit 2)",
    async (_name, name, text, said) => {
      const file = join(dir, `report-${name}`);
      writeFileSync(file, text);
      const result = await run("report", WF, "--fixtures", file, "-o", join(dir, "r.md"));
      expect(result.stderr).toBe(`agentflow: ${file}:${said}\n`);
      expect(result.code).toBe(2);
    },
  );
});
