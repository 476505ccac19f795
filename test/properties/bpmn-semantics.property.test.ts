/** The gate analysis against a brute-force path enumeration (see `bpmn-semantics.ts`). */
import { describe, it } from "vitest";
import { BPMN_SEMANTICS_PROPERTIES } from "./bpmn-semantics.js";
import { runConfig } from "./settings.js";

describe("BPMN semantics", () => {
  for (const def of BPMN_SEMANTICS_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
