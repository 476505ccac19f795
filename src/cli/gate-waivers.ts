/**
 * Waivers across the inputs of one run of `check` or `gate` (and of `approve`, `verify` and
 * `conform`, which run the gate's pipeline). A waiver names its process by id, and an id names
 * one process only within one file: two inputs that define the same process id are two processes
 * to the waiver, which says nothing of which one its owner reviewed. Applied to each, it would
 * waive a process nobody reviewed — another team's copy, a fork, a renamed template. So such a
 * waiver is refused, as a waiver whose bare rule id is more than one pack's is (exit 2): the run
 * reports no verdict it waived. Each file is checked on its own (in worker threads, from the
 * cache), so the process ids are known only once the last is checked.
 */
import { visibleText } from "../model/index.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { quoteValue } from "../policy/shape.js";
import type { FileOutcome } from "./check-file.js";
import { UsageError } from "./io.js";

/** An input of a run, and the ids of the `bpmn:process` elements it defines. */
export interface ProcessInput {
  readonly file: string;
  readonly processIds: readonly string[];
}

/** The config's waivers, and the file they are written in. */
export interface RunWaivers {
  readonly configFile?: string | undefined;
  readonly waivers?: readonly Waiver[] | undefined;
}

/** The first files of a list, for a message. */
function listed(files: readonly string[]): string {
  const shown = files.slice(0, 4).map((file) => visibleText(file));
  return files.length > 4 ? `${shown.join(", ")}, … (${files.length})` : shown.join(", ");
}

/**
 * The waivers — the config's and each pack's own — whose `process` is defined by more than one
 * of `inputs`, one line each, placed as `<config>: waivers[i].process` or
 * `<pack source>: waivers[j].process`; empty when none is. A waiver with an `element` is one too:
 * element ids are no less shared between copies of a process than its id.
 */
export function sharedProcessProblems(
  run: RunWaivers,
  packs: readonly CompiledPack[],
  inputs: readonly ProcessInput[],
): string[] {
  const definedIn = new Map<string, string[]>();
  for (const { file, processIds } of inputs) {
    for (const id of new Set(processIds)) {
      const files = definedIn.get(id) ?? [];
      if (!files.includes(file)) files.push(file);
      definedIn.set(id, files);
    }
  }
  const config = run.configFile === undefined ? "" : `${run.configFile}: `;
  const placed = [
    ...(run.waivers ?? []).map((waiver, i) => ({ waiver, where: `${config}waivers[${i}]` })),
    ...packs.flatMap((pack) =>
      pack.waivers.map((waiver, j) => ({ waiver, where: `${pack.source}: waivers[${j}]` })),
    ),
  ];
  return placed.flatMap(({ waiver, where }) => {
    const files = waiver.process === undefined ? [] : (definedIn.get(waiver.process) ?? []);
    if (files.length < 2) return [];
    return [
      `${where}.process: ${quoteValue(waiver.process)} is the id of a process in ${files.length} inputs (${listed(files)}); a waiver names a process by its id alone, so nothing says which one was reviewed, and it would waive them all: give each process an id of its own`,
    ];
  });
}

/**
 * Throws the {@link sharedProcessProblems} of a run, if any, as one usage error.
 *
 * @throws UsageError naming each waiver and the inputs that define its process.
 */
export function refuseSharedProcesses(
  run: RunWaivers,
  packs: readonly CompiledPack[],
  inputs: readonly ProcessInput[],
): void {
  const problems = sharedProcessProblems(run, packs, inputs);
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
}

/**
 * The outcomes as they come, then, after the last, the run refused (a `UsageError`) when a
 * waiver names a process more than one of them defines; nothing is kept when no waiver names a
 * process.
 */
export async function* refusingSharedProcesses(
  outcomes: AsyncIterable<FileOutcome>,
  run: RunWaivers,
  packs: readonly CompiledPack[],
): AsyncGenerator<FileOutcome, void, undefined> {
  const named = [...(run.waivers ?? []), ...packs.flatMap((p) => p.waivers)].some(
    (w) => w.process !== undefined,
  );
  const inputs: ProcessInput[] = [];
  for await (const outcome of outcomes) {
    const processIds = outcome.processIds ?? [];
    if (named && processIds.length > 0) inputs.push({ file: outcome.checked.file, processIds });
    yield outcome;
  }
  refuseSharedProcesses(run, packs, inputs);
}
