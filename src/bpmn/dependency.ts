/**
 * What an agent task depends on beyond its own workflow — the tools it calls and the delegates
 * it hands work to — and how a lookup of one can fail. A failed lookup stays a dependency: its
 * effect is unknown, and unknown is read as the most demanding effect, never as none.
 */
import type { ToolAuthorization, Diagnostic, ToolContract, ToolEffect } from "../model/index.js";
import { parseToolContract } from "../model/index.js";
import type { LookupAnswer } from "./lookup.js";
import { isUnreadable, UNREADABLE } from "./lookup.js";
import type { RegistryConflict } from "./registry-conflict.js";
import { effectNeedsGate } from "../autonomy/index.js";

/**
 * Why a lookup gave no usable document: `missing` (none, or no resolver), `failed` (it threw,
 * rejected or timed out), `invalid` (not a valid document of the kind asked for), `mismatch`
 * (a document for another `id@version`), `conflict` (the registry holds two for the ref),
 * `unmapped` (a tool read from a Camunda agent whose effect no attribute, mapping or default
 * gives).
 */
export type LookupFailure = "missing" | "failed" | "invalid" | "mismatch" | "conflict" | "unmapped";

/** A lookup that failed, and what failed, in words. */
export interface FailedLookup {
  readonly reason: LookupFailure;
  readonly detail: string;
}

/** A tool the agent's workflow (or a delegate) calls, or a delegate it hands work to. */
export interface Dependency {
  readonly kind: "tool" | "delegate";
  /** The canonical `id@x.y.z` asked for. */
  readonly ref: string;
  /** The tool node that calls it, or the node whose delegate edge names it. */
  readonly nodeId: string;
  /** The delegate workflow this dependency belongs to, when not the agent's own workflow. */
  readonly via?: string;
  /**
   * `sha256:` of the canonical document used; absent when the lookup failed. For a tool read
   * from a Camunda agent, of what was read for the tool element (known or not).
   */
  readonly contentHash?: string;
  /** A resolved tool's effect. */
  readonly effect?: ToolEffect;
  /** A resolved tool's authorization, as its contract states it. */
  readonly authorization?: ToolAuthorization;
  /**
   * For a tool read from a Camunda agent: where its effect came from (`btv:toolEffect`, the
   * `toolEffects` mapping, agentflow's default, or unknown).
   */
  readonly effectSource?: "btv" | "config" | "default" | "unknown";
  /** What the effect matched: `btv:toolEffect`, or a template id or job type with its selector. */
  readonly effectKey?: string;
  /** Why no document could be used: the dependency is then read as needing a gate. */
  readonly failure?: FailedLookup;
}

/**
 * True when the dependency needs an approval gate: a tool whose effect cannot be taken back, or
 * anything whose lookup failed (its effect is unknown, so the most demanding is assumed).
 *
 * @example
 * ```ts
 * import { needsGate } from "agentflow/bpmn";
 *
 * needsGate({ kind: "tool", ref: "tool:pay@1.0.0", nodeId: "pay", effect: "external-commitment" }); // → true
 * needsGate({ kind: "tool", ref: "tool:search@1.0.0", nodeId: "find", effect: "read" }); // → false
 * const missing = { reason: "missing", detail: "no tool contract tool:x@1.0.0 was found" } as const;
 * needsGate({ kind: "tool", ref: "tool:x@1.0.0", nodeId: "x", failure: missing }); // → true
 * ```
 */
export function needsGate(dependency: Dependency): boolean {
  if (dependency.failure !== undefined) return true;
  return dependency.effect !== undefined && effectNeedsGate(dependency.effect);
}

/** `id@version` of a document-like value, when it has both. */
function identity(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, version } = value as { readonly id?: unknown; readonly version?: unknown };
  return typeof id === "string" && typeof version === "string" ? `${id}@${version}` : undefined;
}

/** The answer's document, or why none can be used; a conflict is also pushed to `conflicts`. */
export function usable(
  answer: LookupAnswer,
  ref: string,
  what: string,
  conflicts: RegistryConflict[],
): { readonly value: unknown } | { readonly failure: FailedLookup } {
  if (!answer.ok) {
    if (answer.conflict !== undefined) {
      conflicts.push(answer.conflict);
      return { failure: { reason: "conflict", detail: answer.error } };
    }
    return { failure: { reason: "failed", detail: `the registry failed: ${answer.error}` } };
  }
  if (answer.value === undefined || answer.value === null) {
    return { failure: { reason: "missing", detail: `no ${what} ${ref} was found` } };
  }
  const value = answer.value;
  // Read once, as data, where it was asked (lookup.ts): a getter that throws is said here, on
  // the element, not as an evaluation that fails as a whole.
  if (isUnreadable(value)) {
    const detail = `the registry's answer for ${ref} could not be read: ${value[UNREADABLE]}`;
    return { failure: { reason: "invalid", detail } };
  }
  const own = identity(value);
  if (own !== undefined && own !== ref) {
    return { failure: { reason: "mismatch", detail: `the registry returned ${own} for ${ref}` } };
  }
  return { value };
}

/** The first error's message, for a one-line reason. */
export function firstError(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.find((d) => d.severity === "error")?.message ?? "unreadable";
}

/** A tool contract from an answer, or why there is none. */
export function toolFrom(
  answer: LookupAnswer,
  ref: string,
  conflicts: RegistryConflict[],
): { readonly contract: ToolContract } | { readonly failure: FailedLookup } {
  const got = usable(answer, ref, "tool contract", conflicts);
  if ("failure" in got) return got;
  const parsed = parseToolContract(got.value);
  if (parsed.contract === undefined) {
    const detail = `the registry's answer for ${ref} is not a valid tool contract (${firstError(parsed.diagnostics)})`;
    return { failure: { reason: "invalid", detail } };
  }
  return { contract: parsed.contract };
}
