/**
 * `agentflow report --approval <approval.json> [--trusted-keys <dir|file…>]`: what the report's
 * Approval section shows, computed here so that the report only lays out plain data. The
 * signers' claims are the envelope's word unless trusted keys check them; every approved file is
 * hashed again, by its subject name under the repository root, to say which drifted (each name
 * first passes the check `verify` applies to what an approval records: an approval is untrusted,
 * and one naming `/etc/passwd` must not make the report read it); and the
 * reviewed process's agent tasks are compared with the approval's decision for that file. An
 * approval that cannot be read as one is a usage error (exit 2), never a report.
 */
import { createHash } from "node:crypto";
import type { ApprovalStatement, Envelope, TaskChange, TrustedKey } from "../approval/index.js";
import {
  ApprovalFormatError,
  changedTasks,
  PAYLOAD_TYPE,
  readApproval,
  taskApproval,
  verifyApproval,
} from "../approval/index.js";
import type { AgentTaskSummary } from "../bpmn/index.js";
import type { ApprovalSignerView, ApprovalView, ApprovedFileView } from "../report/audit/index.js";
import { assertRecordedName, fromRoot, plainNameProblem, subjectName } from "./approval-root.js";
import { readBytes } from "./file-read.js";
import { UsageError } from "./io.js";

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** An approval file, read and checked as one; what it is not is a {@link UsageError}. */
export interface ApprovalFile {
  readonly file: string;
  /** `sha256:` of the file's bytes. */
  readonly fileHash: string;
  readonly envelope: Envelope;
  readonly statement: ApprovalStatement;
}

/** Refuses, naming each, the subjects an approval names that are not read (exit 2). */
function refuseNames(file: string, refused: readonly string[]): void {
  if (refused.length === 0) return;
  throw new UsageError(
    `--approval '${file}' is not an approval agentflow can check: it names subjects that are not paths inside the repository root, and none was read: ${refused.join("; ")}`,
  );
}

/**
 * Reads `--approval`: JSON, a DSSE envelope whose payload is a valid approval statement. Any
 * failure is a usage error naming the file and what is wrong (exit 2): a report on an approval
 * that is not one would show claims nobody made.
 */
export async function readApprovalFile(file: string): Promise<ApprovalFile> {
  const at = `--approval '${file}'`;
  const bytes = await readBytes(file, "the approval ");
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new UsageError(`${at} is not JSON: ${(error as Error).message}`);
  }
  let read: { envelope: Envelope; statement: ApprovalStatement };
  try {
    read = readApproval(value);
  } catch (error) {
    if (!(error instanceof ApprovalFormatError)) throw error;
    // One line, as every usage error: the statement's problems are listed after one another.
    throw new UsageError(`${at} is not an approval: ${error.message.replace(/\n/g, "; ")}`);
  }
  if (read.envelope.payloadType !== PAYLOAD_TYPE) {
    throw new UsageError(
      `${at} is not an approval: its payloadType is '${read.envelope.payloadType}', not '${PAYLOAD_TYPE}'`,
    );
  }
  // Refused before any work: a name that is not a path relative to a root is no approved file.
  refuseNames(
    file,
    read.statement.subject.flatMap(({ name }) => {
      const why = plainNameProblem(name);
      return why === undefined ? [] : [`'${name}' (its name ${why})`];
    }),
  );
  return { file, fileHash: `sha256:${sha256Hex(bytes)}`, ...read };
}

/**
 * Each approved file against its bytes now: `root` joined with the subject name, hashed raw. A
 * file that is gone, or is no longer a regular file that can be read, is `missing`. Every name
 * is checked first as `verify` checks a recorded name (a plain path that stays inside the root,
 * links resolved): when any fails, nothing is read, and the refusal names each (exit 2).
 */
