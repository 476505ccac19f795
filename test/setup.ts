/** Runs before each test file (vitest.config.ts `setupFiles`). */
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp.js";

afterAll(() => {
  removeTempDirs();
});
