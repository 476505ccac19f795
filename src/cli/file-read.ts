/**
 * Reading the files a command was given: regular files only, opened first and asked what they
 * are (a FIFO would block the read forever), a size limit before the text is decoded, and a
 * queue that reads a few files ahead of the one being checked.
 */
import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { describeFsError as describe, oddKind } from "./fs-info.js";
import { textSizeProblem, UsageError } from "./io.js";

/** Flags for opening a file to read: non-blocking, so that opening a FIFO returns at once. */
const READ_FLAGS = constants.O_RDONLY | ((constants.O_NONBLOCK as number | undefined) ?? 0);

/**
 * Reads a regular file's bytes. It is opened first and asked what it is, on the open handle,
 * so a FIFO or a device is refused instead of read (which would wait for a writer forever).
 */
async function readRegular(path: string, what: string): Promise<Buffer> {
  const handle = await open(path, READ_FLAGS);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      // A folder is read only when a walk could not list it: listing it again says why.
      const why = await readdir(path).then(() => "it is a directory, not a regular file", describe);
      throw new UsageError(`cannot read ${what}'${path}': ${why}`);
    }
    if (!info.isFile()) {
      throw new UsageError(
        `cannot read ${what}'${path}': it is ${oddKind(info)}, not a regular file`,
      );
    }
    // Refused by its size, naming it: past V8's longest string the text cannot be decoded at all.
    const tooLarge = textSizeProblem(info.size);
    if (tooLarge !== undefined) throw new UsageError(`cannot read ${what}'${path}': ${tooLarge}`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Reads a file's raw bytes (what an approval hashes), turning file-system errors into a
 * {@link UsageError}; `what` names the file in the error, when it is not an input.
 */
export async function readBytes(path: string, what = ""): Promise<Buffer> {
  try {
    return await readRegular(path, what);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${what}'${path}': ${describe(error)}`);
  }
}

/**
 * Reads a file as UTF-8, turning file-system errors into a {@link UsageError}; `what` names the
 * file in the error (`the config file `), when it is not an input.
 */
export async function readText(path: string, what = ""): Promise<string> {
  return (await readBytes(path, what)).toString("utf8");
}

/** How many files {@link readTexts} reads ahead of the one being checked. */
export const READ_AHEAD = 8;

/** A read that has finished, either way; never a rejected promise left waiting in a queue. */
export type FileRead =
  | { readonly file: string; readonly text: string }
  | { readonly file: string; readonly error: UsageError };

function startRead(file: string): Promise<FileRead> {
  // readText turns every failure into a UsageError already.
  return readText(file).then(
    (text) => ({ file, text }),
    (error: unknown) => ({ file, error: error as UsageError }),
  );
}

/**
 * Reads `paths` in order, one read per step, with up to `ahead` reads in flight so that the disk
 * works while the caller checks: at most `ahead` texts are held at a time, whatever the number
 * of files. A file that cannot be read is yielded with its {@link UsageError} in its turn, so
 * that the caller reports it as that file's problem and goes on with the others.
 */
export async function* readTexts(
  paths: readonly string[],
  ahead: number = READ_AHEAD,
): AsyncGenerator<FileRead, void, undefined> {
  const pending: Promise<FileRead>[] = [];
  let next = 0;
  for (;;) {
    while (next < paths.length && pending.length < Math.max(1, ahead)) {
      pending.push(startRead(paths[next] ?? ""));
      next += 1;
    }
    const read = await pending.shift();
    if (read === undefined) return;
    yield read;
  }
}