export async function approvedFiles(
  file: string,
  statement: ApprovalStatement,
  root: string,
  cwd: string,
): Promise<ApprovedFileView[]> {
  const refused: string[] = [];
  for (const { name } of statement.subject) {
    try {
      assertRecordedName(root, cwd, name, (why) => `'${name}' (its name ${why})`);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      refused.push(error.message);
    }
  }
  refuseNames(file, refused);
  const out: ApprovedFileView[] = [];
  for (const subject of statement.subject) {
    let status: ApprovedFileView["status"];
    try {
      const now = sha256Hex(await readBytes(fromRoot(root, cwd, subject.name)));
      status = now === subject.digest.sha256 ? "unchanged" : "changed";
    } catch {
      status = "missing";
    }
    out.push({
      name: subject.name,
      kind: subject.annotations.agentflowKind,
      sha256: subject.digest.sha256,
      status,
    });
  }
  return out;
}

/**
 * The reviewed process's agent tasks against the approval's decision for the same file (found by
 * its subject name; `null` for a file outside the root). With no entry, every task is new to it.
 */
export function approvalDecision(
  statement: ApprovalStatement,
  name: string | null,
  agentTasks: readonly AgentTaskSummary[],
): NonNullable<ApprovalView["decision"]> {
  const entry = statement.predicate.processes.find((p) => p.name === name);
  // Names are compared apart from the rest: the decision, not the file names, is the question.
  const current = agentTasks.map((task) => taskApproval(task, () => null));
  const tasks = changedTasks(entry, current).map((c: TaskChange) => ({
    elementId: c.elementId,
    change: c.change,
    fields: [...c.fields],
  }));
  return { entry: entry?.name ?? null, tasks };
}

/**
 * The signatures with their claims, each checked when trusted keys are given: a signature counts
 * as verified when `verifyApproval` verified it and no reason names it, and is shown under the
 * key that verified it.
 */
async function signers(
  envelope: Envelope,
  trustedKeys: readonly TrustedKey[] | undefined,
): Promise<Pick<ApprovalView, "signers" | "verification">> {
  let verified: (index: number) => boolean | null = () => null;
  // The key that verified each signature: the envelope's keyid is a hint, which may name another.
  const keyOf = new Map<number, string>();
  let verification: ApprovalView["verification"] = null;
  if (trustedKeys !== undefined) {
    const result = await verifyApproval(envelope, { trustedKeys });
    for (const s of result.signers) keyOf.set(s.index, s.keyid);
    const named = new Set(
      result.reasons.map((r) => r.data.index).filter((i) => typeof i === "number"),
    );
    verified = (index) => keyOf.has(index) && !named.has(index);
    verification = {
      trustedKeys: trustedKeys.length,
      problems: result.reasons.map((r) => r.message),
    };
  }
  const list = envelope.signatures.map((sig, index): ApprovalSignerView => {
    const claim = sig.extension?.ext;
    return {
      keyid: keyOf.get(index) ?? sig.keyid,
      role: claim?.role ?? null,
      ticket: claim?.ticket ?? null,
      time: claim?.time ?? null,
      verified: verified(index),
    };
  });
  return { signers: list, verification };
}

/** The reviewed file's subject name; `null` when it is outside the root (no approval names it). */
function nameIn(root: string, cwd: string, file: string): string | null {
  try {
    return subjectName(root, cwd, file);
  } catch (error) {
    if (error instanceof UsageError) return null;
    throw error;
  }
}

/** What the report's Approval section shows. */
export async function approvalView(
  approval: ApprovalFile,
  options: {
    /** The repository root subject names are relative to. */
    readonly root: string;
    /** The working directory, which `file` is relative to. */
    readonly cwd: string;
    /** The reviewed file. */
    readonly file: string;
    /** The process's agent tasks as decided now; `undefined` for a workflow report. */
    readonly agentTasks: readonly AgentTaskSummary[] | undefined;
    readonly trustedKeys?: readonly TrustedKey[];
  },
): Promise<ApprovalView> {
  const { statement } = approval;
  return {
    file: approval.file,
    fileHash: approval.fileHash,
    version: statement.predicate.agentflow.version,
    ruleSetDigest: statement.predicate.ruleSet.digest,
    ...(await signers(approval.envelope, options.trustedKeys)),
    files: await approvedFiles(approval.file, statement, options.root, options.cwd),
    decision:
      options.agentTasks === undefined
        ? null
        : approvalDecision(
            statement,
            nameIn(options.root, options.cwd, options.file),
            options.agentTasks,
          ),
  };
}
