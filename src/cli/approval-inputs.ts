/**
 * What a gate run used, as an approval records it: the run is `gate`'s own pipeline (same
 * settings, config lookup, registry, packs, plugins and ignores), and the subjects are every file
 * a decision rests on, by its raw bytes: each process, the config and every config it extends,
 * each policy pack, every file of each plugin's module graph, and each registry document a
 * decision resolved (an agent task's workflow, each tool contract and delegate workflow it looked
 * up). A registry document no decision used is not a subject: adding one changes nothing that was
 * reviewed, unless a decision now resolves to it. A lookup that found different documents for one
 * `id@version` (a conflict, which blocks) rests on each of them: all are subjects, so that the
 * approved one still present reads as unchanged and the other as added.
 */
import type {
  ApprovalInputs,
  ProcessApproval,
  StatementFile,
  StatementInput,
  SubjectKind,
} from "../approval/index.js";
import { processApproval } from "../approval/index.js";
import { readBytes } from "./file-read.js";
import type { AgentTaskSummary } from "../bpmn/index.js";
import type { GateRun } from "./gate-run.js";
import { runGatePipeline } from "./gate-run.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import { subjectName } from "./approval-root.js";
import type { BatchCliOptions } from "./settings.js";
import { packageVersion } from "./version.js";

/** What to gather: the gate's inputs, and the repository root that names them. */
export interface GatherRequest {
  /** The paths the run reads (files, folders, globs), as the working directory reaches them. */
  readonly paths: readonly string[];
  /** `-c` / `--no-config` / the lookup (undefined), and `--registry`. */
  readonly config?: string | boolean | undefined;
  readonly registry?: string | undefined;
  /** Registry folders to use instead of the settings' (`verify`: the approval's). */
  readonly registryFolders?: readonly string[] | undefined;
  /** The repository root, absolute: subjects are named relative to it. */
  readonly root: string;
  readonly cwd: string;
}

/** A process whose promotion is blocked, and why. */
export interface BlockedProcess {
  readonly name: string;
  /** The codes of its blocking findings, each once, in the order found. */
  readonly codes: readonly string[];
}

/** What a gate run used and decided, ready to be a statement. */
export interface Gathered {
  /** The repository root the subjects are named from, absolute. */
  readonly root: string;
  readonly run: GateRun;
  /** Everything of a statement but the approver's claim. */
  readonly input: Omit<StatementInput, "approver">;
  /** Processes that could not be read as BPMN (`gate` exits 2 for them). */
  readonly unreadable: number;
  /**
   * Processes the gate decided whose bytes could not be read afterwards: left out of the
   * statement, so `verify` reads them as removed; `approve` refuses rather than approve without
   * them.
   */
  readonly unhashed: readonly string[];
  /** Readable processes whose promotion is blocked. */
  readonly blocked: readonly BlockedProcess[];
}

/** The subjects of a run, by name, with the file each is read from. */
class Subjects {
  private readonly byName = new Map<
    string,
    { readonly kind: SubjectKind; readonly path: string }
  >();

  constructor(
    private readonly root: string,
    private readonly cwd: string,
  ) {}

  /** Adds `path` as a subject of `kind` and returns its name. */
  add(path: string, kind: SubjectKind): string {
    const name = subjectName(this.root, this.cwd, path);
    const known = this.byName.get(name);
    if (known !== undefined && known.kind !== kind) {
      throw new UsageError(
        `${name} is read both as ${known.kind} and as ${kind}; an approval names each file once`,
      );
    }
    this.byName.set(name, { kind, path });
    return name;
  }

  /** Each subject's raw bytes (a file that cannot be read is a `UsageError` naming it). */
  async files(): Promise<StatementFile[]> {
    const out: StatementFile[] = [];
    for (const [name, { kind, path }] of this.byName) {
      out.push({ name, kind, bytes: await readBytes(path) });
    }
    return out;
  }
}

/** Where a ref is looked up: a workflow (an agent's or a delegate's) or a tool contract. */
type Shelf = "workflow" | "tool";

/**
 * The registry files behind each ref the registry holds different documents for, by shelf and
 * ref (`workflow agnt-x@1.0.0`), from its `REGISTRY_CONFLICT` findings: each names the ref's
 * first definition (the one its shelf files it under) and one whose content differs.
 */
function conflictFiles(run: GateRun): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const registry = run.context.registry;
  if (registry === undefined) return out;
  for (const file of run.registry) {
    for (const { code, data } of file.diagnostics) {
      const { ref, definitions } = data;
      if (code !== "REGISTRY_CONFLICT" || typeof ref !== "string" || !Array.isArray(definitions))
        continue;
      const sources = (definitions as unknown[])
        .map((d) => (typeof d === "object" && d !== null ? (d as { source?: unknown }).source : d))
        .filter((source): source is string => typeof source === "string");
      const first = sources[0];
      if (first === undefined) continue;
      const shelf: Shelf | undefined =
        registry.sourceOf(ref, "tool") === first
          ? "tool"
          : registry.sourceOf(ref, "workflow") === first
            ? "workflow"
            : undefined;
      if (shelf === undefined) continue;
      const files = out.get(`${shelf} ${ref}`) ?? new Set<string>();
      for (const source of sources) files.add(source);
      out.set(`${shelf} ${ref}`, files);
    }
  }
  return out;
}

