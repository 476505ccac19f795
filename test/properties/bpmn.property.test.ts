/** The BPMN properties (see `bpmn.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { BPMN_PROPERTIES } from "./bpmn.js";
import { runConfig } from "./settings.js";

describe("BPMN properties", () => {
  for (const def of BPMN_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
