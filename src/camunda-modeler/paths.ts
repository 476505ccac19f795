/**
 * File paths as the Camunda Modeler hands them to a client plug-in: absolute paths of the host's
 * system, POSIX (`/home/ana/loans/loan.bpmn`) or Windows (`C:\Users\ana\loans\loan.bpmn`). The
 * plug-in runs in the Modeler's window, where `node:path` does not exist, so the few operations
 * it needs are here, for both forms.
 */

/** The separator a path uses: `\` for a Windows path (a drive or a UNC prefix), else `/`. */
export function separatorOf(path: string): "/" | "\\" {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\") ? "\\" : "/";
}

function splitAt(path: string): number {
  return Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
}

/** The length of the root part (`/`, `C:\`, `\\server\share\`), 0 for a relative path. */
function rootLength(path: string): number {
  const drive = /^[A-Za-z]:[\\/]/.exec(path);
  if (drive !== null) return drive[0].length;
  const unc = /^\\\\[^\\]+\\[^\\]+\\?/.exec(path);
  if (unc !== null) return unc[0].length;
  return path.startsWith("/") || path.startsWith("\\") ? 1 : 0;
}

/** The folder holding `path`; a root is its own folder. */
export function dirname(path: string): string {
  const root = rootLength(path);
  const at = splitAt(path);
  if (at < root) return path.slice(0, root);
  return path.slice(0, at);
}

/** The last part of a path. */
export function basename(path: string): string {
  return path.slice(splitAt(path) + 1);
}

/** Whether `path` is absolute (POSIX, a drive or UNC path). */
export function isAbsolute(path: string): boolean {
  return rootLength(path) > 0;
}

/**
 * `to` resolved against the folder `from` (or `to` itself when absolute), with `.` and `..`
 * folded, in `from`'s separator. `..` never climbs above the root.
 */
export function resolvePath(from: string, to: string): string {
  const base = isAbsolute(to) ? to : `${from}${separatorOf(from)}${to}`;
  const sep = separatorOf(base);
  const root = base.slice(0, rootLength(base)).replace(/[\\/]/g, sep);
  const parts: string[] = [];
  for (const part of base.slice(root.length).split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `${root}${parts.join(sep)}`;
}

/** `name` in the folder `dir`. */
export function joinPath(dir: string, name: string): string {
  return resolvePath(dir, name);
}

/**
 * Whether `path` is `root` or below it, compared by parts (Windows paths without regard to
 * case, as the file system does).
 */
export function isInside(root: string, path: string): boolean {
  const windows = separatorOf(root) === "\\";
  const norm = (p: string) => {
    const folded = resolvePath(p, ".");
    return windows ? folded.toLowerCase() : folded;
  };
  const r = norm(root);
  const p = norm(path);
  if (p === r) return true;
  const prefix = /[\\/]$/.test(r) ? r : `${r}${separatorOf(root)}`;
  return p.startsWith(prefix);
}
