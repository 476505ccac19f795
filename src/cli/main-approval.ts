/**
 * The approval commands of `agentflow` (docs/approval.md): `approve` (and
 * `approve --sign`), `verify` and `keygen`. Registered apart from the others so that the program's
 * file stays readable; like them, each loads its modules only when it runs.
 */
import type { Command } from "commander";
import type { ApproveCliOptions } from "./approve.js";
import type { CliIo } from "./io.js";
import type { KeygenCliOptions } from "./keygen.js";
import type { VerifyCliOptions } from "./verify.js";

/** What `approve --help` adds below the options. */
const APPROVE_HELP = `
approve runs the gate as 'agentflow gate' does (the config, its policy packs and plugins, the
registry) and, when every promotion is allowed, writes an in-toto statement of every input (by
the sha256 of its bytes, named relative to the repository root) and every decision, in a DSSE
envelope signed with --key. A blocked promotion is not approved (exit 1).

approve --sign <approval.json> --key <k> --role <r> adds a signature, after checking that the
gate on the approval's inputs gives the approved statement again; a key that signed is refused.
With --trusted-keys, each signature already there must verify too: you sign what a trusted
approver signed, not a statement someone put under their signature.
docs/approval.md says what is recorded and how to plug in a KMS or an HSM.
`;

/** What `verify --help` adds below the options. */
const VERIFY_HELP = `
Exit 0 only when the signatures of at least --threshold distinct trusted keys verify (with
the --require-roles among their signers), the approval is not older than --max-age, and the
gate on the approved inputs (or the paths given) gives the approved statement again: every
file's sha256, every decision, the rule set and agentflow's version. Otherwise exit 1, one
line per reason. A malformed approval or key is exit 2. Only the keys --trusted-keys names are
trusted: a folder (its *.pub and *.pem files) or a file; role=path grants them one role only.
`;

/**
 * Adds `approve`, `verify` and `keygen` to `program`; `collectMore` accumulates a repeatable
 * option (`--trusted-keys`).
 */
export function addApprovalCommands(
  program: Command,
  io: CliIo,
  setExit: (code: number) => void,
  collectMore: (value: string, previous: string[] | undefined) => string[],
): void {
  program
    .command("approve")
    .description(
      "approve the promotion of processes: a signed in-toto statement of every input and decision (docs/approval.md)",
    )
    .argument("[paths...]", "process files, folders or glob patterns (not with --sign)")
    .option("-r, --registry <dir>", "folder of workflows and tool contracts to resolve references")
    .option(
      "-c, --config <file>",
      "the config file (default: agentflow.config.json at the repository root)",
    )
    .option("--no-config", "ignore agentflow.config.json")
    .option("--root <dir>", "the repository root inputs are named from (default: the project root)")
    .option("--key <private.pem>", "the PKCS#8 PEM private key to sign with (agentflow keygen)")
    .option("--role <role>", "the role you approve in, e.g. risk-officer")
    .option("--ticket <id>", "the change ticket the approval belongs to")
    .option(
      "-o, --output <approval.json>",
      "where the approval is written (--sign: default the approval)",
    )
    .option("--sign <approval.json>", "add a signature to this approval")
    .option(
      "--trusted-keys <dir|file>",
      "with --sign: every signature already there must verify with these keys (repeatable)",
      collectMore,
    )
    .addHelpText("after", APPROVE_HELP)
    .action(async (paths: string[], options: ApproveCliOptions) => {
      const { runApprove } = await import("./approve.js");
      setExit(await runApprove(paths, options, io));
    });
  program
    .command("verify")
    .description(
      "verify an approval for deploy: trusted signatures, and nothing changed since (exit 1 with the reasons)",
    )
    .argument("<approval>", "the approval (a DSSE envelope, JSON)")
    .argument("[paths...]", "the processes to check (default: the paths the approval records)")
    .option(
      "--trusted-keys <dir|file>",
      "keys whose signatures count: a folder of *.pub/*.pem, a file, or role=path (repeatable)",
      collectMore,
    )
    .option("--threshold <n>", "distinct trusted keys needed (default 1)")
    .option("--require-roles <roles>", "roles that must be among the signers, comma-separated")
    .option("--max-age <age>", "refuse an approval older than this: <n>d, <n>h or <n>m")
    .option("--now <time>", "the time age is judged at, ISO 8601 (default: now)")
    .option("-r, --registry <dir>", "the registry folder (default: the approval's)")
    .option("-c, --config <file>", "the config file (default: the approval's)")
    .option("--no-config", "ignore agentflow.config.json")
    .option("--root <dir>", "the repository root inputs are named from (default: the project root)")
    .option("-f, --format <format>", "output format: text, json or sarif", "text")
    .option("-o, --output-file <file>", "write the report here; a one-line summary goes to stderr")
    .addHelpText("after", VERIFY_HELP)
    .action(async (approval: string, paths: string[], options: VerifyCliOptions) => {
      const { runVerify } = await import("./verify.js");
      setExit(await runVerify(approval, paths, options, io));
    });
  program
    .command("keygen")
    .description("make a key pair for approvals: <name>.key (private, mode 0600) and <name>.pub")
    .option("-o, --output <name>", "the pair's name: writes <name>.key and <name>.pub")
    .option("--algorithm <algorithm>", "ed25519 (default) or ecdsa-p256")
    .action(async (options: KeygenCliOptions) => {
      const { runKeygen } = await import("./keygen.js");
      setExit(await runKeygen(options, io));
    });
}
