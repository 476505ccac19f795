/**
 * The adversarial corpus (issue 8, item 3) through every public entry point that accepts each
 * case: an answer (diagnostics, a result, or the documented error type), well-formed diagnostics,
 * no crashed rule, no prototype pollution, and each call within the time limit. The slowest calls
 * are printed at the end.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { CORPUS } from "./corpus.js";
import type { Timing } from "./harness.js";
import { runCase, TIME_LIMIT_MS } from "./harness.js";

const timings: Timing[] = [];

describe("adversarial corpus", () => {
  it("names every case once, and the README lists each one", () => {
    const names = CORPUS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it.each(CORPUS.map((c) => [c.name, c] as const))(
    "%s",
    async (_name, subject) => {
      // Every call runs, with the harness's limit: no known failures or slow calls are left.
      const run = await runCase(subject, {});
      timings.push(...run.timings);
      expect(run.skipped).toEqual([]);
      expect(run.timings.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

afterAll(() => {
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 12);
  const perCase = new Map<string, number>();
  for (const t of timings) perCase.set(t.caseName, (perCase.get(t.caseName) ?? 0) + t.ms);
  const cases = [...perCase].sort((a, b) => b[1] - a[1]);
  const maxCase = cases[0];
  const lines = slowest.map(
    (t) =>
      `  ${t.ms.toFixed(1).padStart(8)} ms (${t.cpuMs.toFixed(0)} ms CPU)  ${t.caseName} ${t.entry}` +
      (t.runs > 1 ? `  (best of ${String(t.runs)} runs: the first was over the limit)` : ""),
  );
  const again = timings.filter((t) => t.runs > 1).length;
  console.info(
    [
      `adversarial corpus: ${CORPUS.length} cases, ${timings.length} calls, limit ${TIME_LIMIT_MS} ms per call (wall or CPU time, the smaller; ${again} call(s) over it were timed again)`,
      `slowest calls:`,
      ...lines,
      `slowest case in total: ${maxCase?.[0] ?? "-"} ${(maxCase?.[1] ?? 0).toFixed(1)} ms`,
      ...cases.slice(1, 12).map(([name, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${name}`),
    ].join("\n"),
  );
});
