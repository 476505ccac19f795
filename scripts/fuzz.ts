/**
 * The long fuzz run (issue 8, item 4; not in CI): every property of `test/properties` for
 * `--minutes` each (default 10), in batches with fresh random seeds — the CLI's `main(argv)` on
 * random command lines and files among them (`--only "main(argv)"`, issue 17). Each batch prints its seed;
 * a failure prints fast-check's counterexample and the command that replays it in vitest.
 *
 *   npm run fuzz -- [--minutes <n>] [--only <name part>]... [--list]
 */
import { randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ALL_PROPERTIES } from "../test/properties/index.js";
import { removeTempDirs } from "../test/temp.js";
import type { PropertyDef } from "../test/properties/settings.js";

interface Outcome {
  readonly name: string;
  readonly batches: number;
  readonly runs: number;
  readonly failedSeed?: number;
}

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    only: { type: "string", multiple: true },
    list: { type: "boolean", default: false },
  },
});

const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0)
  throw new Error("--minutes must be a positive number");
const only = values.only ?? [];
const selected = ALL_PROPERTIES.filter(
  (def) => only.length === 0 || only.some((part) => def.name.includes(part)),
);

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Seconds a batch aims at: long enough to keep the log short, short enough to see progress. */
const BATCH_SECONDS = 10;

/** Runs one property in batches of about {@link BATCH_SECONDS} until its time is up or it fails. */
async function fuzz(def: PropertyDef): Promise<Outcome> {
  const end = performance.now() + minutes * 60_000;
  let numRuns = def.runs;
  let runs = 0;
  const replay = `npx vitest run ${def.file} -t ${JSON.stringify(def.name)}`;
  let batches = 0;
  while (performance.now() < end) {
    const seed = randomInt(-0x80000000, 0x7fffffff);
    const started = performance.now();
    try {
      await def.run({ seed, numRuns, replay });
    } catch (error) {
      console.log(`[${def.name}] seed ${seed} FAILED\n${message(error)}\n`);
      return { name: def.name, batches: batches + 1, runs, failedSeed: seed };
    }
    batches += 1;
    runs += numRuns;
    const seconds = (performance.now() - started) / 1000;
    console.log(`[${def.name}] seed ${seed} ok (${numRuns} runs, ${seconds.toFixed(1)} s)`);
    const scaled = Math.round((numRuns * BATCH_SECONDS) / Math.max(seconds, 0.01));
    numRuns = Math.min(Math.max(scaled, def.runs), 1_000_000);
  }
  return { name: def.name, batches, runs };
}

if (values.list) {
  for (const def of ALL_PROPERTIES) console.log(`${def.name}  (${def.file})`);
} else {
  if (selected.length === 0) throw new Error(`no property matches ${only.join(", ")}`);
  console.log(`fuzzing ${selected.length} properties, ${minutes} min each`);
  const outcomes: Outcome[] = [];
  for (const def of selected) outcomes.push(await fuzz(def));
  console.log("\nproperty | batches | runs | result");
  for (const o of outcomes) {
    const result = o.failedSeed === undefined ? "ok" : `FAILED (seed ${o.failedSeed})`;
    console.log(`${o.name} | ${o.batches} | ${o.runs} | ${result}`);
  }
  process.exitCode = outcomes.some((o) => o.failedSeed !== undefined) ? 1 : 0;
  // The CLI property writes its cases under one temporary folder; vitest's setup removes it in CI.
  removeTempDirs();
}
