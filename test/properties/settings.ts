/**
 * fast-check settings shared by every property suite and by `scripts/fuzz.ts`: the seed and the
 * number of runs come from `FC_SEED` / `FC_RUNS` (a fixed, logged seed by default, so that CI is
 * reproducible), `FC_PATH` replays one counterexample, and a failure prints the command that
 * replays it: `FC_SEED=… FC_PATH=… npx vitest run <file> -t "<property>"`.
 */
import fc from "fast-check";

/** The seed used when `FC_SEED` is not set. Fixed, so that every CI run draws the same cases. */
export const DEFAULT_SEED = 20_250_808;

/** How one property is run: which seed, how many cases, and how a failure is replayed. */
export interface RunConfig {
  readonly seed: number;
  readonly numRuns: number;
  /** fast-check's counterexample path, to replay exactly one failing case. */
  readonly path?: string;
  /** The command (without the `FC_*` variables) that replays a failure. */
  readonly replay: string;
}

/** A property as the suites and the fuzz script share it. */
export interface PropertyDef {
  /** Unique name, also the vitest test name (`-t` selects it). */
  readonly name: string;
  /** The test file that runs it in CI, relative to the repository root. */
  readonly file: string;
  /** Runs per CI execution (`FC_RUNS` overrides it). */
  readonly runs: number;
  /** Asserts the property with these settings; throws (or rejects) on a counterexample. */
  readonly run: (config: RunConfig) => void | Promise<void>;
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not '${raw}'`);
  return value;
}

let logged = false;

/**
 * The settings for one property in a vitest run: `FC_SEED`, `FC_RUNS` and `FC_PATH` when set,
 * otherwise {@link DEFAULT_SEED} and the property's own run count. Logs the seed once.
 */
export function runConfig(def: Pick<PropertyDef, "name" | "file" | "runs">): RunConfig {
  const seed = envInteger("FC_SEED") ?? DEFAULT_SEED;
  const numRuns = envInteger("FC_RUNS") ?? def.runs;
  const path = process.env.FC_PATH;
  if (!logged) {
    logged = true;
    console.info(`[fast-check] seed ${seed} (set FC_SEED, FC_RUNS, FC_PATH to change)`);
  }
  return {
    seed,
    numRuns,
    ...(path === undefined || path === "" ? {} : { path }),
    replay: `npx vitest run ${def.file} -t ${JSON.stringify(def.name)}`,
  };
}

/** A plugin that, on failure, throws fast-check's own report followed by the replay command. */
function replayReport<T>(replay: string): fc.Plugin<T> {
  return () => ({
    onAllRunsComplete: (details) => {
      if (!details.failed) return;
      const report = fc.defaultReportMessage(details) ?? "Property failed";
      const path = details.counterexamplePath ?? "";
      const hint = `Replay: FC_SEED=${details.seed} FC_PATH=${JSON.stringify(path)} ${replay}`;
      console.error(hint);
      throw new Error(`${report}\n\n${hint}`, { cause: details.errorInstance });
    },
  });
}

/** fast-check parameters for a {@link RunConfig}: seed, runs, replay path and the report. */
export function fcParams<T>(config: RunConfig): fc.Parameters<T> {
  return {
    seed: config.seed,
    numRuns: config.numRuns,
    ...(config.path === undefined ? {} : { path: config.path, endOnFailure: true }),
    verbose: fc.VerbosityLevel.Verbose,
    plugins: [replayReport<T>(config.replay)],
  };
}

/** A synchronous property over one arbitrary. */
export function property<T>(
  name: string,
  file: string,
  runs: number,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => void,
): PropertyDef {
  return {
    name,
    file,
    runs,
    run: (config) => {
      fc.assert(fc.property(arbitrary, predicate), fcParams<[T]>(config));
    },
  };
}

/** An asynchronous property over one arbitrary. */
export function asyncProperty<T>(
  name: string,
  file: string,
  runs: number,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
): PropertyDef {
  return {
    name,
    file,
    runs,
    run: (config) => fc.assert(fc.asyncProperty(arbitrary, predicate), fcParams<[T]>(config)),
  };
}
