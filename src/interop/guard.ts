/**
 * The one wrapper every importer puts around its work: an `ImportError` passes through, anything
 * else (a bug, an input no check foresaw) becomes the format's own `ImportError` at the document
 * root, so callers need a single `catch` branch and never see a raw exception.
 */
import type { ImportResult } from "./types.js";
import { ImportError } from "./types.js";

/** What a format's error class is built from when an unexpected failure is wrapped. */
export interface UnexpectedFailure {
  readonly path: "";
  readonly reason: string;
  readonly cause: unknown;
}

/** Runs `run`, turning any non-ImportError into `wrap(...)` (the format's ImportError). */
export function guardImport(
  run: () => ImportResult,
  wrap: (failure: UnexpectedFailure) => ImportError,
): ImportResult {
  try {
    return run();
  } catch (error) {
    if (error instanceof ImportError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw wrap({ path: "", reason: `unexpected failure: ${detail}`, cause: error });
  }
}
