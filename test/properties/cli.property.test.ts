/** The CLI property (see `cli.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { CLI_PROPERTIES } from "./cli.js";
import { runConfig } from "./settings.js";

describe("CLI properties", () => {
  for (const def of CLI_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 180_000);
  }
});
