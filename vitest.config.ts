import { defineConfig } from "vitest/config";

/**
 * One worker per core (Vitest's default leaves one core idle: a single worker on a 2-core
 * machine), and test files share their worker's module graph instead of importing agentflow
 * anew for each of them (`isolate: false`): the imports and the Ajv schema compilations they run
 * were a third of the suite's time. No test assumes a fresh module: none mocks a module, and the
 * console spies are restored after each test. `setup.ts` removes the temporary folders a file
 * made once the file is done.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    isolate: false,
    maxWorkers: "100%",
    testTimeout: 60_000,
  },
});
