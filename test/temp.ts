/**
 * Temporary folders for tests. Each one made here is removed when its test file is done
 * (`setup.ts`), so that a run leaves nothing in the system's temporary folder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

/** A new empty folder under the system's temporary folder, named `<prefix>XXXXXX`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder {@link tempDir} made and returns how many there were. */
export function removeTempDirs(): number {
  const count = made.size;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
  return count;
}
