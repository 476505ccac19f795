/**
 * A registry that holds two documents with different content for one `id@version` cannot say
 * which of them a reference means, and an impostor could stand in for the reviewed agent. A
 * resolver says so by throwing a {@link RegistryConflictError}; the gate blocks every task whose
 * workflow, tools or delegates resolve through that reference (`AGENT_REF_CONFLICT`).
 */

/** One document a registry holds for a reference: where it came from and its content hash. */
export interface RegistryDefinition {
  /** A file path for a folder registry; any label a host's registry knows its documents by. */
  readonly source: string;
  /** `contentHash` of the document (`sha256:…`, of its canonical JSON). */
  readonly contentHash: string;
}

/** A reference a registry holds two or more different documents for. */
export interface RegistryConflict {
  readonly ref: string;
  readonly definitions: readonly RegistryDefinition[];
}

/**
 * An embedded `btv:agentWorkflowSnapshot` as a definition of its ref: a task that carries two
 * different snapshots of one `id@version` is a conflict like two registry files. `path` is the
 * snapshot element's pointer relative to the task.
 */
export function snapshotDefinition(path: string, contentHash: string): RegistryDefinition {
  return { source: `btv:agentWorkflowSnapshot at ${path}`, contentHash };
}

/**
 * The definitions as a reader sees them: `'a.json' (sha256:…) and 'b.json' (sha256:…)`.
 *
 * @example
 * ```ts
 * import { describeDefinitions } from "agentflow/bpmn";
 *
 * const text = describeDefinitions([
 *   { source: "a.json", contentHash: "sha256:aa" },
 *   { source: "b.json", contentHash: "sha256:bb" },
 * ]);
 * text; // → "'a.json' (sha256:aa) and 'b.json' (sha256:bb)"
 * ```
 */
export function describeDefinitions(definitions: readonly RegistryDefinition[]): string {
  const each = definitions.map((d) => `'${d.source}' (${d.contentHash})`);
  const last = each.pop();
  return each.length === 0 ? (last ?? "") : `${each.join(", ")} and ${last ?? ""}`;
}

/**
 * Thrown by a resolver for a reference its registry holds different documents for.
 *
 * @example
 * ```ts
 * import { RegistryConflictError } from "agentflow/bpmn";
 *
 * const error = new RegistryConflictError("agnt-rsch@2.1.0", [
 *   { source: "a.json", contentHash: "sha256:aa" },
 *   { source: "b.json", contentHash: "sha256:bb" },
 * ]);
 * error.message;
 * // → "agnt-rsch@2.1.0 is defined with different content in 'a.json' (sha256:aa) and 'b.json' (sha256:bb)"
 * ```
 */
export class RegistryConflictError extends Error implements RegistryConflict {
  override readonly name = "RegistryConflictError";
  readonly ref: string;
  readonly definitions: readonly RegistryDefinition[];

  constructor(ref: string, definitions: readonly RegistryDefinition[]) {
    super(`${ref} is defined with different content in ${describeDefinitions(definitions)}`);
    this.ref = ref;
    this.definitions = definitions;
  }
}

function isDefinition(value: unknown): value is RegistryDefinition {
  if (typeof value !== "object" || value === null) return false;
  const { source, contentHash } = value as Partial<Record<string, unknown>>;
  return typeof source === "string" && typeof contentHash === "string";
}

/**
 * The conflict a resolver's error reports, if it is one. Read by shape, not `instanceof`, so an
 * error from another copy of this package (a host bundling its own) counts as well.
 *
 * @example
 * ```ts
 * import { conflictOf, RegistryConflictError } from "agentflow/bpmn";
 *
 * const definitions = [
 *   { source: "a.json", contentHash: "sha256:aa" },
 *   { source: "b.json", contentHash: "sha256:bb" },
 * ];
 * conflictOf(new RegistryConflictError("tool:pay@1.0.0", definitions));
 * // → { ref: "tool:pay@1.0.0", definitions }
 * conflictOf(new Error("registry offline")); // → undefined
 * ```
 */
export function conflictOf(error: unknown): RegistryConflict | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, ref, definitions } = error as Partial<Record<string, unknown>>;
  if (name !== "RegistryConflictError" || typeof ref !== "string") return undefined;
  if (!Array.isArray(definitions) || !definitions.every(isDefinition)) return undefined;
  return {
    ref,
    definitions: definitions.map(({ source, contentHash }) => ({ source, contentHash })),
  };
}
