/**
 * `simulate` on the seed's Research Agent: an unresolved template is passed on with one warning
 * line per tool call on stderr; `--strict-params` stops there instead (issue 18, item 2).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const SEED = "test/fixtures/agentflow/template-research-agent.json";
const fixtures = join(tempDir("agentflow-seed-params-"), "seed.fixtures.json");
writeFileSync(
  fixtures,
  JSON.stringify({
    "llm-1": {
      outputs: [
        { query: "heat pumps", is_complete: false },
        { answer: "30%", sources: ["a"], is_complete: true },
      ],
    },
  }),
);

describe("simulate with an unresolved template", () => {
  it("goes on, and says so in one warning line (exit 0)", async () => {
    const result = await run("simulate", SEED, "--fixtures", fixtures);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✔ complete in 4 steps \(6 moves\)/);
    expect(result.stdout).toContain(
      "tool-2 ran (visit 2) with params; 1 template(s) unresolved, kept as text: {{llm-1.output.query}}",
    );
    expect(result.stderr).toBe(
      'agentflow: warning: step 5, tool "tool-2": {{llm-1.output.query}} is unresolved (the last output of "llm-1" has no field "query"); its text was passed on (--strict-params stops here)\n',
    );
  });

  it("--strict-params stops at tool-2 (exit 1)", async () => {
    const result = await run("simulate", SEED, "--fixtures", fixtures, "--strict-params");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '✖ blocked at tool-2 (execution) after 3 steps (4 moves): {{llm-1.output.query}}: the last output of "llm-1" has no field "query"',
    );
    expect(result.stderr).toBe("");
  });
});
