/**
 * A registry read from a folder (Node only): every workflow and tool contract below it, indexed
 * by `id@version`, served as validation resolvers. Hosts may also ask by semver range
 * (`tool:search@^1.2.0`); references inside documents are always exact.
 */
import semver from "semver";
import type { AgentWorkflow, Diagnostic, ToolContract } from "../model/index.js";
import { parseRef, parseToolContractText, parseWorkflowText } from "../model/index.js";
import type { Resolvers } from "../validate/index.js";
import { collectFiles, DOCUMENT_EXTENSIONS, readText } from "./files.js";
import { extname } from "node:path";

/** Documents of one kind by id, then by version. */
type Shelf<T> = Map<string, Map<string, T>>;

/** A loaded registry. */
export interface FolderRegistry {
  readonly workflows: ReadonlyMap<string, ReadonlyMap<string, AgentWorkflow>>;
  readonly tools: ReadonlyMap<string, ReadonlyMap<string, ToolContract>>;
  /** Files that could not be loaded, and duplicate `id@version`s (the first file wins). */
  readonly problems: readonly {
    readonly file: string;
    readonly diagnostics: readonly Diagnostic[];
  }[];
  readonly resolvers: Resolvers;
  /** Resolves `id@version` or `id@<range>` to the highest matching version's document. */
  resolve(ref: string): AgentWorkflow | ToolContract | undefined;
}

function shelve<T extends { readonly id: string; readonly version: string }>(
  shelf: Shelf<T>,
  doc: T,
): boolean {
  let versions = shelf.get(doc.id);
  if (versions === undefined) {
    versions = new Map();
    shelf.set(doc.id, versions);
  }
  if (versions.has(doc.version)) return false;
  versions.set(doc.version, doc);
  return true;
}

function lookup<T>(shelf: Shelf<T>, ref: string): T | undefined {
  const exact = parseRef(ref);
  if (exact.ok) return shelf.get(exact.ref.id)?.get(exact.ref.version);
  const at = ref.lastIndexOf("@");
  if (at <= 0) return undefined;
  const versions = shelf.get(ref.slice(0, at));
  const range = semver.validRange(ref.slice(at + 1));
  if (versions === undefined || range === null) return undefined;
  const best = semver.maxSatisfying([...versions.keys()], range);
  return best === null ? undefined : versions.get(best);
}

function duplicate(file: string, ref: string): Diagnostic {
  return {
    code: "REGISTRY_DUPLICATE",
    severity: "warning",
    message: `${ref} is defined again in this file; the first definition is used`,
    target: { kind: "workflow" },
    path: "",
    data: { ref },
  };
}

/** Loads every `.json`/`.yaml`/`.yml` document below `dir` (sorted, so loading is deterministic). */
export async function loadFolderRegistry(dir: string): Promise<FolderRegistry> {
  const workflows: Shelf<AgentWorkflow> = new Map();
  const tools: Shelf<ToolContract> = new Map();
  const problems: { file: string; diagnostics: readonly Diagnostic[] }[] = [];
  for (const file of await collectFiles([dir])) {
    const text = await readText(file);
    const format = DOCUMENT_EXTENSIONS[extname(file)];
    const options = format === undefined ? {} : { format };
    const asWorkflow = parseWorkflowText(text, options);
    const kind = (asWorkflow.value as { kind?: unknown } | undefined)?.kind;
    if (kind === "ToolContract") {
      const parsed = parseToolContractText(text, options);
      if (parsed.contract === undefined) problems.push({ file, diagnostics: parsed.diagnostics });
      else if (!shelve(tools, parsed.contract)) {
        problems.push({
          file,
          diagnostics: [duplicate(file, `${parsed.contract.id}@${parsed.contract.version}`)],
        });
      }
    } else if (asWorkflow.workflow === undefined) {
      problems.push({ file, diagnostics: asWorkflow.diagnostics });
    } else if (!shelve(workflows, asWorkflow.workflow)) {
      problems.push({
        file,
        diagnostics: [duplicate(file, `${asWorkflow.workflow.id}@${asWorkflow.workflow.version}`)],
      });
    }
  }
  const resolve = (ref: string): AgentWorkflow | ToolContract | undefined =>
    lookup(tools, ref) ?? lookup(workflows, ref);
  return {
    workflows,
    tools,
    problems,
    resolve,
    resolvers: {
      resolveTool: (ref) => lookup(tools, ref),
      resolveDelegate: (ref) => lookup(workflows, ref),
    },
  };
}
