/**
 * A registry read from a folder (Node only): every workflow and tool contract below it, indexed
 * by `id@version`, served as validation resolvers. Hosts may also ask by semver range
 * (`tool:search@^1.2.0`); references inside documents are always exact.
 *
 * What is reviewed must be what was named: two documents with one `id@version` and different
 * content are a conflict, and the registry resolves that reference to neither (it throws a
 * {@link RegistryConflictError}, which the gate turns into a blocking `AGENT_REF_CONFLICT`).
 * Documents of other formats (LangGraph JSON, OpenAgentFlow IR, AgentOS graph…) are read through
 * their importers (`registry-foreign.ts`). `docs/registry.md` says how a folder is read.
 */
import { stat } from "node:fs/promises";
import semver from "semver";
import type { RegistryDefinition } from "../bpmn/index.js";
import { RegistryConflictError } from "../bpmn/index.js";
import type { AgentWorkflow, Diagnostic, ToolContract } from "../model/index.js";
import { parseRef } from "../model/index.js";
import type { Resolvers } from "../validate/index.js";
import { fileUnreadable, pathSkipped, redefinition } from "./diagnostics.js";
import { readTexts } from "./file-read.js";
import { collectFiles } from "./files.js";
import { UsageError } from "./io.js";
import type { RegistryIndex } from "./registry-read.js";
import { readRegistryFile } from "./registry-read.js";

/** A document's identity and content hash, as a shelf files it. */
interface Identified {
  readonly id: string;
  readonly version: string;
  readonly contentHash: string;
}

/** The documents one `id@version` is defined by, in the order the files were read. */
interface Entry<T> {
  /** The first definition's document, read when first asked for (from a cache, it is not yet). */
  readonly doc: () => T;
  readonly definitions: RegistryDefinition[];
  /** True when two definitions differ in content: the reference resolves to neither. */
  conflict: boolean;
}

/** Documents of one kind by id, then by version. */
type Shelf<T> = Map<string, Map<string, Entry<T>>>;

/** A loaded registry. */
export interface FolderRegistry {
  /** The first definition of each `id@version` (conflicting ones included; `resolve` refuses them). */
  readonly workflows: ReadonlyMap<string, ReadonlyMap<string, AgentWorkflow>>;
  readonly tools: ReadonlyMap<string, ReadonlyMap<string, ToolContract>>;
  /**
   * What the reader should know: files that could not be loaded, parts that could not be read
   * (`FILE_UNREADABLE`, an error: a folder that cannot be listed, a file, a broken link, a FIFO),
   * paths read already under another name (`PATH_SKIPPED`), and `id@version`s defined again
   * (`REGISTRY_DUPLICATE`, a warning, when the content is the same; `REGISTRY_CONFLICT`, an
   * error, when it differs), each on the file it concerns.
   */
  readonly problems: readonly {
    readonly file: string;
    readonly diagnostics: readonly Diagnostic[];
  }[];
  readonly resolvers: Resolvers;
  /** Every file the registry read, in reading order (so that `-o` can be refused over one). */
  readonly files: readonly string[];
  /**
   * Resolves `id@version` or `id@<range>` to the highest matching version's document; throws a
   * {@link RegistryConflictError} when that version has different documents.
   */
  resolve(ref: string): AgentWorkflow | ToolContract | undefined;
  /**
   * The file the document of an exact `id@version` was read from (the first definition's, in
   * reading order), or `undefined` when the registry has none: what an approval names as the
   * subject a decision used. `kind` picks the shelf; without it, tools then workflows.
   */
  sourceOf(ref: string, kind?: "workflow" | "tool"): string | undefined;
  /**
   * The first definition (file and content hash) of an exact `id@version` on `kind`'s shelf:
   * what a document checked outside the registry under the same identity is compared with.
   */
  definitionOf(kind: "workflow" | "tool", ref: string): RegistryDefinition | undefined;
  /**
   * What looking `ref` up on a shelf answers, without reading the document: its content hash,
   * the conflict, or `absent` (registry-read.ts, {@link answerOf}): what a cached result was
   * decided with.
   */
  answer(kind: "workflow" | "tool", ref: string): string;
}

