/**
 * `agentflow keygen -o <name> [--algorithm ed25519|ecdsa-p256]`: a key pair for approvals, made
 * with `node:crypto` and nothing else: `<name>.key` (PKCS#8 PEM, mode 0600, readable by its owner
 * only) and `<name>.pub` (SPKI PEM, what verifiers trust). Prints the key id. Never overwrites:
 * a key that existed may be the one an approval was signed with, and a new one would lock its
 * owner out of every approval that named it.
 */
import { constants } from "node:fs";
import { open, rm } from "node:fs/promises";
import type { KeyAlgorithm } from "../keys/index.js";
import { generateKeyPair, KEY_ALGORITHMS } from "../keys/index.js";
import { describeFsError } from "./fs-info.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** Options of `agentflow keygen`, as commander parses them. */
export interface KeygenCliOptions {
  readonly output?: string;
  readonly algorithm?: string;
}

/** Creates `path` with `text`, refusing an existing path (or a link at it) and a missing folder. */
async function createNew(path: string, text: string, mode: number): Promise<void> {
  let handle;
  try {
    // O_EXCL: never an existing file, and never through a link planted at the name.
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EEXIST") {
      throw new UsageError(
        `'${path}' exists; keygen never overwrites a key (remove it, or choose another -o)`,
      );
    }
    throw new UsageError(`cannot write '${path}': ${describeFsError(error)}`);
  }
  try {
    await handle.writeFile(text);
    // The umask may have taken bits away, never added any: the private key stays its owner's.
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Runs the command; resolves to the exit code. */
export async function runKeygen(options: KeygenCliOptions, io: CliIo): Promise<number> {
  const name = options.output;
  if (name === undefined || name.trim() === "") {
    throw new UsageError("keygen needs -o <name>: it writes <name>.key and <name>.pub");
  }
  const algorithm = options.algorithm ?? "ed25519";
  if (!(KEY_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new UsageError(
      `unknown algorithm '${algorithm}' (expected ${KEY_ALGORITHMS.join(", ")})`,
    );
  }
  const pair = generateKeyPair(algorithm as KeyAlgorithm);
  const privatePath = `${name}.key`;
  const publicPath = `${name}.pub`;
  await createNew(privatePath, pair.privateKeyPem, 0o600);
  try {
    await createNew(publicPath, pair.publicKeyPem, 0o644);
  } catch (error) {
    // Half a pair is no pair: the private key just written goes too.
    await rm(privatePath, { force: true });
    throw error;
  }
  io.stdout(`${pair.keyid}\n`);
  io.stderr(
    `agentflow: wrote ${privatePath} (private, mode 0600) and ${publicPath} (${algorithm})\n`,
  );
  return 0;
}
