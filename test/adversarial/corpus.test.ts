/**
 * The adversarial corpus (issue 8, item 3) through every public entry point that accepts each
 * case: an answer (diagnostics, a result, or the documented error type), well-formed diagnostics,
 * no crashed rule and no prototype pollution. How long each call takes is the bench's to say
 * (`npm run bench:adversarial`, docs/performance.md): a timed assertion here would fail whenever
 * the machine is busy.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS } from "./corpus.js";
import { runCase } from "./harness.js";

describe("adversarial corpus", () => {
  it("names every case once, and the README lists each one", () => {
    const names = CORPUS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it.each(CORPUS.map((c) => [c.name, c] as const))(
    "%s",
    async (name, subject) => {
      // Every call runs: no known failures are left.
      const run = await runCase(subject);
      expect(run.skipped).toEqual([]);
      // Each case reaches at least its first entry point, under its own name.
      expect(run.calls.length).toBeGreaterThan(0);
      expect(run.calls.every((key) => key.startsWith(`${name} `))).toBe(true);
    },
    120_000,
  );
});
