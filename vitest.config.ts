import { defineConfig } from "vitest/config";

/**
 * Two groups, run one after the other: the suite, then the adversarial corpus alone, so that the
 * corpus's one-second limit per call measures agentflow rather than the other test files sharing
 * the machine's cores.
 */
const CORPUS = "test/adversarial/corpus.test.ts";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [CORPUS],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "adversarial",
          include: [CORPUS],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
