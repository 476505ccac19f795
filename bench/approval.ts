/**
 * `agentflow verify` beside `agentflow gate` on the same files, in process: the example bundle
 * (the loan process with four eyes, the example registry, the bank's pack) and a bundle of 1,000
 * processes (copies of it: 1,000 process subjects, and the registry documents they use). Verify
 * runs the same gate and then hashes every input and compares the statements; the ratio of the
 * medians (verify / gate) is verify's own cost, measured within one run. The two commands run
 * in turn, A B A B..., so that a machine's drift moves both.
 * `node --expose-gc --import tsx bench/approval.ts` prints the table; `benchApproval()` returns
 * the rows.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { main } from "../src/cli/main.js";
import { generateKeyPair } from "../src/keys/index.js";

/** One bundle's times. */
export interface ApprovalBenchRow {
  readonly bundle: string;
  /** The processes the gate decides. */
  readonly processes: number;
  /** The approval's subjects: every file verify hashes. */
  readonly subjects: number;
  readonly gateMs: number;
  readonly verifyMs: number;
  /** `verifyMs / gateMs`: what verify costs beyond the gate it runs. */
  readonly ratio: number;
  readonly runs: number;
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LOAN = join(ROOT, "examples/policies/tests/loan-four-eyes.bpmn");

const quiet = { stdout: () => undefined, stderr: () => undefined, isTTY: false };

/** Runs the CLI in `dir`; throws unless it exits `expected`. */
async function cli(dir: string, expected: number, ...argv: string[]): Promise<void> {
  const home = process.cwd();
  process.chdir(dir);
  try {
    let stderr = "";
    const code = await main(argv, { ...quiet, stderr: (t) => (stderr += t) });
    if (code !== expected)
      throw new Error(`agentflow ${argv.join(" ")} exited ${String(code)}: ${stderr}`);
  } finally {
    process.chdir(home);
  }
}

/** A repository with `count` copies of the loan process, approved; returns it and the key. */
async function bundle(count: number): Promise<{ dir: string; trusted: string; subjects: number }> {
  const dir = mkdtempSync(join(tmpdir(), "agentflow-approval-bench-"));
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "processes"));
  const loan = readFileSync(LOAN);
  for (let i = 0; i < count; i += 1) {
    writeFileSync(join(dir, `processes/loan-${String(i).padStart(4, "0")}.bpmn`), loan);
  }
  cpSync(join(ROOT, "examples/registry"), join(dir, "registry"), { recursive: true });
  cpSync(join(ROOT, "examples/policies/bank.policy.yaml"), join(dir, "bank.policy.yaml"));
  const config = { registry: "registry", policies: ["bank.policy.yaml"] };
  writeFileSync(join(dir, "agentflow.config.json"), JSON.stringify(config, null, 2) + "\n");
  const pair = generateKeyPair();
  writeFileSync(join(dir, ".git/bench.key"), pair.privateKeyPem, { mode: 0o600 });
  writeFileSync(join(dir, ".git/bench.pub"), pair.publicKeyPem);
  await cli(
    dir,
    0,
    "approve",
    "processes",
    "--key",
    ".git/bench.key",
    "--role",
    "ops",
    "-o",
    "approval.json",
  );
  const envelope = JSON.parse(readFileSync(join(dir, "approval.json"), "utf8")) as {
    payload: string;
  };
  const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8")) as {
    subject: unknown[];
  };
  return { dir, trusted: join(dir, ".git/bench.pub"), subjects: statement.subject.length };
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? NaN;
};

async function timed(run: () => Promise<void>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Times gate and verify on one bundle, `runs` times each in turn after a warm-up of each. */
async function measure(name: string, count: number, runs: number): Promise<ApprovalBenchRow> {
  const { dir, trusted, subjects } = await bundle(count);
  try {
    const gate = () => cli(dir, 0, "gate", "processes");
    const verify = () => cli(dir, 0, "verify", "approval.json", "--trusted-keys", trusted);
    await gate();
    await verify();
    const gates: number[] = [];
    const verifies: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      gates.push(await timed(gate));
      verifies.push(await timed(verify));
    }
    const gateMs = median(gates);
    const verifyMs = median(verifies);
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    return {
      bundle: name,
      processes: count,
      subjects,
      gateMs: round(gateMs),
      verifyMs: round(verifyMs),
      ratio: Math.round((verifyMs / gateMs) * 100) / 100,
      runs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** verify beside gate on the example bundle and on a bundle of 1,000 processes. */
export async function benchApproval(): Promise<ApprovalBenchRow[]> {
  return [await measure("example", 1, 15), await measure("1,000 processes", 1_000, 3)];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchApproval());
}
