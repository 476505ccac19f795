/** The report properties (see `report.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { REPORT_PROPERTIES } from "./report.js";
import { runConfig } from "./settings.js";

describe("report properties", () => {
  for (const def of REPORT_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
