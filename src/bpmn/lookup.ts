/**
 * The host's lookups, guarded once per evaluation. A verdict must rest on one answer per ref:
 * the workflow rules and the gate ask the same guarded lookup, so a registry that answers
 * differently on a second call cannot show the validator one document and the gate another.
 * An async lookup that neither resolves nor rejects within the timeout, or that is still
 * pending when the caller's signal aborts, fails: a check never hangs on a registry, and a
 * failed lookup is read as the most demanding case by the rules (fail closed).
 */
import { jsonCopy } from "../simulate/internal.js";
import { conflictOf } from "./registry-conflict.js";
import type { RegistryConflict } from "./registry-conflict.js";

/** What a resolver is given beside the ref: a signal to stop a fetch the check gave up on. */
export interface LookupContext {
  readonly signal: AbortSignal;
}

/** A host's lookup of `id@version`: the document, `undefined` when unknown, or a promise. */
export type HostResolver = (ref: string, context?: LookupContext) => unknown;

/** How long async lookups may take, unless `lookupTimeoutMs` says otherwise. */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 30_000;

/** Bounds on async lookups. */
export interface LookupLimits {
  /** Aborting it fails every lookup still pending. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Milliseconds a lookup may take ({@link DEFAULT_LOOKUP_TIMEOUT_MS} by default); `0` or
   * `Infinity` waits without a bound (the signal still applies).
   */
  readonly timeoutMs?: number | undefined;
}

/** A driver's answer to a lookup: the value, or why the resolver gave none. */
export type LookupAnswer =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: string;
      /** When the resolver failed because its registry holds different documents for the ref. */
      readonly conflict?: RegistryConflict;
    };

/** What a thrown value says, whatever it is: one that cannot be printed still fails the lookup. */
export function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "the resolver failed with a value that cannot be printed";
  }
}

/** A thrown or rejected value as a failed {@link LookupAnswer}. */
export function failedAnswer(error: unknown): LookupAnswer {
  const message = errorText(error);
  let conflict: RegistryConflict | undefined;
  try {
    conflict = conflictOf(error);
  } catch {
    conflict = undefined;
  }
  return conflict === undefined
    ? { ok: false, error: message }
    : { ok: false, error: message, conflict };
}

/** The key of an answer that could not be read as data, holding why. */
export const UNREADABLE: unique symbol = Symbol("an answer that could not be read");

/** An answer that could not be read as data: a getter that throws, a cycle, a BigInt. */
export interface UnreadableAnswer {
  readonly [UNREADABLE]: string;
}

/** Whether `value` is an {@link UnreadableAnswer}. */
export function isUnreadable(value: unknown): value is UnreadableAnswer {
  return typeof value === "object" && value !== null && UNREADABLE in value;
}

/**
 * The host's answer read once, as data: every later reader (the workflow rules, the gate) gets
 * the same copy, so a getter that throws on a second read, or answers differently, cannot make
 * what was checked differ from what was judged. What cannot be read is an
 * {@link UnreadableAnswer}, which the gate reports as an invalid answer on the element.
 */
function asData(value: unknown): unknown {
  // A promise from a synchronous lookup is the driver's to refuse (a TypeError), not data.
  if (typeof (value as { then?: unknown } | null)?.then === "function") return value;
  try {
    return jsonCopy(value);
  } catch (error) {
    return { [UNREADABLE]: errorText(error) } satisfies UnreadableAnswer;
  }
}

type Memo = { readonly ok: true; readonly value: unknown } | { readonly ok: false; error: unknown };

/** `fn` asked once per ref; a throw is remembered and thrown again to every later caller. */
export function onceSync(fn: HostResolver | undefined): HostResolver | undefined {
  if (fn === undefined) return undefined;
  const memo = new Map<string, Memo>();
  return (ref) => {
    let entry = memo.get(ref);
    if (entry === undefined) {
      try {
        entry = { ok: true, value: asData(fn(ref)) };
      } catch (error) {
        entry = { ok: false, error };
      }
      memo.set(ref, entry);
    }
    if (!entry.ok) throw entry.error;
    return entry.value;
  };
}

function abortText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  const detail =
    reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  return detail === "" ? "the check was aborted" : `the check was aborted (${detail})`;
}

/** One lookup bounded by the limits; the resolver's own signal aborts when the lookup fails. */
function bounded(fn: HostResolver, ref: string, limits: LookupLimits): Promise<unknown> {
  const controller = new AbortController();
  const outer = limits.signal;
  const ms = limits.timeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    };
    const fail = (why: string): void => {
      done();
      controller.abort(new Error(why));
      reject(new Error(why));
    };
    function onAbort(): void {
      if (outer !== undefined) fail(abortText(outer));
    }
    if (outer?.aborted === true) {
      fail(abortText(outer));
      return;
    }
    outer?.addEventListener("abort", onAbort, { once: true });
    // A timer that keeps the process alive: an unref'd one would let Node exit with the
    // verdict never written, which a CI job reads as success.
    if (ms > 0 && Number.isFinite(ms)) {
      timer = setTimeout(() => {
        fail(`no answer within ${String(ms)} ms`);
      }, ms);
    }
    Promise.resolve()
      .then(() => fn(ref, { signal: controller.signal }))
      .then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error instanceof Error ? error : new Error(errorText(error)));
        },
      );
  });
}

/** `fn` asked once per ref, each lookup bounded by `limits`; always returns a promise. */
export function onceAsync(
  fn: HostResolver | undefined,
  limits: LookupLimits,
): ((ref: string) => Promise<unknown>) | undefined {
  if (fn === undefined) return undefined;
  const memo = new Map<string, Promise<unknown>>();
  return (ref) => {
    let pending = memo.get(ref);
    if (pending === undefined) {
      pending = bounded(fn, ref, limits).then(asData);
      memo.set(ref, pending);
    }
    return pending;
  };
}
