/** The parser properties (see `parsers.ts`), with replayable seeds (see `settings.ts`). */
import { describe, it } from "vitest";
import { PARSER_PROPERTIES } from "./parsers.js";
import { runConfig } from "./settings.js";

describe("parser properties", () => {
  for (const def of PARSER_PROPERTIES) {
    it(def.name, () => def.run(runConfig(def)), 120_000);
  }
});
