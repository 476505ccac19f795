/**
 * The declared losses of every import and export: one builder per warning code, so that each
 * format words its warnings but never builds their shape itself, and the collector that keeps an
 * export's warnings to at most {@link WARNINGS_LIMIT} of each kind. A workflow of 100,000 nodes
 * loses the same field at every node: an export declared 250,000 warnings that no one reads one by
 * one, and building and keeping them was more than half of its time. Past the limit a kind's
 * warnings are counted, not built: where the first of them would have been, one warning says how
 * many were left out and quotes the first (docs/interop/README.md).
 */
import type { InteropWarning } from "./types.js";
import { FIELD_DROPPED, HEURISTIC, NOT_EXPORTABLE, VALUE_NORMALIZED } from "./types.js";

/** Structured values of a warning (keys, node ids, assumed values). */
type Data = Record<string, unknown>;

/** A {@link FIELD_DROPPED} warning: a source field or construct the import ignored. */
export function dropped(path: string, message: string, data: Data = {}): InteropWarning {
  return { code: FIELD_DROPPED, message, path, data };
}

/** A {@link HEURISTIC} warning: a value filled in, or a construct read in a documented, lossy way. */
export function guessed(path: string, message: string, data: Data = {}): InteropWarning {
  return { code: HEURISTIC, message, path, data };
}

/** A {@link VALUE_NORMALIZED} warning: a value (a version, a name) rewritten into its canonical form. */
export function normalized(path: string, message: string, data: Data = {}): InteropWarning {
  return { code: VALUE_NORMALIZED, message, path, data };
}

/** A {@link NOT_EXPORTABLE} warning: a workflow construct the target format cannot hold. */
export function omitted(path: string, message: string, data: Data = {}): InteropWarning {
  return { code: NOT_EXPORTABLE, message, path, data };
}

/**
 * The most warnings of one kind an export lists; one more warning counts the rest of that kind
 * (`data.unlisted`) and quotes the first of them. Imports list every warning.
 */
export const WARNINGS_LIMIT = 1_000;

/** Where a kind's note stands in the list, what it stands for, and how many it counts. */
interface Unlisted {
  readonly index: number;
  readonly first: InteropWarning;
  count: number;
}

/**
 * Collects an export's warnings in order. A class because the exports share one collector
 * through all their parts, and only it may append.
 */
export class ExportWarnings {
  readonly #list: InteropWarning[] = [];
  readonly #seen = new Map<string, number>();
  readonly #unlisted = new Map<string, Unlisted>();

  /**
   * Declares one loss of `kind` (a name for the construct lost, the same at each place it is
   * lost). `make` builds the warning; it is called only while the kind is under the limit, and
   * once more for the first warning past it.
   */
  add(kind: string, make: () => InteropWarning): void {
    const seen = (this.#seen.get(kind) ?? 0) + 1;
    this.#seen.set(kind, seen);
    if (seen <= WARNINGS_LIMIT) {
      this.#list.push(make());
      return;
    }
    const unlisted = this.#unlisted.get(kind);
    if (unlisted !== undefined) {
      unlisted.count += 1;
      return;
    }
    const first = make();
    this.#unlisted.set(kind, { index: this.#list.length, first, count: 1 });
    this.#list.push(first);
  }

  /** The warnings in order, each kind past the limit ending with the note that counts the rest. */
  list(): InteropWarning[] {
    const out = [...this.#list];
    for (const { index, first, count } of this.#unlisted.values()) {
      out[index] = {
        code: first.code,
        message: `… and ${count.toLocaleString("en-US")} more warning(s) of this kind, not listed: an export lists at most ${WARNINGS_LIMIT.toLocaleString("en-US")} of one kind. The first of them: ${first.message}`,
        path: first.path,
        data: { ...first.data, unlisted: count, limit: WARNINGS_LIMIT },
      };
    }
    return out;
  }
}
