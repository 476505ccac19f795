/**
 * `gates` in agentflow.config.json (issue 39, item 4): the same selectors through the CLI, named
 * in the rule set; a selector that names no criterion is a usage error (exit 2) naming the file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const dir = tempDir("agentflow-gate-selectors-");
const process = join(dir, "refund.bpmn");
writeFileSync(
  process,
  readFileSync("test/fixtures/camunda/subprocess-v11-refund.bpmn", "utf8").replace(
    '<btv:gate approverRole="supervisor" />',
    "",
  ),
);
const toolEffects = { "acme:fraud-score:1": "read" };

function config(settings: object): string {
  const file = join(tempDir("agentflow-gate-selectors-config-"), "agentflow.config.json");
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

describe("agentflow gate with gate selectors in the config", () => {
  it("a bare user task after the agent blocks, and the text says how to declare it", async () => {
    const out = await run("gate", "-c", config({ toolEffects }), process);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('the user task "Review" after it is no gate unless declared');
  });

  it("a candidate-group selector makes it the gate: ALLOWED, and the rule set names the selector", async () => {
    const out = await run(
      "gate",
      "-c",
      config({ toolEffects, gates: [{ candidateGroup: "supervisors" }] }),
      "--format",
      "json",
      process,
    );
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout) as {
      allowed: boolean;
      ruleSet: { gates?: unknown };
      agentTasks: { gate: string }[];
    };
    expect(json.allowed).toBe(true);
    expect(json.agentTasks.map((t) => t.gate)).toEqual(["reached"]);
    expect(json.ruleSet.gates).toEqual([{ candidateGroup: "supervisors" }]);
  });

  it("a selector with no criterion is exit 2 naming the file and the place", async () => {
    const file = config({ gates: [{ role: "supervisor" }] });
    const out = await run("gate", "-c", file, process);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `agentflow: ${file}: /gates/0 names no criterion (id, candidateGroup, template or property): it would make every element a gate\n`,
    );
  });

  it("an unknown key in a selector is a schema error with its pointer", async () => {
    const file = config({ gates: [{ group: "supervisors" }] });
    const out = await run("gate", "-c", file, process);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `agentflow: ${file}: /gates/0/group: is not a setting agentflow knows\n`,
    );
  });
});
