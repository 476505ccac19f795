/**
 * The diagnostics the CLI makes itself, about the files it was given rather than their content:
 * paths a walk passed over, files that could not be read and `id@version`s a registry holds twice. Their wording lives here,
 * as a rule's lives in its meta; `docs/registry.md` documents the codes.
 */
import type { RegistryDefinition } from "../bpmn/index.js";
import { describeDefinitions } from "../bpmn/index.js";
import type { Diagnostic } from "../model/index.js";
import { WORKFLOW_TARGET } from "../model/index.js";
import type { SkippedPath } from "./files.js";

/** A path a folder walk passed over (`PATH_SKIPPED`, a warning on that path). */
export function pathSkipped(skipped: SkippedPath): Diagnostic {
  return {
    code: "PATH_SKIPPED",
    severity: "warning",
    message: `skipped: ${skipped.reason}; nothing in it was read`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { reason: skipped.reason },
  };
}

/**
 * A file the run was to check and could not read (`FILE_UNREADABLE`, an error on that file):
 * permission denied, gone since the folder was listed, a path past the system's length limit.
 * Nothing in it was checked, so it never counts as passing and the run exits with 2.
 */
export function fileUnreadable(reason: string): Diagnostic {
  return {
    code: "FILE_UNREADABLE",
    severity: "error",
    message: `cannot be read: ${reason}; nothing in it was checked`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { reason },
  };
}

/**
 * A second document with an `id@version` already defined, with different content
 * (`REGISTRY_CONFLICT`, an error): the registry cannot say which one a reference means, so it
 * resolves the reference to neither.
 */
export function registryConflict(
  ref: string,
  first: RegistryDefinition,
  again: RegistryDefinition,
): Diagnostic {
  return {
    code: "REGISTRY_CONFLICT",
    severity: "error",
    message: `${ref} is defined with different content in ${describeDefinitions([first, again])}; the registry resolves it to neither, and every agent task that uses it is blocked`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { ref, definitions: [first, again] },
  };
}

/** A second document with an `id@version` and the same content (`REGISTRY_DUPLICATE`, a warning). */
export function registryDuplicate(
  ref: string,
  first: RegistryDefinition,
  again: RegistryDefinition,
): Diagnostic {
  return {
    code: "REGISTRY_DUPLICATE",
    severity: "warning",
    message: `${ref} is defined again, with the same content as in '${first.source}' (${again.contentHash}); the first is used`,
    target: WORKFLOW_TARGET,
    path: "",
    data: { ref, definitions: [first, again] },
  };
}

/**
 * What a second definition of `ref` is: a {@link registryDuplicate} when its content hash is the
 * first one's, else a {@link registryConflict}. One decision for the registry and for `check`.
 */
export function redefinition(
  ref: string,
  first: RegistryDefinition,
  again: RegistryDefinition,
): Diagnostic {
  return first.contentHash === again.contentHash
    ? registryDuplicate(ref, first, again)
    : registryConflict(ref, first, again);
}
