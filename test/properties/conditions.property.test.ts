/** The condition properties (see `conditions.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { CONDITION_PROPERTIES } from "./conditions.js";
import { runConfig } from "./settings.js";

describe("condition properties", () => {
  for (const def of CONDITION_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
