import { defineConfig } from "vitest/config";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/**
 * The files that take longest, longest first (measured on two cores; two seconds or more each,
 * mostly large inputs through every entry point, child processes and a browser): started first,
 * so that on two cores none of them is the last file left running while the other core idles.
 * Vitest orders by the durations of the last run when it has them, which a fresh clone (CI) does
 * not: its order is then by file size, which put the adversarial corpus, a small file, near the
 * end. A stale entry costs nothing; the rest keep Vitest's order.
 */
const SLOW_FIRST = [
  "test/adversarial/corpus",
  "test/ci/action",
  "test/ci/pre-commit",
  "test/e2e/modeler.e2e",
  "test/cli/cache",
  "test/package-install",
  "test/cli/concurrency",
  "test/e2e/process-diagram.e2e",
  "test/interop/scale-export",
  "test/bpmn/lint/pack-config",
  "test/cli/plugin-reports",
  "test/properties/bpmn-semantics.property",
  "test/report/audit/process/process",
  "test/bpmn/cancellation",
  "test/cli/stdin",
  "test/properties/workflows.property",
  "test/validate/validate.property",
  "test/interop/scale-import",
  "test/camunda-modeler/plugin.e2e",
  "test/cli/verify",
  "test/cli/plugin-load",
  "test/package-node",
  "test/properties/report.property",
  "test/cli/closed-pipe",
  "test/bpmn-js/policies.e2e",
  "test/simulate/large-workflows",
  "test/interop/contract",
  "test/bpmn-js/approval.e2e",
  "test/model/graph/id-index",
  "test/bench/bpmn-generate",
  "test/bpmn-js/chunks.e2e",
  "test/e2e/report.e2e",
  "test/conform/read/langgraph",
  "test/bpmn/lint/cli",
  "test/cli/policy-plugins",
  "test/properties/parsers.property",
  "test/bpmn/camunda/read-tools",
  "test/docs/ci-recipes",
  "test/model/condition/analyze",
  "test/e2e/report-operation.e2e",
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = SLOW_FIRST.findIndex((slow) => file.moduleId.endsWith(`/${slow}.test.ts`));
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
 * The type check of every example a reader can copy (the docs' runnable blocks, every public
 * function's `@example`): a compiler run, not behaviour, so it runs with `npm run typecheck`
 * (CI runs both) instead of `npm test`, where it took 12 of the suite's 385 worker-seconds.
 */
const TYPECHECK = ["test/examples/typecheck.test.ts"];

/**
 * One worker per core (Vitest's default leaves one core idle: a single worker on a 2-core
 * machine), and test files share their worker's module graph instead of importing agentflow
 * anew for each of them (`isolate: false`): the imports and the Ajv schema compilations they run
 * were a third of the suite's time. No test assumes a fresh module: none mocks a module, and the
 * console spies are restored after each test. `setup.ts` removes the temporary folders a file
 * made once the file is done. `npm test` runs the suite and the isolated files at the same time;
 * `npm run typecheck` runs the typecheck project.
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
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...ISOLATED, ...TYPECHECK],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "isolated", include: ISOLATED, isolate: true },
      },
      {
        extends: true,
        test: { name: "typecheck", include: TYPECHECK },
      },
    ],
  },
});
