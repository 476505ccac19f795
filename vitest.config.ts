import { defineConfig } from "vitest/config";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/**
 * Files that take the longest (tens of seconds each, mostly large inputs through every entry
 * point): started first, so that on two cores none of them is the last file left running while
 * the other core idles. Vitest's own order on a fresh clone (no timings cached) is by file size,
 * which put the adversarial corpus, a small file, near the end. A stale entry costs nothing.
 */
const SLOW_FIRST = [
  "test/adversarial/corpus",
  "test/ci/action",
  "test/cli/cache",
  "test/ci/pre-commit",
  "test/cli/concurrency",
  "test/e2e/modeler",
  "test/package-install",
  "test/examples/typecheck",
  "test/e2e/process-diagram",
  "test/properties/bpmn-semantics",
  "test/properties/workflows",
  "test/interop/scale-export",
  "test/bpmn/lint/pack-config",
  "test/bpmn/cancellation",
  "test/properties/bpmn.property",
  "test/cli/scale",
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = SLOW_FIRST.findIndex((slow) => file.moduleId.includes(slow));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    // Array sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: SlowFirst },
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