/** Files a shelf adds a document from; returns the diagnostic when it defines a ref again. */
function shelve<T>(
  shelf: Shelf<T>,
  doc: Identified & { readonly load: () => T },
  file: string,
): Diagnostic | undefined {
  let versions = shelf.get(doc.id);
  if (versions === undefined) {
    versions = new Map();
    shelf.set(doc.id, versions);
  }
  const definition = { source: file, contentHash: doc.contentHash };
  const entry = versions.get(doc.version);
  if (entry === undefined) {
    let loaded: { value: T } | undefined;
    const once = (): T => (loaded ??= { value: doc.load() }).value;
    versions.set(doc.version, { doc: once, definitions: [definition], conflict: false });
    return undefined;
  }
  const ref = `${doc.id}@${doc.version}`;
  const first = entry.definitions[0] ?? definition;
  entry.definitions.push(definition);
  entry.conflict ||= first.contentHash !== definition.contentHash;
  return redefinition(ref, first, definition);
}

function found<T>(entry: Entry<T> | undefined, ref: string): T | undefined {
  if (entry === undefined) return undefined;
  if (entry.conflict) throw conflictOf(entry, ref);
  return entry.doc();
}

function conflictOf<T>(entry: Entry<T>, ref: string): RegistryConflictError {
  const distinct = new Map(entry.definitions.map((d) => [d.contentHash, d] as const));
  // One definition per content: the first file of each, in reading order.
  return new RegistryConflictError(ref, [...distinct.values()]);
}

/** The entry a ref (exact, or `id@<range>`: the highest matching version) names, with that ref. */
function entryOf<T>(shelf: Shelf<T>, ref: string): [Entry<T>, string] | undefined {
  const exact = parseRef(ref);
  if (exact.ok) {
    const entry = shelf.get(exact.ref.id)?.get(exact.ref.version);
    return entry === undefined ? undefined : [entry, exact.canonical];
  }
  const at = ref.lastIndexOf("@");
  if (at <= 0) return undefined;
  const id = ref.slice(0, at);
  const versions = shelf.get(id);
  const range = semver.validRange(ref.slice(at + 1));
  if (versions === undefined || range === null) return undefined;
  const best = semver.maxSatisfying([...versions.keys()], range);
  const entry = best === null ? undefined : versions.get(best);
  if (best === null || entry === undefined) return undefined;
  // Versions that differ in build metadata only (`1.0.0+a`, `1.0.0+b`) rank equal: none is the
  // highest, and the first file read would decide. A conflict of them all instead.
  const tied = [...versions].filter(
    ([version]) => semver.satisfies(version, range) && semver.compare(version, best) === 0,
  );
  if (tied.length > 1) {
    const definitions = tied.flatMap(([, tie]) => tie.definitions);
    return [
      { ...entry, definitions, conflict: true },
      `${id}@${semver.parse(best)?.version ?? best}`,
    ];
  }
  return [entry, `${id}@${best}`];
}

function lookup<T>(shelf: Shelf<T>, ref: string): T | undefined {
  const hit = entryOf(shelf, ref);
  return hit === undefined ? undefined : found(hit[0], hit[1]);
}

/**
 * What a lookup of `ref` answers, as one string, without reading a document: the content hash
 * of the document it resolves to, the conflict it throws (its message names every definition),
 * or `absent`. Two registries answer a lookup alike exactly when these are equal.
 */
function answerOf<T>(shelf: Shelf<T>, ref: string): string {
  const hit = entryOf(shelf, ref);
  if (hit === undefined) return "absent";
  const [entry, canonical] = hit;
  if (entry.conflict) return `conflict ${conflictOf(entry, canonical).message}`;
  return entry.definitions[0]?.contentHash ?? "absent";
}

/** An exact ref's first definition on a shelf. */
function definitionOn<T>(shelf: Shelf<T>, ref: string): RegistryDefinition | undefined {
  const exact = parseRef(ref);
  if (!exact.ok) return undefined;
  return shelf.get(exact.ref.id)?.get(exact.ref.version)?.definitions[0];
}

/** The documents of a shelf, first definition of each ref. */
function documents<T>(shelf: Shelf<T>): Map<string, Map<string, T>> {
  return new Map(
    [...shelf].map(([id, versions]) => [
      id,
      new Map([...versions].map(([version, entry]) => [version, entry.doc()])),
    ]),
  );
}

