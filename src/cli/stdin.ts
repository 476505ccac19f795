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
import { DOCUMENT_EXTENSIONS, PROCESS_EXTENSION } from "./files.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** The name findings use when `--stdin-filename` is not given. */
export const STDIN_NAME = "<stdin>";

/** Whether `check` is to read stdin: `--stdin`, or `-` as a path. */
export function readsStdin(paths: readonly string[], options: CheckOptions): boolean {
  return options.stdin === true || paths.includes("-");
}

/** All of stdin as UTF-8 text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer | string>) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
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
  const ext = extname(filename);
  if (ext !== PROCESS_EXTENSION && !Object.hasOwn(DOCUMENT_EXTENSIONS, ext)) {
    throw new UsageError(
      `--stdin-filename '${filename}': unknown file type (expected .json, .yaml, .yml or .bpmn)`,
    );
  }
  return { name: filename, text, process: ext === PROCESS_EXTENSION };
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
