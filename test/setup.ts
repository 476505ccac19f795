/** Runs before each test file (vitest.config.ts `setupFiles`). */
import { afterAll, describe, it } from "vitest";
import { RuleTester } from "../src/testing/index.js";
import { removeTempDirs } from "./temp.js";

// Vitest's globals are off: the shipped RuleTester registers its cases with these.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

afterAll(() => {
  removeTempDirs();
});
