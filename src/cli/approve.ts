/**
 * `agentflow approve <paths…> --key <private.pem> --role <role> [--ticket <id>] -o <approval.json>`:
 * runs the gate as `gate` does and, when every promotion is allowed, writes a signed in-toto
 * statement of every input and every decision (docs/approval.md). A blocked promotion is never
 * approved (exit 1, one line per blocked process with its blocking codes).
 *
 * `agentflow approve --sign <approval.json> --key <k> --role <r>`: a further signature, after the
 * gate on the approval's recorded inputs gives exactly the approved statement again, so that a
 * second approver signs what the first approved; a key that already signed is refused.
 */
import { resolve } from "node:path";
import type { ApprovalReason } from "../approval/index.js";
import { visibleText } from "../model/index.js";
import {
  ApprovalError,
  createApproval,
  createStatement,
  signApproval,
  verifyApproval,
} from "../approval/index.js";
import { gatherApproval } from "./approval-inputs.js";
import type { Gathered } from "./approval-inputs.js";
import {
  claimOf,
  configFor,
  presentSubjects,
  readApprovalFile,
  regather,
  signerFromFile,
} from "./approval-regather.js";
import { assertRecordedName, repositoryRoot } from "./approval-root.js";
import { checkOutputPath, writeOutput } from "./output.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";
import type { ReadFile } from "./output.js";
import { isInside } from "./plugins.js";
import { checkOutputBesideKeys, loadTrustedKeys } from "./trusted-keys.js";

/** Options of `agentflow approve`, as commander parses them. */
export interface ApproveCliOptions {
  readonly registry?: string;
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly root?: string;
  readonly key?: string;
  readonly role?: string;
  readonly ticket?: string;
  readonly output?: string;
  /** `--sign <approval.json>`: add a signature to this approval. */
  readonly sign?: string;
  /** With `--sign`: the keys every signature already there must verify with. */
  readonly trustedKeys?: readonly string[];
}

/** The reasons that say a signature already in the envelope does not hold. */
const SIGNATURE_CODES: ReadonlySet<string> = new Set([
  "SIGNATURE_UNTRUSTED",
  "SIGNATURE_INVALID",
  "CLAIM_INVALID",
  "ROLE_NOT_GRANTED",
  "KEY_REPEATED",
  "ENVELOPE_PAYLOAD_TYPE",
  "STATEMENT_INVALID",
  "SUBJECTS_UNSORTED",
  "SUBJECT_DUPLICATE",
  "PROCESS_BLOCKED",
]);

/** `--key`, required by both forms. */
function keyOf(options: ApproveCliOptions): string {
  if (options.key === undefined || options.key.trim() === "") {
    throw new UsageError("--key <private.pem> is needed: the key you sign with (agentflow keygen)");
  }
  return options.key;
}

/** What `-o` must spare: every file the gate read, the signing key, and any trusted key read. */
function guard(gathered: Gathered, key: string, keyReads: readonly ReadFile[] = []): ReadFile[] {
  return [...gathered.run.reads, { path: key, role: "the signing key" }, ...keyReads];
}

/**
 * Refuses a name `verify` would refuse, with verify's own check: an approval recording it could
 * never be verified, and `report --approval` would not read it.
 */
function assertRecordable(gathered: Gathered, cwd: string): void {
  const { files, inputs } = gathered.input;
  const names = [
    ...inputs.paths,
    ...inputs.registry,
    ...(inputs.config === null ? [] : [inputs.config]),
    ...files.map((f) => f.name),
  ];
  for (const name of new Set(names)) {
    assertRecordedName(
      gathered.root,
      cwd,
      name,
      (why) =>
        `'${name}' cannot be approved: its name ${why}, and verify refuses an approval that records a name that is not a path relative to the repository root (rename it)`,
    );
  }
}

/** One line per reason, on stdout; the refusal's summary on stderr. */
function refuse(reasons: readonly ApprovalReason[], what: string, io: CliIo): number {
  // Names in a reason come from files others name: shown escaped, as verify shows them.
  for (const reason of reasons) io.stdout(`${visibleText(reason.message)}\n`);
  io.stderr(`agentflow: ${what}: ${String(reasons.length)} reason(s)\n`);
  return 1;
}

const envelopeText = (envelope: unknown): string => JSON.stringify(envelope, null, 2) + "\n";

