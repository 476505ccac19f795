/**
 * The embedded `btv:agentWorkflowSnapshot`s of an agent task, read when the registry does not
 * know its ref: each must hold a valid workflow of that `id@version`, and several must agree.
 */
import type { AgentWorkflow, WorkflowParseResult } from "../model/index.js";
import { contentHash } from "../model/index.js";
import type { AgentDeclaration, WorkflowSnapshot } from "./agents.js";
import type { RegistryConflict } from "./registry-conflict.js";
import { snapshotDefinition } from "./registry-conflict.js";
import type { ResolveRequest } from "./resolve-dependencies.js";

/** One embedded snapshot's workflow, or why it cannot stand in for `ref`. */
function* oneSnapshot(
  snapshot: WorkflowSnapshot,
  ref: string,
): Generator<ResolveRequest, { workflow?: AgentWorkflow; problem?: string }, unknown> {
  const parsed = (yield { kind: "snapshot", body: snapshot.body }) as WorkflowParseResult;
  const workflow = parsed.workflow;
  if (workflow === undefined) {
    const first = parsed.diagnostics.find((d) => d.severity === "error");
    return { problem: `the snapshot is not a valid workflow (${first?.message ?? "unreadable"})` };
  }
  const own = `${workflow.id}@${workflow.version}`;
  if (own !== ref) return { problem: `the snapshot is ${own}, not ${ref}` };
  if (snapshot.version !== undefined && snapshot.version !== workflow.version) {
    return { problem: `the snapshot is labelled version ${snapshot.version} but holds ${own}` };
  }
  return { workflow };
}

/**
 * The workflow the embedded snapshots give for `ref`. Several snapshots must each be usable and
 * hold the same content: two different ones are a conflict, as two registry files are (which
 * one stands in would depend on element order), pushed to `conflicts`; the task is unresolved.
 */
export function* snapshotWorkflow(
  declaration: AgentDeclaration,
  ref: string,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, { workflow?: AgentWorkflow; problem?: string }, unknown> {
  const snapshots =
    declaration.snapshots ?? (declaration.snapshot === undefined ? [] : [declaration.snapshot]);
  const read: { readonly workflow: AgentWorkflow; readonly path: string }[] = [];
  for (const snapshot of snapshots) {
    const got = yield* oneSnapshot(snapshot, ref);
    if (got.workflow === undefined) return got;
    read.push({ workflow: got.workflow, path: snapshot.path });
  }
  const first = read[0];
  if (first === undefined) return {};
  const definitions = read.map(({ workflow, path }) =>
    snapshotDefinition(path, contentHash(workflow)),
  );
  if (new Set(definitions.map((d) => d.contentHash)).size === 1)
    return { workflow: first.workflow };
  conflicts.push({ ref, definitions });
  return { problem: `the task embeds ${read.length} different snapshots of ${ref}` };
}
