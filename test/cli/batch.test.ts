/**
 * Worker threads that stop: a worker that exits without an `error` event (a `process.exit` in
 * it, an out-of-memory kill) ends the run with an error instead of leaving it waiting forever.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { checkInWorkers } from "../../src/cli/batch.js";
import type { FileCheckSettings } from "../../src/cli/settings.js";

const SETTINGS: FileCheckSettings = {
  preset: "recommended",
  workflowRules: {},
  bpmnRules: {},
  registry: [],
  registrySource: "--registry",
  camundaAgents: "gate-required",
};

describe("checkInWorkers", () => {
  it("a worker that exits without an error stops the run with one, naming the exit code", async () => {
    const files = ["examples/workflows/market-research.agent.json"];
    const outcomes = checkInWorkers(
      files,
      SETTINGS,
      { processesOnly: false },
      1,
      () => new Worker("process.exit(7)", { eval: true }),
    );
    await expect(outcomes.next()).rejects.toThrow(
      "a worker thread stopped (exit code 7) before the run was done",
    );
  });
});
