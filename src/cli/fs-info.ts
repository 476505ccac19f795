/**
 * What the file system says about a path, in a reader's words: why a read or a write failed,
 * what kind of thing a path is when it is not a regular file, and which file a path leads to
 * whatever its name (for "is this the same file?"). Shared by reading the inputs and writing `-o`.
 */
import type { Dirent, Stats } from "node:fs";

/** A file-system error as a clause for a message (`cannot read 'x': <this>`). */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  if (code === "ELOOP") return "a loop of symbolic links";
  if (code === "ENOTDIR") return "a part of the path is not a directory";
  if (code === "ENAMETOOLONG") {
    return "the path is longer than the file system allows (ENAMETOOLONG)";
  }
  if (code === "EROFS") return "the file system is read-only";
  if (code === "ENOSPC") return "no space left on the device";
  if (code === "EFBIG") return "the file would exceed the size limit (EFBIG)";
  return error instanceof Error ? error.message : String(error);
}

/** What a path is when it is not a regular file or a folder, in a reader's words. */
export function oddKind(info: Stats | Dirent): string {
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isDirectory()) return "a directory";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "of an unknown kind";
}

/**
 * The identity of what a path leads to (device and inode), whatever links lead there: two
 * names of one file, by a symbolic or a hard link, have one identity.
 */
export function fileIdentity(info: Stats): string {
  return `${info.dev}:${info.ino}`;
}
