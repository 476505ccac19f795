/** The interop properties (see `interop.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { INTEROP_PROPERTIES } from "./interop.js";
import { runConfig } from "./settings.js";

describe("interop properties", () => {
  for (const def of INTEROP_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
