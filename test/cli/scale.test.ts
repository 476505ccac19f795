/**
 * `agentflow check` on a folder of 10,000 small documents (workflows in JSON and YAML, valid and
 * broken, and tool contracts): the exit code, the summary's exact counts, and memory that grows
 * with the findings, not with the texts read. Each file carries about 1.5 kB of description, so
 * keeping texts or parsed documents until the report would cost well over 1 kB a file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckCorpus, MeasuredCheck } from "../../bench/cli.js";
import { exposeGc, measureCheck, removeCheckCorpus, writeCheckCorpus } from "../../bench/cli.js";

const gc = exposeGc();
const corpora: CheckCorpus[] = [];
let small: MeasuredCheck;
let large: MeasuredCheck;
let largeCorpus: CheckCorpus;

beforeAll(async () => {
  const smallCorpus = writeCheckCorpus(1_000);
  largeCorpus = writeCheckCorpus(10_000);
  corpora.push(smallCorpus, largeCorpus);
  small = await measureCheck([smallCorpus.dir], gc);
  large = await measureCheck([largeCorpus.dir], gc);
}, 120_000);

// Removing 11,000 files took over the default 10 s hook timeout on a busy machine.
afterAll(() => {
  for (const corpus of corpora) removeCheckCorpus(corpus);
}, 120_000);

const MB = 1_000_000;

describe("agentflow check on 10,000 files", () => {
  it("exits 1 and counts every finding of every file", () => {
    expect(largeCorpus).toMatchObject({ files: 10_000, yaml: 2_400, errors: 1_400, warnings: 892 });
    expect(large.code).toBe(1);
    expect(large.stderr).toBe("");
    expect(large.summary).toBe(
      "✖ 2292 problems (1400 errors, 892 warnings) in 10000 files checked",
    );
    expect(small.summary).toBe("✖ 229 problems (140 errors, 89 warnings) in 1000 files checked");
  });

  it.skipIf(gc === undefined)(
    "holds about what the report needs: under 1 kB a file, and ten times the files hold at most ten times the memory (skipped when this runtime cannot force a collection)",
    () => {
      const held = large.heldBytes ?? NaN;
      const heldSmall = small.heldBytes ?? NaN;
      // Measured: ≈ 0.35 kB a file (the findings and the report's text); texts alone are 1.5 kB.
      expect(held / 10_000).toBeLessThan(1_000);
      // Linear, with 2 MB for what a collection cannot make exact.
      expect(held).toBeLessThan(10 * heldSmall + 2 * MB);
    },
  );

  it.skipIf(gc === undefined)(
    "leaves only bounded caches behind (skipped when this runtime cannot force a collection)",
    () => {
      // Measured: 2 to 3 MB after the 10,000 files, about what 1,000 leave.
      expect(large.leftBytes ?? NaN).toBeLessThan(6 * MB);
    },
  );
});
