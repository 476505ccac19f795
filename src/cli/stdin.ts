/**
 * `check --stdin [--stdin-filename <path>]` (as ESLint's; `-` as the only path is the same): one
 * document read from stdin, checked as if it were the file `<path>` — its kind from the name's
 * extension, the ignores matched against it, every position and finding naming it — so that an
 * editor or a hook can check an unsaved buffer. Without a name it is `<stdin>` and its kind is
 * sniffed from the text: XML (a BPMN process) or a JSON/YAML document, which is then recognised
 * as any document is (workflow, tool contract, another format's workflow, policy pack).
 */
import { extname } from "node:path";
import type { CheckOptions, StdinDocument } from "./check.js";
import { runCheck } from "./check.js";
import { DOCUMENT_EXTENSIONS, PROCESS_NAMES, isProcessName } from "./files.js";
import type { CliIo } from "./io.js";
import { MAX_TEXT_BYTES, streamSizeProblem, UsageError } from "./io.js";

/** The name findings use when `--stdin-filename` is not given. */
export const STDIN_NAME = "<stdin>";

/** Whether `check` is to read stdin: `--stdin`, or `-` as a path. */
export function readsStdin(paths: readonly string[], options: CheckOptions): boolean {
  return options.stdin === true || paths.includes("-");
}

/**
 * All of `input` (stdin) as UTF-8 text. More than `limit` bytes is a {@link UsageError} said as
 * soon as the limit is passed: the text could not be decoded at all, and holding the rest of
 * the stream would only cost memory.
 */
export async function readStdin(
  input: AsyncIterable<Buffer | string> = process.stdin,
  limit: number = MAX_TEXT_BYTES,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit) throw new UsageError(`cannot read stdin: ${streamSizeProblem(limit)}`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A BPMN process is XML; a workflow, a contract or a pack is JSON or YAML, never `<…`. */
export function looksLikeXml(text: string): boolean {
  return /^\uFEFF?\s*</.test(text);
}

/**
 * The document `text` is, named: by `--stdin-filename` (whose extension must be one `check`
 * reads), else {@link STDIN_NAME} with its kind sniffed.
 */
export function stdinDocument(text: string, filename: string | undefined): StdinDocument {
  if (filename === undefined) return { name: STDIN_NAME, text, process: looksLikeXml(text) };
  if (filename.trim() === "") {
    throw new UsageError("--stdin-filename '' is empty: name the file (is a variable unset?)");
  }
  const process = isProcessName(filename);
  if (!process && !Object.hasOwn(DOCUMENT_EXTENSIONS, extname(filename))) {
    throw new UsageError(
      `--stdin-filename '${filename}': unknown file type (expected .json, .yaml, .yml, ${PROCESS_NAMES})`,
    );
  }
  return { name: filename, text, process };
}

/** Runs `check` on the document on stdin; the options are checked before stdin is read. */
export async function runCheckStdin(
  paths: readonly string[],
  options: CheckOptions,
  io: CliIo,
  read: () => Promise<string> = readStdin,
): Promise<number> {
  const others = paths.filter((p) => p !== "-");
  if (others.length > 0) {
    throw new UsageError(
      `stdin is checked alone: drop the other paths (${others.join(", ")}) or --stdin`,
    );
  }
  if (paths.length > 1) throw new UsageError("stdin (-) can be read once");
  // Checked before waiting for input, so that a mistake does not hang on an open terminal.
  stdinDocument("", options.stdinFilename);
  return runCheck([], options, io, stdinDocument(await read(), options.stdinFilename));
}
