import type { Diagnostic } from "../model/index.js";

/** What a check found in one file: the document's identity and its diagnostics. */
export interface CheckedFile {
  /** The path as the user gave it (relative paths stay relative, for stable output). */
  readonly file: string;
  /** The document kind recognised, or `unknown` when the file could not be read as one. */
  readonly kind: "AgentWorkflow" | "ToolContract" | "PolicyPack" | "BpmnProcess" | "unknown";
  /** The source format when the document was imported (e.g. `langgraph-subset`). */
  readonly format?: string;
  readonly id?: string;
  readonly version?: string;
  /** `sha256:<hex>` of the canonical JSON of the document that was checked. */
  readonly contentHash?: string;
  readonly diagnostics: readonly Diagnostic[];
}
