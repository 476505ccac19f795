/**
 * Artifact URIs of the SARIF log: file paths as valid URI references, relative to `%SRCROOT%`
 * where they are below it, so that code scanning maps them to the repository.
 */
import { encodeUriSegment } from "../rules/internal.js";

/** The base that relative artifact URIs resolve against; GitHub maps it to the repository root. */
export const SRCROOT = "%SRCROOT%";

/** A SARIF `artifactLocation`. */
export interface ArtifactLocation {
  readonly uri: string;
  readonly uriBaseId?: string;
  readonly index?: number;
}

/**
 * Whether agentflow runs on Windows, where a backslash separates folders. Read once, and guarded:
 * the report formats run in browsers too, which have no `process` and whose file names are
 * whatever the host gives.
 */
const ON_WINDOWS =
  (globalThis as { readonly process?: { readonly platform?: unknown } }).process?.platform ===
  "win32";

/**
 * `path` with slashes between its folders. On Windows (`windows`, by default the platform agentflow
 * runs on) a backslash is a separator; elsewhere it is a character a file name may hold
 * (`back\slash.bpmn` is one file), and stays. A path that starts with a drive letter (`C:\`) is
 * a Windows path wherever it is read.
 */
export function slashedPath(path: string, windows: boolean = ON_WINDOWS): string {
  return windows || /^[A-Za-z]:\\/.test(path) ? path.replaceAll("\\", "/") : path;
}

function encodePath(path: string): string {
  return path.split("/").map(encodeUriSegment).join("/");
}

/** The `file:` URI of an absolute path (POSIX, a Windows drive, or UNC), or undefined. */
function absoluteUri(slashed: string): string | undefined {
  if (/^[A-Za-z]:\//.test(slashed)) {
    return `file:///${slashed.slice(0, 2)}${encodePath(slashed.slice(2))}`;
  }
  if (slashed.startsWith("//")) return `file:${encodePath(slashed)}`;
  if (slashed.startsWith("/")) return `file://${encodePath(slashed)}`;
  return undefined;
}

/**
 * The `file:` URI of an absolute path (POSIX, a Windows drive, or UNC), encoded as
 * `artifactLocationOf` encodes artifacts, so that a `srcRoot` made with it is a prefix of
 * the URIs of the files below it whatever characters the folder names hold (`workspace@2`).
 *
 * @example
 * ```ts
 * import { fileUriOf } from "agentflow/report";
 *
 * fileUriOf("/builds/workspace@2"); // → "file:///builds/workspace%402"
 * fileUriOf("C:\\ci\\my repo"); // → "file:///C:/ci/my%20repo"
 * fileUriOf("relative/path"); // → undefined
 * ```
 */
export function fileUriOf(absolutePath: string): string | undefined {
  return absoluteUri(slashedPath(absolutePath));
}

/**
 * A file path as a SARIF URI. With `srcRoot` (a `file:` URI of a folder), a file below it gets a
 * URI relative to it with `uriBaseId: %SRCROOT%`, and any other file an absolute `file:` URI with
 * no base, so that no URI claims a base it is not in. Without it, absolute paths become `file:`
 * URIs, relative paths below the working directory stay relative to `%SRCROOT%`, and a path
 * that climbs out of it (`../`) stays a relative reference with no base. On Windows (`windows`,
 * by default the platform agentflow runs on) backslashes become slashes; elsewhere a backslash
 * is part of a file name and is encoded (`%5C`). Every segment is percent-encoded, because the
 * schema requires a valid URI reference and file names may hold spaces, `#`, `%` or a `:` that
 * would otherwise read as a scheme.
 */
export function artifactLocationOf(
  file: string,
  srcRoot?: string,
  windows?: boolean,
): ArtifactLocation {
  const slashed = slashedPath(file, windows);
  const absolute = absoluteUri(slashed);
  let relative = slashed;
  while (relative.startsWith("./")) relative = relative.slice(2);
  if (srcRoot === undefined) {
    if (absolute !== undefined) return { uri: absolute };
    if (relative === ".." || relative.startsWith("../")) return { uri: encodePath(relative) };
    return { uri: encodePath(relative), uriBaseId: SRCROOT };
  }
  const root = srcRoot.endsWith("/") ? srcRoot : `${srcRoot}/`;
  const href = absolute ?? new URL(encodePath(relative), root).href;
  return href.startsWith(root) && href.length > root.length
    ? { uri: href.slice(root.length), uriBaseId: SRCROOT }
    : { uri: href };
}
