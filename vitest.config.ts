import { defineConfig } from "vitest/config";

/**
 * Files that measure the heap after a forced collection: they run in a process of their own,
 * since what other files left in a shared worker (caches, pools grown to their largest input)
 * moves what a collection can free.
 */
const ISOLATED = ["test/cli/scale.test.ts"];

/**
 * One worker per core (Vitest's default leaves one core idle: a single worker on a 2-core
 * machine), and test files share their worker's module graph instead of importing agentflow
 * anew for each of them (`isolate: false`): the imports and the Ajv schema compilations they run
 * were a third of the suite's time. No test assumes a fresh module: none mocks a module, and the
 * console spies are restored after each test. `setup.ts` removes the temporary folders a file
 * made once the file is done. Both projects run at the same time.
 */
export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    maxWorkers: "100%",
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false },
      },
      {
        extends: true,
        test: { name: "isolated", include: ISOLATED, isolate: true },
      },
    ],
  },
});
