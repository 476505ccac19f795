/**
 * A repository whose promotion is allowed, for the approval tests: two processes (the loan
 * process with four eyes on its commitments, and a copy of it), the example registry, a config
 * with the bank's policy pack and a plugin, and key pairs outside the repository. Each test
 * tampers with a fresh copy.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalStatement, Envelope } from "../../src/approval/index.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";
import type { Run } from "./run.js";
import { run } from "./run.js";

/** A plugin with one process rule that finds nothing: its module file is an input all the same. */
export const PLUGIN = `export default {
  meta: { name: "acme", version: "1.0.0" },
  rules: {
    QUIET: {
      meta: {
        code: "QUIET",
        scope: "process",
        defaultSeverity: "warning",
        description: "Finds nothing; it is here to be an input",
        docs: "https://example.com/acme/QUIET",
        messages: { default: "never" },
      },
      check() {},
    },
  },
};
`;

/** A repository (with `.git`, so it is a project root) holding an allowed promotion. */
export function allowedRepo(options: { pack?: boolean; registryOmits?: string[] } = {}): string {
  const repo = tempDir("agentflow-approval-repo-");
  mkdirSync(join(repo, ".git"));
  mkdirSync(join(repo, "processes"));
  mkdirSync(join(repo, "policy"));
  const loan = readFileSync("examples/policies/tests/loan-four-eyes.bpmn");
  writeFileSync(join(repo, "processes/loan.bpmn"), loan);
  writeFileSync(join(repo, "processes/loan-copy.bpmn"), loan);
  cpSync("examples/registry", join(repo, "registry"), { recursive: true });
  // Kept beside the registry, not in it: a test adds it back.
  if ((options.registryOmits ?? []).length > 0) mkdirSync(join(repo, "spare"));
  for (const name of options.registryOmits ?? []) {
    renameSync(join(repo, "registry", name), join(repo, "spare", name));
  }
  const pack = options.pack !== false;
  if (pack) cpSync("examples/policies/bank.policy.yaml", join(repo, "policy/bank.policy.yaml"));
  writeFileSync(join(repo, "policy/acme.js"), PLUGIN);
  const config = {
    registry: "registry",
    plugins: { acme: "./policy/acme.js" },
    ...(pack ? { policies: ["policy/bank.policy.yaml"] } : {}),
  };
  writeFileSync(join(repo, "agentflow.config.json"), JSON.stringify(config, null, 2) + "\n");
  return repo;
}

/** Key pairs made with `agentflow keygen`, outside any repository: alice and bob, and carol. */
export interface Keys {
  readonly dir: string;
  /** `<dir>/<name>.key`. */
  key(name: string): string;
  /** `<dir>/<name>.pub`. */
  pub(name: string): string;
  /** A folder holding the public keys named. */
  trusted(...names: string[]): string;
  /** The key id keygen printed. */
  keyid(name: string): string;
}

/** Makes alice (Ed25519), bob (ECDSA P-256) and carol (Ed25519). */
export async function makeKeys(): Promise<Keys> {
  const dir = tempDir("agentflow-approval-keys-");
  const ids = new Map<string, string>();
  for (const [name, algorithm] of [
    ["alice", "ed25519"],
    ["bob", "ecdsa-p256"],
    ["carol", "ed25519"],
  ] as const) {
    const made = await run("keygen", "-o", join(dir, name), "--algorithm", algorithm);
    if (made.code !== 0) throw new Error(made.stderr);
    ids.set(name, made.stdout.trim());
  }
  return {
    dir,
    key: (name) => join(dir, `${name}.key`),
    pub: (name) => join(dir, `${name}.pub`),
    trusted: (...names) => {
      const folder = tempDir("agentflow-approval-trusted-");
      for (const name of names) cpSync(join(dir, `${name}.pub`), join(folder, `${name}.pub`));
      return folder;
    },
    keyid: (name) => ids.get(name) ?? "",
  };
}

/** Runs the CLI in-process with `dir` as the working directory. */
export async function runIn(dir: string, ...argv: string[]): Promise<Run> {
  const home = process.cwd();
  process.chdir(dir);
  try {
    let stdout = "";
    let stderr = "";
    const code = await main(argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      isTTY: false,
    });
    return { code, stdout, stderr };
  } finally {
    process.chdir(home);
  }
}

/** A copy of `dir` in a new temporary folder (a clean clone of the repository). */
export function copyOf(dir: string): string {
  const copy = join(tempDir("agentflow-approval-copy-"), "repo");
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** The envelope and its statement, read from an approval file. */
export function readEnvelope(file: string): { envelope: Envelope; statement: ApprovalStatement } {
  const envelope = JSON.parse(readFileSync(file, "utf8")) as Envelope;
  const statement = JSON.parse(
    Buffer.from(envelope.payload, "base64").toString("utf8"),
  ) as ApprovalStatement;
  return { envelope, statement };
}

/** Replaces the first `from` in a file with `to` (both one byte, for the one-byte tampering). */
export function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`'${from}' is not in ${file}`);
  writeFileSync(file, text.slice(0, at) + to + text.slice(at + from.length));
}

/** The lines of a text, without the empty last one. */
export const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

/** A repository holding an allowed promotion approved by alice as a risk officer (approval.json). */
export async function approvedRepo(): Promise<{ readonly repo: string; readonly keys: Keys }> {
  const keys = await makeKeys();
  const repo = allowedRepo();
  const approved = await runIn(
    repo,
    "approve",
    "processes",
    "--key",
    keys.key("alice"),
    "--role",
    "risk-officer",
    "-o",
    "approval.json",
  );
  if (approved.code !== 0) throw new Error(approved.stderr);
  return { repo, keys };
}