/** Why a file could not be read: its read error's message without `cannot read '<file>': `. */
function reasonOf(read: { readonly file: string; readonly error: Error }): string {
  const prefix = `cannot read '${read.file}': `;
  const message = read.error.message;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/**
 * Loads every `.json`/`.yaml`/`.yml` document below `dir` (sorted, so loading is deterministic;
 * symbolic links followed), or below each of several folders in the order given, as one
 * registry. A folder must be one: a file is a {@link UsageError}, since a registry of one
 * document would resolve almost nothing and say nothing about it. `source` says where the
 * folders were set (`--registry`, or `registry in <config file>`), for the errors.
 */
export async function loadFolderRegistry(
  dir: string | readonly string[],
  source = "--registry",
  index?: RegistryIndex,
): Promise<FolderRegistry> {
  const dirs = typeof dir === "string" ? [dir] : dir;
  for (const folder of dirs) {
    const info = await stat(folder).catch(() => undefined);
    if (info !== undefined && !info.isDirectory()) {
      throw new UsageError(
        `the registry '${folder}' (${source}) is not a folder; give the folder that holds the workflows and tool contracts`,
      );
    }
  }
  const workflows: Shelf<AgentWorkflow> = new Map();
  const tools: Shelf<ToolContract> = new Map();
  const problems: { file: string; diagnostics: readonly Diagnostic[] }[] = [];
  let collected;
  try {
    collected = await collectFiles(dirs);
  } catch (error) {
    // Said as the registry's problem, and where it was set, not as an input's.
    if (error instanceof UsageError) {
      throw new UsageError(`the registry (${source}): ${error.message}`);
    }
    throw error;
  }
  const { files, skipped } = collected;
  // A part of the registry that could not be read (a folder that cannot be listed, a file, a
  // broken link, a FIFO) may hold the document a reference names: an error, which blocks `gate`,
  // so that an agent's embedded snapshot never answers for the registry's copy it could not see.
  for (const s of skipped) {
    const diagnostic = s.unread ? fileUnreadable(s.reason) : pathSkipped(s);
    problems.push({ file: s.path, diagnostics: [diagnostic] });
  }
  // Read ahead, as the inputs are: one read at a time leaves the thread waiting on the disk.
  for await (const read of readTexts(files)) {
    if ("error" in read) {
      problems.push({ file: read.file, diagnostics: [fileUnreadable(reasonOf(read))] });
      continue;
    }
    const { file, text } = read;
    const { summary, load } = readRegistryFile(file, text, index);
    if (summary.problems.length > 0) problems.push({ file, diagnostics: summary.problems });
    const { id, version, contentHash: hash } = summary;
    if (id === undefined || version === undefined || hash === undefined) continue;
    const doc = { id, version, contentHash: hash };
    const again =
      summary.kind === "tool"
        ? shelve(tools, { ...doc, load: () => load() as ToolContract }, file)
        : shelve(workflows, { ...doc, load: () => load() as AgentWorkflow }, file);
    if (again !== undefined) problems.push({ file, diagnostics: [again] });
  }
  const resolveTool = (ref: string): ToolContract | undefined => lookup(tools, ref);
  const resolveDelegate = (ref: string): AgentWorkflow | undefined => lookup(workflows, ref);
  let all:
    | {
        workflows: Map<string, Map<string, AgentWorkflow>>;
        tools: Map<string, Map<string, ToolContract>>;
      }
    | undefined;
  // Every document, read only when asked for: a run from a cache asks for none.
  const everything = () => (all ??= { workflows: documents(workflows), tools: documents(tools) });
  return {
    get workflows() {
      return everything().workflows;
    },
    get tools() {
      return everything().tools;
    },
    problems,
    files,
    resolve: (ref) => resolveTool(ref) ?? resolveDelegate(ref),
    sourceOf: (ref, kind) =>
      (kind === "workflow"
        ? definitionOn(workflows, ref)
        : kind === "tool"
          ? definitionOn(tools, ref)
          : (definitionOn(tools, ref) ?? definitionOn(workflows, ref))
      )?.source,
    definitionOf: (kind, ref) =>
      kind === "tool" ? definitionOn(tools, ref) : definitionOn(workflows, ref),
    resolvers: { resolveTool, resolveDelegate },
    answer: (kind, ref) => (kind === "tool" ? answerOf(tools, ref) : answerOf(workflows, ref)),
  };
}
