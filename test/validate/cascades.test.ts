/**
 * One mistake, one finding (issue 18, item 4): a decision route to a missing node is
 * DECISION_ROUTE_MISSING, and the trap or the stopless loop it makes is not reported again —
 * as the seed engine reports it. `reportCascades` (CLI `--no-suppress`) gives the full analysis.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";
import { run } from "../cli/run.js";
import { tempDir } from "../temp.js";
import { join } from "node:path";
import { writeFileSync } from "node:fs";

/** The seed's Research Agent template with its decision's exit sent to "ghost". */
function ghostly(): AgentWorkflow {
  const seed = JSON.parse(
    readFileSync("test/fixtures/agentflow/template-research-agent.json", "utf8"),
  ) as AgentWorkflow;
  const text = JSON.stringify(seed);
  const broken = JSON.parse(
    text.replace('"onTrue":{"next":"end"}', '"onTrue":{"next":"ghost"}'),
  ) as AgentWorkflow;
  expect(JSON.stringify(broken)).not.toBe(text);
  return broken;
}

const GRAPH = ["DECISION_ROUTE_MISSING", "NO_PATH_TO_END", "CYCLE_WITHOUT_STOP"];

describe("a route to a missing node", () => {
  it("is one finding: DECISION_ROUTE_MISSING, no trap, no stopless loop", async () => {
    const codes = (await createValidator().validate(ghostly())).map((d) => d.code);
    expect(codes.filter((c) => GRAPH.includes(c))).toEqual(["DECISION_ROUTE_MISSING"]);
  });

  it("with reportCascades, the full analysis reports what follows from it", async () => {
    const validator = createValidator({
      rules: {
        NO_PATH_TO_END: ["error", { reportCascades: true }],
        CYCLE_WITHOUT_STOP: ["error", { reportCascades: true }],
      },
    });
    const codes = (await validator.validate(ghostly())).map((d) => d.code);
    expect(codes.filter((c) => GRAPH.includes(c)).sort()).toEqual(GRAPH.slice().sort());
  });

  it("check says it once; check --no-suppress says all three", async () => {
    const file = join(tempDir("agentflow-cascade-"), "ghost.agent.json");
    writeFileSync(file, JSON.stringify(ghostly()));
    const once = await run("check", file);
    expect(once.stdout).toContain("DECISION_ROUTE_MISSING");
    expect(once.stdout).not.toContain("NO_PATH_TO_END");
    expect(once.stdout).not.toContain("CYCLE_WITHOUT_STOP");
    const all = await run("check", file, "--no-suppress");
    for (const code of GRAPH) expect(all.stdout).toContain(code);
  });
});
