/**
 * The `--cache` file (`--cache-location`, default `.agentflowcache` in the working directory):
 * each file's outcome of the last runs of `check` and `gate`, by the keys of cache-key.ts, and
 * what each registry file defines, by the sha256 of its text. One file, as ESLint's
 * `.eslintcache`; a location that is a folder (or ends in `/`) holds `agentflowcache-<hash of
 * the working directory>`, so that projects can share one folder.
 *
 * The file is a header line (`{"format":"agentflow-cache","version":1,"sha256":…}`) and the body
 * whose sha256 it names: a file that is not agentflow's, is cut short or was changed by hand —
 * its checksum wrong, or its body not exactly the shape agentflow writes (cache-shape.ts: each
 * outcome down to every diagnostic and agent task) — is ignored with a note on stderr and
 * everything is checked again, never a shape the report does not expect. A file
 * there that is not agentflow's cache is never written over (it may be an input named by
 * mistake). Writing goes through a temporary file and a rename; a failure to write is a
 * warning, not a failure.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FileOutcome } from "./check-file.js";
import type { CachedCommand } from "./cache-key.js";
import { codeKey } from "./cache-key.js";
import { fileOutcome, registryEntry } from "./cache-shape.js";
import type { Shape } from "./json-shape.js";
import { exact, list, map, pair, pointer, text } from "./json-shape.js";
import { isProcessName } from "./files.js";
import { describeFsError, oddKind } from "./fs-info.js";
import type { CliIo } from "./io.js";
import { textSizeProblem } from "./io.js";
import type { RegistryIndex, RegistryIndexEntry } from "./registry-read.js";
import { sha256 } from "../model/index.js";

/** The default cache location, as ESLint's `.eslintcache`. */
export const DEFAULT_CACHE_LOCATION = ".agentflowcache";

const FORMAT = "agentflow-cache";
const VERSION = 1;

/** A file's cached outcome: valid while its text and every lookup it made are unchanged. */
export interface CachedFile {
  readonly sha256: string;
  readonly outcome: FileOutcome;
}

/** One command's section: the run key and its files' outcomes, by the path as given. */
interface Section {
  readonly key: string;
  readonly files: Record<string, CachedFile>;
}

interface Body {
  /** cache-key.ts `codeKey()`: another agentflow's cache is started afresh. */
  readonly code: string;
  readonly registry: readonly (readonly [string, RegistryIndexEntry])[];
  readonly runs: Partial<Record<CachedCommand, Section>>;
}

/** The cache file `--cache-location` names (a folder holds one per working directory). */
export function cacheFile(location: string, cwd: string): string {
  const absolute = resolve(cwd, location);
  let folder = location.endsWith("/") || location.endsWith("\\");
  try {
    folder ||= statSync(absolute).isDirectory();
  } catch {
    // Absent: a file to be written.
  }
  if (!folder) return absolute;
  const tag = sha256(cwd).slice(0, 12);
  return join(absolute, `agentflowcache-${tag}`);
}

const section = exact({ key: text, files: map(exact({ sha256: text, outcome: fileOutcome })) });

/** The body's shape: cache-shape.ts, exactly. */
const bodyShape: Shape<Body> = exact({
  code: text,
  registry: list(pair(text, registryEntry)),
  runs: exact({}, { check: section, gate: section }),
});

/**
 * Where a body of the right shape still is not one agentflow wrote: an outcome filed under
 * another file's name, a process without its decision (it would be left out of `gate`'s
 * verdicts), or a document with one. `undefined` when there is none.
 */
function outcomeMismatch(body: Body): string | undefined {
  for (const [command, { files }] of Object.entries(body.runs)) {
    for (const [file, { outcome }] of Object.entries(files)) {
      const at = pointer(`/runs/${command}/files`, file);
      if (outcome.checked.file !== file) return `${at}/outcome/checked/file is another file`;
      // As checkOneFile decides: gate reads every file as a process, check by its extension.
      const process = command === "gate" || isProcessName(file);
      const decided = outcome.decision !== undefined && outcome.processIds !== undefined;
      const undecided = outcome.decision === undefined && outcome.processIds === undefined;
      if (process && !decided) return `${at}/outcome lacks the decision every process's has`;
      if (!process && !undecided) return `${at}/outcome has a decision, which no document's has`;
    }
  }
  return undefined;
}

/** Why a parsed body is not one agentflow wrote (`undefined` when it is one). */
function bodyProblem(value: unknown): string | undefined {
  return bodyShape(value, "") ?? outcomeMismatch(value as Body);
}

/**
 * Why the file at the cache location is not a cache to use. `foreign` when it is not (or may not
 * be) agentflow's cache at all: such a file is never written over, since it may be anything — a
 * config, a contract, the process being gated — that `--cache-location` named by mistake.
 */
interface Unusable {
  readonly problem: string;
  readonly foreign: boolean;
}