/** Each lookup of `task` (its workflow, its tools and delegates), by shelf and ref. */
function lookupsOf(task: AgentTaskSummary): string[] {
  const own = task.ref === null ? [] : [`workflow ${task.ref}`];
  const shelfOf = (kind: "tool" | "delegate"): Shelf => (kind === "tool" ? "tool" : "workflow");
  return [...own, ...task.dependencies.map((d) => `${shelfOf(d.kind)} ${d.ref}`)];
}

/** The codes of a decision's blocking findings, each once. */
function blockingCodes(run: GateRun, blocking: readonly { readonly code: string }[]): string[] {
  const codes = [...new Set(blocking.map((d) => d.code))];
  // A registry error blocks a promotion that nothing else blocks: say that it did.
  if (run.registryErrors > 0) codes.push(`the registry has ${String(run.registryErrors)} error(s)`);
  return codes;
}

/** Reads the bytes of a process file, or `undefined` when it cannot be read now. */
async function processBytes(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readBytes(path);
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

/**
 * Runs the gate on `request` and gathers what an approval names. A process file that cannot be
 * read now is left out (it reads as removed); any other input outside the root, or unreadable,
 * is a `UsageError`.
 */
export async function gatherApproval(request: GatherRequest, io: CliIo): Promise<Gathered> {
  const { root, cwd } = request;
  // Named before the run: an input outside the repository cannot be named, so nothing is
  // checked, and nothing an approval records (it is untrusted until verified) reaches outside.
  for (const path of request.paths) subjectName(root, cwd, path);
  for (const folder of request.registryFolders ?? []) subjectName(root, cwd, folder);
  if (typeof request.config === "string") subjectName(root, cwd, request.config);
  const options: BatchCliOptions = {
    format: "text",
    ...(request.config === undefined ? {} : { config: request.config }),
    ...(request.registry === undefined ? {} : { registry: request.registry }),
  };
  const run = await runGatePipeline(request.paths, options, io, {
    cwd,
    ...(request.registryFolders === undefined ? {} : { registry: request.registryFolders }),
  });
  const { settings, context } = run;
  // A path the walk passed over unread (a FIFO, a broken link) may hold a process: an approval
  // records, and verify compares, every file of its paths, so neither stands without it.
  const passed = run.skipped.find((s) => s.unread);
  if (passed !== undefined) {
    throw new UsageError(
      `'${passed.path}' was passed over: ${passed.reason}; an approval reads every file of its paths, so none can be approved or verified with it there`,
    );
  }
  // Said on stderr as they come: an error of the registry blocks every decision checked with it.
  for (const file of run.registry) {
    for (const d of file.diagnostics) {
      if (d.severity === "error")
        io.stderr(`agentflow: the registry: ${file.file}: ${d.message} (${d.code})\n`);
    }
  }
  const subjects = new Subjects(root, cwd);
  const registry = context.registry;
  const nameOf = (ref: string, kind: "workflow" | "tool" | "delegate"): string | null => {
    const file = registry?.sourceOf(ref, kind === "tool" ? "tool" : "workflow");
    return file === undefined ? null : subjects.add(file, kind === "tool" ? "tool" : "workflow");
  };
  const conflicts = conflictFiles(run);
  const processes: ProcessApproval[] = [];
  const processFiles: StatementFile[] = [];
  const blocked: BlockedProcess[] = [];
  let unreadable = 0;
  const unhashed: string[] = [];
  for (const decided of run.decided) {
    if (!decided.readable) unreadable += 1;
    const bytes = await processBytes(decided.checked.file);
    if (bytes === undefined) {
      unhashed.push(decided.checked.file);
      continue;
    }
    const name = subjectName(root, cwd, decided.checked.file);
    processFiles.push({ name, kind: "process", bytes });
    const { decision } = decided;
    processes.push(processApproval(name, decided.processIds, decision, nameOf));
    for (const lookup of decision.agentTasks.flatMap(lookupsOf)) {
      for (const file of conflicts.get(lookup) ?? []) {
        subjects.add(file, lookup.startsWith("tool ") ? "tool" : "workflow");
      }
    }
    if (decided.readable && !decision.allowed) {
      blocked.push({ name, codes: blockingCodes(run, decision.blocking) });
    }
  }
  const config =
    settings.configFile === undefined ? null : subjects.add(settings.configFile, "config");
  // Every config the config extends decides the run as much as the config itself (its rules, its
  // ignores, its registry): each is a subject, by its bytes.
  for (const link of settings.configChain) subjects.add(link.file, "config");
  for (const pack of settings.packs ?? []) subjects.add(pack.source, "policy");
  // Every file of a plugin's module graph: a helper it imports is as much its code as its entry.
  for (const plugin of settings.plugins ?? []) {
    for (const file of plugin.files) subjects.add(file, "plugin");
  }
  const inputs: ApprovalInputs = {
    paths: request.paths.map((p) => subjectName(root, cwd, p)),
    registry: settings.registry.map((r) => subjectName(root, cwd, r)),
    config,
  };
  const files = [...processFiles, ...(await subjects.files())];
  const processNames = new Set(processFiles.map((f) => f.name));
  const clash = files.find((f) => f.kind !== "process" && processNames.has(f.name));
  if (clash !== undefined) {
    throw new UsageError(
      `${clash.name} is read both as a process and as ${clash.kind}; an approval names each file once`,
    );
  }
  const { digest, preset } = run.provenance.ruleSet;
  return {
    root,
    run,
    input: { files, processes, inputs, ruleSet: { digest, preset }, version: packageVersion() },
    unreadable,
    unhashed,
    blocked,
  };
}