/** Adds a signature to an existing approval (`--sign`). */
async function runSign(
  approvalFile: string,
  paths: readonly string[],
  options: ApproveCliOptions,
  io: CliIo,
): Promise<number> {
  const key = keyOf(options);
  const claim = claimOf(options.role, options.ticket, new Date());
  const target = options.output ?? approvalFile;
  await checkOutputPath(target);
  if (options.trustedKeys !== undefined) await checkOutputBesideKeys(target, options.trustedKeys);
  const signer = await signerFromFile(key);
  const { envelope, statement } = await readApprovalFile(approvalFile);
  // The signatures there are checked before the gate runs: the inputs the approval records
  // choose a config, and a config chooses plugins, whose code runs.
  let keyReads: ReadFile[] = [];
  if (options.trustedKeys !== undefined) {
    const { keys: trustedKeys, reads } = await loadTrustedKeys(options.trustedKeys);
    keyReads = reads;
    const checked = await verifyApproval(envelope, { trustedKeys });
    const broken = checked.reasons.filter((r) => SIGNATURE_CODES.has(r.code));
    if (broken.length > 0) return refuse(broken, "not signed", io);
  } else {
    io.stderr(
      `agentflow: the ${String(envelope.signatures.length)} signature(s) already in ${approvalFile} were not checked (give --trusted-keys to check them)\n`,
    );
  }
  const gathered = await regather(
    statement.predicate.inputs,
    { ...options, paths, approvalFile },
    io,
    process.cwd(),
  );
  const current = createStatement({ ...gathered.input, approver: claim });
  let signed;
  try {
    const present = await presentSubjects(statement, gathered, process.cwd());
    signed = await signApproval(envelope, signer, claim, { current, present });
  } catch (error) {
    if (error instanceof ApprovalError) return refuse(error.reasons, "not signed", io);
    throw error;
  }
  await writeOutput(target, envelopeText(signed), { reads: guard(gathered, key, keyReads) });
  io.stderr(
    `agentflow: wrote ${target}: signature ${String(signed.signatures.length)} by key ${signer.keyid.slice(0, 12)}… as ${claim.role}\n`,
  );
  return 0;
}

/** Runs the command; resolves to the exit code. */
export async function runApprove(
  paths: readonly string[],
  options: ApproveCliOptions,
  io: CliIo,
): Promise<number> {
  if (options.sign !== undefined) return runSign(options.sign, paths, options, io);
  if (paths.length === 0) {
    throw new UsageError("approve needs the processes to approve (or --sign <approval.json>)");
  }
  const key = keyOf(options);
  const claim = claimOf(options.role, options.ticket, new Date());
  const output = options.output;
  if (output === undefined) {
    throw new UsageError("-o <approval.json> is needed: where the signed approval is written");
  }
  await checkOutputPath(output);
  const signer = await signerFromFile(key);
  const cwd = process.cwd();
  const root = repositoryRoot(options.root, paths.slice(0, 1), cwd);
  const gathered = await gatherApproval(
    {
      paths,
      config: configFor(options.config, null, root, cwd),
      registry: options.registry,
      root,
      cwd,
    },
    io,
  );
  // An approval inside a registry folder would be read as one of its documents next time, and
  // an unreadable registry document blocks every decision: the approval would refuse itself.
  for (const folder of gathered.run.settings.registry) {
    if (isInside(resolve(cwd, folder), resolve(cwd, output))) {
      throw new UsageError(
        `-o '${output}' is inside the registry folder '${folder}': write the approval outside it`,
      );
    }
  }
  assertRecordable(gathered, cwd);
  // A process the gate decided but whose bytes are gone now cannot be named by its digest:
  // approving without it would approve less than was asked, and say nothing.
  const [unhashed] = gathered.unhashed;
  if (unhashed !== undefined) {
    throw new UsageError(`'${unhashed}' cannot be read any more: nothing approved`);
  }
  // Each unreadable process was said on stderr by the gate, as `gate` says it.
  if (gathered.unreadable > 0) return 2;
  if (gathered.blocked.length > 0) {
    for (const { name, codes } of gathered.blocked) {
      io.stdout(`${visibleText(name)}: promotion BLOCKED: ${codes.join(", ")}\n`);
    }
    io.stderr(
      `agentflow: nothing approved: ${String(gathered.blocked.length)} blocked promotion(s); 'agentflow gate' shows the findings\n`,
    );
    return 1;
  }
  const statement = createStatement({ ...gathered.input, approver: claim });
  let envelope;
  try {
    envelope = await createApproval(statement, signer, claim);
  } catch (error) {
    if (error instanceof ApprovalError) return refuse(error.reasons, "not approved", io);
    throw error;
  }
  await writeOutput(output, envelopeText(envelope), { reads: guard(gathered, key) });
  io.stderr(
    `agentflow: wrote ${output}: ${String(statement.predicate.processes.length)} process(es), ${String(statement.subject.length)} subject(s), signed by key ${signer.keyid.slice(0, 12)}… as ${claim.role}\n`,
  );
  return 0;
}
