/** The workflow properties (see `workflows.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { WORKFLOW_PROPERTIES } from "./workflows.js";
import { runConfig } from "./settings.js";

describe("workflow properties", () => {
  for (const def of WORKFLOW_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