/** The body of a cache file, or why it is not one (`undefined` when there is none). */
function readBody(file: string): Body | Unusable | undefined {
  let text: string;
  try {
    // Asked first: a FIFO would block the read, and a file too long to be text cannot be read.
    const info = statSync(file);
    if (!info.isFile()) return { problem: `is ${oddKind(info)}, not a cache file`, foreign: true };
    const tooLarge = textSizeProblem(info.size);
    if (tooLarge !== undefined) return { problem: `cannot be read (${tooLarge})`, foreign: true };
    text = readFileSync(file, "utf8");
  } catch (error) {
    // Absent, or a path that cannot hold a file (a file stands where a folder would be).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { problem: `cannot be read (${describeFsError(error)})`, foreign: true };
  }
  const newline = text.indexOf("\n");
  let header: unknown;
  try {
    header = JSON.parse(newline < 0 ? text : text.slice(0, newline));
  } catch {
    return { problem: "is not an agentflow cache", foreign: true };
  }
  const { format, version, sha256: sum } = (header ?? {}) as Record<string, unknown>;
  if (format !== FORMAT) return { problem: "is not an agentflow cache", foreign: true };
  if (version !== VERSION) return undefined;
  const body = text.slice(newline + 1);
  if (sha256(body) !== sum) {
    return { problem: "is damaged (its checksum does not match)", foreign: false };
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: "is damaged (not JSON)", foreign: false };
  }
  // Another agentflow build's cache, whatever shape it had then, is started afresh without a word.
  const code = (value as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code !== codeKey()) return undefined;
  const problem = bodyProblem(value);
  return problem === undefined
    ? (value as Body)
    : { problem: `is damaged (not the cache's shape: ${problem})`, foreign: false };
}

/** A run's view of the cache: what it may reuse, and what it records for the next run. */
export class RunCache {
  readonly file: string;
  /** The file as messages name it (relative to the working directory when inside it). */
  readonly shown: string;
  /** False when the location holds a file that is not agentflow's cache: it is left as it is. */
  private readonly writable: boolean;
  /** Registry files' summaries, read from and written to the cache. */
  readonly registry: RegistryIndex;
  private readonly previous: Readonly<Record<string, CachedFile>>;
  private readonly next: Record<string, CachedFile> = {};
  private readonly others: Partial<Record<CachedCommand, Section>>;

  private constructor(
    file: string,
    shown: string,
    private readonly command: CachedCommand,
    private readonly key: string,
    body: Body | undefined,
    writable: boolean,
  ) {
    this.file = file;
    this.shown = shown;
    this.writable = writable;
    this.registry = { previous: new Map(body?.registry ?? []), next: new Map() };
    const section = body?.runs[command];
    // Another run key (other settings): its outcomes decide nothing here, and are replaced.
    this.previous = section?.key === key ? section.files : {};
    // The files of the last run with these settings stay, with this run's on top.
    Object.assign(this.next, this.previous);
    this.others = Object.fromEntries(
      Object.entries(body?.runs ?? {}).filter(([name]) => name !== command),
    );
  }

  /**
   * Opens the cache at `file` for a run of `command` with the run key `key`. A damaged cache is
   * said on stderr, ignored and written anew; a file that is not agentflow's cache (or cannot be
   * read) is said on stderr, ignored and never written over.
   */
  static open(
    file: string,
    shown: string,
    command: CachedCommand,
    key: string,
    io: CliIo,
  ): RunCache {
    const read = readBody(file);
    if (read !== undefined && "problem" in read) {
      const kept = read.foreign
        ? "; ignored and left as it is: every file is checked and no result is kept (give --cache-location a path of its own)"
        : "; ignored, every file is checked";
      io.stderr(`agentflow: the cache ${shown} ${read.problem}${kept}\n`);
    }
    const body =
      read === undefined || "problem" in read || read.code !== codeKey() ? undefined : read;
    const writable = read === undefined || !("problem" in read) || !read.foreign;
    return new RunCache(file, shown, command, key, body, writable);
  }

  /**
   * The cached outcome of `file` when its text hashes as `sha256` (lookups not yet checked): of
   * the shape a check gives, since a body of any other shape was not opened.
   */
  candidate(file: string, sha256: string): FileOutcome | undefined {
    const entry = Object.hasOwn(this.previous, file) ? this.previous[file] : undefined;
    return entry?.sha256 === sha256 ? entry.outcome : undefined;
  }

  /** Records `file`'s outcome for the next run. */
  record(file: string, sha256: string, outcome: FileOutcome): void {
    this.next[file] = { sha256, outcome };
  }

  /** Writes the cache; a failure is a warning on stderr (the run's result stands). */
  save(io: CliIo): void {
    // Said when it was opened; whatever stands there is not agentflow's to replace.
    if (!this.writable) return;
    const body: Body = {
      code: codeKey(),
      registry: [...this.registry.next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      runs: { ...this.others, [this.command]: { key: this.key, files: this.next } },
    };
    const text = JSON.stringify(body);
    const header = JSON.stringify({ format: FORMAT, version: VERSION, sha256: sha256(text) });
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temporary, `${header}\n${text}`);
      renameSync(temporary, this.file);
    } catch (error) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Never written (its folder cannot be): nothing to remove.
      }
      const reason = error instanceof Error ? error.message : String(error);
      io.stderr(`agentflow: warning: cannot write the cache ${this.shown}: ${reason}\n`);
    }
  }
}
