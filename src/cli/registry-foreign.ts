/**
 * Documents of other formats in a folder registry (LangGraph JSON, OpenAgentFlow IR, AgentOS
 * graph…): the agent an external agent or an A2A client names is often kept as the export its
 * framework writes. Such a document is read through its importer, and indexed by an `id@version`
 * that must name it for sure: the document's own when it states one, else its file name's
 * (`agnt-research@1.2.0.langgraph.json`), else none — and a document no one can name cannot be
 * resolved, which is an error on its file (fail closed). `docs/registry.md` states the rule.
 */
import { basename, extname } from "node:path";
import type { Format, InteropWarning } from "../interop/index.js";
import { FORMATS, HEURISTIC, ImportError } from "../interop/index.js";
import type { AgentWorkflow, Diagnostic, TextFormat } from "../model/index.js";
import { parseRef, WORKFLOW_TARGET, withLocations } from "../model/index.js";
import { importDiagnostics } from "./imported.js";

/** What reading one foreign document gave: the workflow to index (if any) and what to report. */
export interface ForeignRead {
  /** The imported workflow, carrying the `id@version` it is indexed by; absent when unusable. */
  readonly workflow: AgentWorkflow | undefined;
  /** The import's declared losses (warnings), and why the file is not indexed (errors). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The formats whose documents state their own `id@version`, and how to tell from the import's
 * declared guesses. Every other format (a LangGraph drawable graph or langgraph-gen spec, an
 * AgentOS graph, an agent2model chart) has no version of its own: its importer synthesises one,
 * which names nothing, so such a document is named by its file. A format added later is named by
 * its file until it is listed here (fail closed).
 */
/** A declared loss as the import gave it, or as a diagnostic with its code and path kept. */
type Declared = Pick<InteropWarning, "code" | "path">;

const STATES_IDENTITY: Readonly<Record<string, (warnings: readonly Declared[]) => boolean>> = {
  // `id` and `version` are required fields of the subset.
  "langgraph-subset": () => true,
  // The id is the workflow's name; the version is `workflow.config.version` when it is one.
  openagentflow: (warnings) =>
    !warnings.some((w) => w.code === HEURISTIC && w.path === "/workflow/config/version"),
};

/**
 * Whether a document imported from `format` with `warnings` states its own `id@version`; if not,
 * its importer made them up, and they name no document (a registry names it by its file; a
 * `workflow` waiver does not match it, docs/policies.md).
 */
export function statesIdentity(format: string, warnings: readonly Declared[]): boolean {
  return STATES_IDENTITY[format]?.(warnings) === true;
}

/** The format ids, each a format word as it is, digits and all (`agent2model`). */
const FORMAT_IDS: ReadonlySet<string> = new Set(FORMATS.map((format) => format.id.toLowerCase()));

/** A word of letters and dashes (`.langgraph`, `.oaf`, `.copy`): a format word too. */
const WORD = /^[A-Za-z][A-Za-z-]*$/;

/** A file name's last dotted part when it is a format word: a format's id, or letters and dashes. */
function formatWord(name: string): string | undefined {
  const word = name.slice(name.lastIndexOf(".") + 1);
  if (word === name) return undefined;
  return WORD.test(word) || FORMAT_IDS.has(word.toLowerCase()) ? word : undefined;
}

/**
 * The `id@version` a file name gives, or why it gives none (the ref parser's reason for the name
 * without its format word, the name's reading a reference would need).
 */
function nameOf(
  file: string,
):
  | { readonly identity: { readonly id: string; readonly version: string } }
  | { readonly reason: string } {
  const name = basename(file, extname(file));
  const word = formatWord(name);
  const bare = word === undefined ? name : name.slice(0, -word.length - 1);
  const candidates = word === undefined ? [name] : [bare, name];
  for (const candidate of candidates) {
    const parsed = parseRef(candidate);
    if (parsed.ok) return { identity: { id: parsed.ref.id, version: parsed.ref.version } };
  }
  const first = parseRef(bare);
  return { reason: first.ok ? "" : first.message };
}

/**
 * The `id@version` a file name gives: `<id>@<version>` before the document extension, and
 * before one format word when there is one: a format's id (`.agent2model`, `.langgraph-gen`) or
 * a word of letters and dashes (`.langgraph`, `.agentos`, `.oaf`). `undefined` when the name
 * gives no valid one.
 */
export function identityFromFileName(
  file: string,
): { readonly id: string; readonly version: string } | undefined {
  const named = nameOf(file);
  return "identity" in named ? named.identity : undefined;
}

function unidentified(format: Format, file: string, reason: string): Diagnostic {
  const name = basename(file);
  const ext = extname(file);
  return {
    code: "REGISTRY_UNIDENTIFIED",
    severity: "error",
    message: `this ${format.title} document states no id@version of its own (its importer would synthesise one), and its file name ${name} gives none: ${reason}; name the file <id>@<version>.<ext>, or <id>@<version>.<format word>.<ext> with a format id or a word of letters and dashes as the format word (e.g. agnt-research@1.2.0${ext}, agnt-research@1.2.0.${format.id}${ext}), so that a reference can name it — until then no reference resolves to it`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { format: format.id, file: name, reason },
  };
}

function nameMismatch(stated: string, named: string, format: Format): Diagnostic {
  return {
    code: "REGISTRY_NAME_MISMATCH",
    severity: "warning",
    message: `the file is named ${named}, but the ${format.title} document states ${stated}; it is indexed as ${stated}, the document's own`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { format: format.id, stated, named },
  };
}

function importFailed(error: ImportError, format: Format): Diagnostic {
  return {
    // The code `check` gives the same failure (`IMPORT_FAILED` in check-file.ts).
    code: "IMPORT_FAILED",
    severity: "error",
    message: `cannot import as ${format.title}: ${error.message}; no reference resolves to it`,
    target:
      error.elementId === undefined
        ? { kind: "workflow" }
        : { kind: "node", nodeId: error.elementId },
    path: error.path,
    data: { format: format.id, reason: error.reason },
  };
}

/**
 * Imports a foreign document of a registry and decides the `id@version` it is indexed by. The
 * returned workflow is the imported one with that identity, so its content hash (the one the
 * gate shows and compares) is the hash of the imported workflow as indexed. Only
 * {@link ImportError} is caught: an importer throws nothing else.
 */
export function readForeign(
  file: string,
  text: string,
  textFormat: TextFormat,
  value: unknown,
  format: Format,
): ForeignRead {
  let imported;
  try {
    imported = format.import(value);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    return {
      workflow: undefined,
      diagnostics: withLocations(text, textFormat, [importFailed(error, format)]),
    };
  }
  const { workflow, warnings } = imported;
  const declared = importDiagnostics(text, textFormat, format.id, warnings);
  const read = nameOf(file);
  const named = "identity" in read ? read.identity : undefined;
  if (statesIdentity(format.id, warnings)) {
    const stated = `${workflow.id}@${workflow.version}`;
    const label = named === undefined ? undefined : `${named.id}@${named.version}`;
    const mismatch =
      label === undefined || label === stated ? [] : [nameMismatch(stated, label, format)];
    return { workflow, diagnostics: [...declared, ...mismatch] };
  }
  if ("reason" in read) {
    return {
      workflow: undefined,
      diagnostics: [...declared, unidentified(format, file, read.reason)],
    };
  }
  const { id, version } = read.identity;
  return { workflow: { ...workflow, id, version }, diagnostics: declared };
}
