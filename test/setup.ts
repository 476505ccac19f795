/** Runs before each test file (vitest.config.ts `setupFiles`). */
import { afterAll, describe, it } from "vitest";
import { removeTempDirs } from "./temp.js";

// Vitest's globals are off: the shipped RuleTester registers its cases with the global
// `describe` and `it` when set (as under Jest or Mocha). Set as globals here rather than on the
// class, so that this file, run before every test file, loads none of agentflow.
Object.assign(globalThis, { describe, it });

afterAll(() => {
  removeTempDirs();
});
