/**
 * Running library code as a user that mode 000 stops. Root reads everything, so as root the
 * effective uid is that of `nobody` for the call, and root's again after it; otherwise the call
 * runs as is. The effective uid is the process's: it is dropped only in a worker of its own
 * (Vitest's forks pool, one test file at a time), never in a worker thread beside other files.
 */
import { chmodSync, statSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const ROOT = process.geteuid?.() === 0;

/** False when the test cannot be denied anything: root, in a worker thread shared with others. */
export const CAN_BE_DENIED = !ROOT || (isMainThread && process.seteuid !== undefined);

/**
 * Runs `action` with `paths` made mode 000, as a user that this denies (`nobody`, when this is
 * root), and gives the paths their modes back after it, so that they can be removed.
 */
export async function denied<T>(paths: readonly string[], action: () => Promise<T>): Promise<T> {
  const modes = paths.map((path) => statSync(path).mode & 0o7777);
  for (const path of paths) chmodSync(path, 0o000);
  if (ROOT) process.seteuid?.(65534);
  try {
    return await action();
  } finally {
    if (ROOT) process.seteuid?.(0);
    paths.forEach((path, i) => {
      chmodSync(path, modes[i] ?? 0o755);
    });
  }
}
