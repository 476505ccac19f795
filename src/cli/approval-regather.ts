/**
 * Reaching an approved decision again, for `verify` and `approve --sign`: the same gate on the
 * inputs the approval recorded (its paths, registry folders and config, each relative to the
 * repository root), unless the command line names others. A recorded path that is gone now is
 * left out, so that what it held reads as removed (a reason), not as a mistake of the user.
 */
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { existsSync } from "node:fs";
import type { ApprovalInputs, ApprovalStatement, ApproverClaim } from "../approval/index.js";
import { ApprovalFormatError, readApproval } from "../approval/index.js";
import type { ReadApproval } from "../approval/index.js";
import { KeyFormatError, pemSigner } from "../keys/index.js";
import type { ApprovalSigner } from "../keys/index.js";
import type { Gathered } from "./approval-inputs.js";
import { gatherApproval } from "./approval-inputs.js";
import { assertRecordedName, fromRoot, repositoryRoot } from "./approval-root.js";
import { findConfigFile } from "./config.js";
import { readBytes, readText } from "./file-read.js";
import { collectFiles } from "./files.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** What the command line says about the inputs, over what the approval recorded. */
export interface RegatherOptions {
  /** Paths named on the command line; none: the approval's. */
  readonly paths: readonly string[];
  readonly registry?: string | undefined;
  /** `-c <file>` (a string), `--no-config` (false), neither (undefined). */
  readonly config?: string | boolean | undefined;
  readonly root?: string | undefined;
  /** The approval file: its project is the root when neither paths nor the cwd give one. */
  readonly approvalFile: string;
}

/** Reads an approval file as text and JSON; a file that is not JSON is a {@link UsageError}. */
export async function readApprovalJson(file: string): Promise<unknown> {
  const text = await readText(file, "the approval ");
  try {
    // A byte-order mark is how some editors and shells (PowerShell) save JSON: not a change.
    return JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch {
    throw new UsageError(`${file}: not JSON: an approval is a DSSE envelope (JSON)`);
  }
}

/** An approval file read and checked for shape (not for signatures); malformed is a {@link UsageError}. */
export async function readApprovalFile(file: string): Promise<ReadApproval> {
  const value = await readApprovalJson(file);
  try {
    return readApproval(value);
  } catch (error) {
    if (error instanceof ApprovalFormatError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

/** A signer from a PEM private key file; any problem with the key is a {@link UsageError}. */
export async function signerFromFile(file: string): Promise<ApprovalSigner> {
  const pem = await readText(file, "the key ");
  try {
    return pemSigner(pem, file);
  } catch (error) {
    if (error instanceof KeyFormatError) throw new UsageError(error.message);
    throw error;
  }
}

/** The signer's claim from `--role` and `--ticket`, at the time of signing. */
export function claimOf(
  role: string | undefined,
  ticket: string | undefined,
  now: Date,
): ApproverClaim {
  if (role === undefined || role.trim() === "") {
    throw new UsageError("--role is needed: the role you approve in (e.g. risk-officer)");
  }
  // A claim is printed in CI logs: a line break or escape in it could forge a log line.
  for (const [flag, value] of [
    ["--role", role],
    ["--ticket", ticket],
  ] as const) {
    if (value !== undefined && /\p{Cc}/u.test(value)) {
      throw new UsageError(`${flag} holds a control character (a line break?); give plain text`);
    }
  }
  if (ticket?.trim() === "") {
    throw new UsageError(
      "--ticket '' is empty: give the change ticket's id (is a variable unset?)",
    );
  }
  const time = now.toISOString();
  return ticket === undefined ? { role, time } : { role, ticket, time };
}

/** The recorded paths whose files can still be collected; the others' processes read as removed. */
async function stillThere(paths: readonly string[], io: CliIo): Promise<string[]> {
  const kept: string[] = [];
  for (const path of paths) {
    try {
      await collectFiles([path], { onlyProcesses: true });
      kept.push(path);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.debug?.(`approved path ${path} is gone: ${error.message}`);
    }
  }
  return kept;
}

/**
 * The config to use: the command line's; else the approval's (none when that file is gone, so
 * that it reads as removed); else `agentflow.config.json` at the repository root, if there is
 * one (a config that appeared there since is then an added subject). `approve` (nothing
 * recorded) looks up the same way, so that approving and verifying find the same config
 * wherever each runs; a config elsewhere is named with `-c`.
 */
export function configFor(
  given: string | boolean | undefined,
  recorded: string | null,
  root: string,
  cwd: string,
): string | boolean | undefined {
  if (given !== undefined) return given;
  if (recorded !== null) {
    const path = fromRoot(root, cwd, recorded);
    return existsSync(path) ? path : false;
  }
  // Looked up from the root, wherever the command runs: a config in the folder verify happens
  // to run from was not what approve found, and reading it would be a false drift.
  return findConfigFile(root) ?? false;
}

/** Runs the gate again on the approval's inputs (or those the command line names). */
export async function regather(
  recorded: ApprovalInputs,
  options: RegatherOptions,
  io: CliIo,
  cwd: string,
): Promise<Gathered> {
  const starts =
    options.paths.length > 0 ? options.paths.slice(0, 1) : [cwd, dirname(options.approvalFile)];
  const root = repositoryRoot(options.root, starts, cwd);
  // The approval is untrusted until verified: nothing it records is read before it is known to
  // be a plain name inside the root.
  for (const name of [...recorded.paths, ...recorded.registry, recorded.config ?? "."]) {
    assertRecordedName(
      root,
      cwd,
      name,
      (why) =>
        `the approval records the input '${name}', which is not a path relative to the repository root: it ${why}`,
    );
  }
  const paths =
    options.paths.length > 0
      ? options.paths
      : await stillThere(
          recorded.paths.map((p) => fromRoot(root, cwd, p)),
          io,
        );
  return gatherApproval(
    {
      paths,
      config: configFor(options.config, recorded.config, root, cwd),
      registry: options.registry,
      registryFolders:
        options.registry === undefined
          ? recorded.registry.map((r) => fromRoot(root, cwd, r))
          : undefined,
      root,
      cwd,
    },
    io,
  );
}

/**
 * The approved subjects the gate no longer reads whose files are still there, by name, with the
 * hex sha256 of their bytes now: a workflow a conflict now hides, a tool contract of a workflow no
 * longer resolved. They are not removed, and `verify` must not say so. A name is read only when
 * it passes the check every recorded name passes; one that does not, or a file that cannot be
 * read, is left out (it reads as removed).
 */
export async function presentSubjects(
  approved: ApprovalStatement,
  gathered: Gathered,
  cwd: string,
): Promise<Map<string, string>> {
  const read = new Set(gathered.input.files.map((f) => f.name));
  const out = new Map<string, string>();
  for (const { name } of approved.subject) {
    if (read.has(name)) continue;
    try {
      assertRecordedName(gathered.root, cwd, name, (why) => why);
      const bytes = await readBytes(fromRoot(gathered.root, cwd, name));
      out.set(name, createHash("sha256").update(bytes).digest("hex"));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
    }
  }
  return out;
}
