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

/**
 * KNOWN_FAILURES: calls that crash, pollute, hang or take far over the 1 s bar today, as
 * `"<case> <entry point>"`. They are not run, so that the suite stays green while src is fixed
 * (issue 8 report lists each with its input and stack). Remove an entry once its fix lands; the
 * last test fails for an entry that is no longer reached. A call downstream of a skipped one
 * (the renderers after a skipped `auditWorkflowReport`) is not reached and is not listed.
 */
const KNOWN_FAILURES: ReadonlySet<string> = new Set<string>([
  // Crash: RangeError (stack overflow) on deep or large input.
  "deep-10k-json-schema-field export:agentos",
  "deep-10k-json-schema-field export:langgraph-subset",
  "deep-10k-tool-params export:agentos",
  "deep-10k-tool-params export:langgraph-subset",
  "options-deep-10k-fixture-output simulate",
  "options-deep-10k-fixture-output explore",
  "array-1e5-dangling-edges renderAuditMarkdown",
  // Hang (over 20 s; quadratic or worse).
  "string-1e6-refs renderAuditHtml",
  "array-1e5-duplicate-edges export:langgraph-graph",
  "array-1e5-duplicate-edges export:langgraph-gen",
  "array-1e5-duplicate-edges renderAuditHtml",
  "array-1e5-chain export:agent2model",
  "array-1e5-chain export:openagentflow",
  "array-1e5-decision-cases simulate",
  "array-1e5-decision-cases explore",
  "array-1e5-decision-cases auditWorkflowReport",
  "deep-10k-tool-params auditWorkflowReport",
  // Far over the bar (measured 2.4 to 12 s on the 2-core dev machine).
  "array-1e5-chain simulate",
  "array-1e5-chain explore",
  "array-1e5-chain auditWorkflowReport",
  "array-1e5-decision-cases validate",
  "array-1e5-schema-fields auditWorkflowReport",
]);

/**
 * KNOWN_SLOW: calls over the 1 s bar but bounded (1 to 2 s on the dev machine). They run, with
 * this limit instead of the default, so that what follows them is still checked.
 */
const KNOWN_SLOW: ReadonlyMap<string, number> = new Map<string, number>([
  ["string-1e6-yaml-comment-lines parseWorkflowText", 6_000],
  ["string-1e6-yaml-comment-lines parseToolContractText", 6_000],
  ["array-1e5-yaml-sequence parseToolContractText", 6_000],
  ["array-1e5-dangling-edges auditWorkflowReport", 6_000],
  ["array-1e5-dangling-edges renderAuditHtml", 6_000],
  ["array-1e5-decision-cases export:langgraph-gen", 6_000],
  ["array-1e5-schema-fields export:agentos", 6_000],
  ["array-1e5-decision-cases export:langgraph-graph", 6_000],
  ["array-1e5-decision-cases export:agentos", 6_000],
  ["array-1e5-decision-cases export:agent2model", 6_000],
  ["deep-10k-tool-params validate", 6_000],
  ["deep-10k-tool-params simulate", 6_000],
  ["deep-10k-tool-params explore", 6_000],
]);

const timings: Timing[] = [];
const skipped = new Set<string>();

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
      const run = await runCase(subject, { known: KNOWN_FAILURES, slow: KNOWN_SLOW });
      timings.push(...run.timings);
      for (const key of run.skipped) skipped.add(key);
      expect(run.timings.length).toBeGreaterThan(0);
    },
    120_000,
  );

  it("lists only known failures and slow calls that are still reached", () => {
    expect([...KNOWN_FAILURES].filter((key) => !skipped.has(key))).toEqual([]);
    const called = new Set(timings.map((t) => `${t.caseName} ${t.entry}`));
    expect([...KNOWN_SLOW.keys()].filter((key) => !called.has(key))).toEqual([]);
  });
});

afterAll(() => {
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 12);
  const perCase = new Map<string, number>();
  for (const t of timings) perCase.set(t.caseName, (perCase.get(t.caseName) ?? 0) + t.ms);
  const cases = [...perCase].sort((a, b) => b[1] - a[1]);
  const maxCase = cases[0];
  const lines = slowest.map((t) => `  ${t.ms.toFixed(1).padStart(8)} ms  ${t.caseName} ${t.entry}`);
  console.info(
    [
      `adversarial corpus: ${CORPUS.length} cases, ${timings.length} calls, limit ${TIME_LIMIT_MS} ms per call`,
      `slowest calls:`,
      ...lines,
      `slowest case in total: ${maxCase?.[0] ?? "-"} ${(maxCase?.[1] ?? 0).toFixed(1)} ms`,
      ...cases.slice(1, 12).map(([name, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${name}`),
      `skipped as known failures: ${skipped.size}`,
    ].join("\n"),
  );
});
