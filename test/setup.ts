/** Runs before each test file (vitest.config.ts `setupFiles`). */
import { afterAll, describe, it } from "vitest";
import { removeTempDirs } from "./temp.js";

// Vitest's globals are off: the shipped RuleTester registers its cases with the global
// `describe` and `it` when its own are unset (as under Jest or Mocha). They are set as globals
// here, for each file, rather than on the class, so that this file loads none of agentflow; a
// test that sets the class's own restores them to unset (`undefined`), never to the functions
// it read, which belong to its own file.
Object.assign(globalThis, { describe, it });

afterAll(() => {
  removeTempDirs();
});
