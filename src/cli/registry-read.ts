/**
 * Reading one file of a folder registry: what it defines (a workflow, a tool contract, or
 * nothing) and what is wrong with it, as plain data — what `--cache` keeps of a registry file,
 * by the sha256 of its text, so that a run over an unchanged registry reads its files but parses
 * none of them. A document is parsed from its text only when a check asks for it.
 */
import { extname, resolve } from "node:path";
import { detectFormat } from "../interop/index.js";
import type { AgentWorkflow, Diagnostic, ToolContract } from "../model/index.js";
import { contentHash, parseToolContractText, parseWorkflowText, sha256 } from "../model/index.js";
import { DOCUMENT_EXTENSIONS } from "./files.js";
import { readForeign } from "./registry-foreign.js";

/** What one registry file defines, and its problems, as plain data. */
export interface RegistryFileSummary {
  /** What it defines: a workflow (its own or imported), a tool contract, or nothing usable. */
  readonly kind: "workflow" | "tool" | "none";
  readonly id?: string;
  readonly version?: string;
  /** `sha256:` of the document it defines (what a lookup of its ref answers). */
  readonly contentHash?: string;
  /** What reading it found (not a redefinition, which depends on the other files). */
  readonly problems: readonly Diagnostic[];
}

/** A registry file's summary, by the sha256 of the text it was read from. */
export interface RegistryIndexEntry {
  readonly sha256: string;
  readonly summary: RegistryFileSummary;
}

/**
 * Summaries from an earlier run (`previous`, by absolute path) and those of this run (`next`,
 * filled as files are read): a file whose text hashes as before is not parsed again.
 */
export interface RegistryIndex {
  readonly previous: ReadonlyMap<string, RegistryIndexEntry>;
  readonly next: Map<string, RegistryIndexEntry>;
}

type Document = AgentWorkflow | ToolContract;

/** Parses a registry file's text: its summary and the document it defines, if any. */
function parseRegistryText(
  file: string,
  text: string,
): { summary: RegistryFileSummary; doc?: Document } {
  const format = DOCUMENT_EXTENSIONS[extname(file)];
  const options = format === undefined ? {} : { format };
  const asWorkflow = parseWorkflowText(text, options);
  const kind = (asWorkflow.value as { kind?: unknown } | undefined)?.kind;
  const defines = (k: "workflow" | "tool", doc: Document, problems: readonly Diagnostic[]) => ({
    summary: { kind: k, id: doc.id, version: doc.version, contentHash: contentHash(doc), problems },
    doc,
  });
  if (kind === "ToolContract") {
    const parsed = parseToolContractText(text, options);
    return parsed.contract === undefined
      ? { summary: { kind: "none", problems: parsed.diagnostics } }
      : defines("tool", parsed.contract, []);
  }
  // A document of another format (no `kind`) is read through its importer.
  const foreign = kind === undefined ? detectFormat(asWorkflow.value) : undefined;
  if (foreign !== undefined) {
    const read = readForeign(file, text, asWorkflow.format, asWorkflow.value, foreign);
    return read.workflow === undefined
      ? { summary: { kind: "none", problems: read.diagnostics } }
      : defines("workflow", read.workflow, read.diagnostics);
  }
  if (asWorkflow.workflow === undefined) {
    return { summary: { kind: "none", problems: asWorkflow.diagnostics } };
  }
  return defines("workflow", asWorkflow.workflow, []);
}

/**
 * A registry file's summary and a way to its document: parsed now without an index; with one,
 * taken from the index when the text hashes as it did, the document then parsed (from that same
 * text) only when asked for.
 */
export function readRegistryFile(
  file: string,
  text: string,
  index: RegistryIndex | undefined,
): { summary: RegistryFileSummary; load: () => Document } {
  const defined = (doc: Document | undefined): Document => {
    if (doc === undefined) throw new Error(`${file} defines no document any more`);
    return doc;
  };
  if (index === undefined) {
    const { summary, doc } = parseRegistryText(file, text);
    return { summary, load: () => defined(doc) };
  }
  const hash = sha256(text);
  const path = resolve(file);
  const known = index.previous.get(path);
  if (known?.sha256 === hash) {
    index.next.set(path, known);
    // Parsed from the text that was hashed, so what was indexed is what is used.
    const load = (): Document => defined(parseRegistryText(file, text).doc);
    return { summary: known.summary, load };
  }
  const { summary, doc } = parseRegistryText(file, text);
  index.next.set(path, { sha256: hash, summary });
  return { summary, load: () => defined(doc) };
}
