/**
 * The contract every interop format implements (SPEC 6). What maps is listed field by field in
 * `docs/interop/<format>.md`; everything else is either declared as a warning or fails loudly
 * with an {@link ImportError}, so that no conversion is ever silently lossy.
 */
import type { AgentWorkflow } from "../model/index.js";

/** A field or construct of the source was ignored on import; the result stays valid without it. */
export const FIELD_DROPPED = "FIELD_DROPPED";
/** A value absent from the source was filled in by a documented rule, not read from the source. */
export const HEURISTIC = "HEURISTIC";
/** A value was rewritten into its canonical form (an abbreviated version `2` became `2.0.0`). */
export const VALUE_NORMALIZED = "VALUE_NORMALIZED";
/** A workflow field or construct has no form in the target format and was left out on export. */
export const NOT_EXPORTABLE = "NOT_EXPORTABLE";

/**
 * One declared loss or guess. Structured so that callers (a UI, a CI gate) can act on `code` and
 * `path` without parsing `message`.
 */
export interface InteropWarning {
  /** Stable code: {@link FIELD_DROPPED}, {@link HEURISTIC}, {@link NOT_EXPORTABLE}, ... */
  readonly code: string;
  /** One sentence for a person; quotes the key or element concerned. */
  readonly message: string;
  /**
   * JSON Pointer of what was dropped or guessed: into the SOURCE document on import, into the
   * workflow on export.
   */
  readonly path: string;
  /** Structured values (keys, node ids, assumed values) so that no caller parses the message. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** What an import returns: a workflow that passes `parseWorkflow`, and every declared loss. */
export interface ImportResult {
  readonly workflow: AgentWorkflow;
  readonly warnings: readonly InteropWarning[];
}

/** What an export returns: the foreign document, and every workflow construct it left out. */
export interface ExportResult<D> {
  readonly document: D;
  /**
   * What was left out, in order: at most `WARNINGS_LIMIT` (1,000) warnings of one kind, then one
   * that counts the rest of that kind (`data.unlisted`) and quotes the first of them.
   */
  readonly warnings: readonly InteropWarning[];
}

/** Constructor options of {@link ImportError}. */
export interface ImportErrorOptions {
  /** The {@link Format.id} of the importer that refused the document. */
  readonly format: string;
  /** JSON Pointer into the source document; `""` is the whole document. */
  readonly path: string;
  /** Why the construct cannot be mapped, in one sentence. */
  readonly reason: string;
  /** The id of the source element concerned (a node id), when there is one. */
  readonly elementId?: string;
  /** The unexpected error this one wraps, if any. */
  readonly cause?: unknown;
}

function locate(path: string, elementId: string | undefined): string {
  const where = path === "" ? "the document root" : path;
  return elementId === undefined ? where : `${where}, element '${elementId}'`;
}

/**
 * Thrown by an importer for a construct it must not convert (a node type with no agentflow
 * equivalent) and for a malformed document. It is the only error an importer ever throws: an
 * unexpected failure is wrapped in one, so callers need a single `catch` branch. A class because
 * it is thrown and told apart with `instanceof`.
 */
export class ImportError extends Error {
  /** The {@link Format.id} of the importer that refused the document. */
  readonly format: string;
  /** JSON Pointer into the source document; `""` is the whole document. */
  readonly path: string;
  /** The id of the source element concerned, when there is one. */
  declare readonly elementId?: string;
  /** Why the construct cannot be mapped, without the location prefix of `message`. */
  readonly reason: string;

  /** Builds the error; `message` repeats format, path and element for logs. */
  constructor(options: ImportErrorOptions) {
    super(
      `${options.format}: ${options.reason} (at ${locate(options.path, options.elementId)})`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ImportError";
    this.format = options.format;
    this.path = options.path;
    this.reason = options.reason;
    if (options.elementId !== undefined) this.elementId = options.elementId;
  }
}

/** A format's refusal: an {@link ImportError} of that format at `path`, naming `elementId`. */
export type Refuse = (path: string, reason: string, elementId?: string) => ImportError;

/**
 * The refusal of one format, so that every importer builds its errors the same way and one
 * class serves all of them: callers tell formats apart by {@link ImportError.format}.
 */
export function refusal(format: string): Refuse {
  return (path, reason, elementId) =>
    new ImportError(
      elementId === undefined ? { format, path, reason } : { format, path, reason, elementId },
    );
}

/**
 * One interop format. `detect` is cheap and total (never throws, whatever the value); `import`
 * throws only {@link ImportError}; `export` is absent for import-only formats and never throws.
 */
export interface Format<D = unknown> {
  /** Stable id, e.g. `"langgraph-subset"`. */
  readonly id: string;
  /** A name for people. */
  readonly title: string;
  /** Whether this format claims a decoded document. An AgentWorkflow is never claimed. */
  detect(doc: unknown): boolean;
  /** Converts a decoded document into a workflow, declaring every loss. */
  import(doc: unknown): ImportResult;
  /** Converts a workflow into the format's document, declaring every omission. */
  export?(wf: AgentWorkflow): ExportResult<D>;
}
