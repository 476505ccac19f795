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
import { HEURISTIC, ImportError } from "../interop/index.js";
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
const STATES_IDENTITY: Readonly<Record<string, (warnings: readonly InteropWarning[]) => boolean>> =
  {
    // `id` and `version` are required fields of the subset.
    "langgraph-subset": () => true,
    // The id is the workflow's name; the version is `workflow.config.version` when it is one.
    openagentflow: (warnings) =>
      !warnings.some((w) => w.code === HEURISTIC && w.path === "/workflow/config/version"),
  };

/** A file name's last dotted part made of letters and dashes only: the format's word. */
const FORMAT_WORD = /\.[A-Za-z][A-Za-z-]*$/;

/**
 * The `id@version` a file name gives: `<id>@<version>` before the document extension, and
 * before one format word (`.langgraph`, `.agentos`, `.oaf`) when there is one. `undefined` when
 * the name gives no valid one.
 */
export function identityFromFileName(
  file: string,
): { readonly id: string; readonly version: string } | undefined {
  const name = basename(file, extname(file));
  const candidates = FORMAT_WORD.test(name) ? [name.replace(FORMAT_WORD, ""), name] : [name];
  for (const candidate of candidates) {
    if (!candidate.includes("@")) continue;
    const parsed = parseRef(candidate);
    if (parsed.ok) return { id: parsed.ref.id, version: parsed.ref.version };
  }
  return undefined;
}

function unidentified(format: Format): Diagnostic {
  return {
    code: "REGISTRY_UNIDENTIFIED",
    severity: "error",
    message: `this ${format.title} document states no id@version of its own (its importer would synthesise one), and its file name gives none; name the file <id>@<version>.<ext> (e.g. agnt-research@1.2.0.json) so that a reference can name it — until then no reference resolves to it`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { format: format.id },
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
  const named = identityFromFileName(file);
  if (STATES_IDENTITY[format.id]?.(warnings) === true) {
    const stated = `${workflow.id}@${workflow.version}`;
    const label = named === undefined ? undefined : `${named.id}@${named.version}`;
    const mismatch =
      label === undefined || label === stated ? [] : [nameMismatch(stated, label, format)];
    return { workflow, diagnostics: [...declared, ...mismatch] };
  }
  if (named === undefined) {
    return { workflow: undefined, diagnostics: [...declared, unidentified(format)] };
  }
  return { workflow: { ...workflow, id: named.id, version: named.version }, diagnostics: declared };
}
