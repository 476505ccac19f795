/**
 * An approval made in a git repository verifies in a real `git clone` of it, and git's
 * line-ending conversion is what docs/approval.md says: a checkout with `core.autocrlf=true`
 * rewrites the bytes (every text input differs), and `-text` in `.gitattributes` keeps them.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import { allowedRepo, lines, makeKeys, runIn } from "./approval-bundle.js";

/** Git with no user config: a fixed identity, no hooks or templates from the machine. */
function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/** A committed repository holding the allowed bundle, with `attributes` as its .gitattributes. */
function committedRepo(attributes?: string): string {
  const repo = allowedRepo();
  rmSync(join(repo, ".git"), { recursive: true });
  if (attributes !== undefined) writeFileSync(join(repo, ".gitattributes"), attributes);
  git(repo, "init", "-q");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "bundle");
  return repo;
}

/** A clone of `repo` in a new folder, with `config` (`-c k=v`) for the clone. */
function cloneOf(repo: string, ...config: string[]): string {
  const clone = join(tempDir("agentflow-approval-clone-"), "clone");
  git(repo, ...config.flatMap((c) => ["-c", c]), "clone", "-q", repo, clone);
  return clone;
}

let keys: Keys;

beforeAll(async () => {
  keys = await makeKeys();
});

/** Approves `processes` in `repo` as alice; the approval is written outside the repository. */
async function approve(repo: string): Promise<string> {
  const approval = join(tempDir("agentflow-approval-out-"), "approval.json");
  const out = await runIn(
    repo,
    "approve",
    "processes",
    "--key",
    keys.key("alice"),
    "--role",
    "risk",
    "-o",
    approval,
  );
  expect(out.stderr).toContain("wrote");
  expect(out.code).toBe(0);
  return approval;
}

describe("an approval and a git clone", () => {
  it("verifies in a fresh clone of the repository it was made in", async () => {
    const repo = committedRepo();
    const approval = await approve(repo);
    const clone = cloneOf(repo);
    const out = await runIn(clone, "verify", approval, "--trusted-keys", keys.trusted("alice"));
    expect(out.stdout).toMatch(/^.*approval\.json: verified: 9 subject\(s\) unchanged; 1 trusted/);
    expect(out.code).toBe(0);
  });

  it("is refused in a clone whose checkout turned LF into CRLF, naming each file", async () => {
    const repo = committedRepo();
    const approval = await approve(repo);
    const clone = cloneOf(repo, "core.autocrlf=true");
    const out = await runIn(clone, "verify", approval, "--trusted-keys", keys.trusted("alice"));
    expect(out.code).toBe(1);
    const differs = lines(out.stdout).filter((l) =>
      l.includes(": sha256 differs from the approved"),
    );
    expect(differs.map((l) => l.slice(0, l.indexOf(":")))).toEqual([
      "agentflow.config.json",
      "policy/acme.js",
      "policy/bank.policy.yaml",
      "processes/loan-copy.bpmn",
      "processes/loan.bpmn",
      "registry/credit-bureau-report.tool.json",
      "registry/credit-risk.agent.json",
      "registry/offer-sender.agent.json",
      "registry/send-loan-offer.tool.json",
    ]);
  });

  it("verifies in that clone when .gitattributes keeps the inputs' bytes (-text)", async () => {
    const repo = committedRepo("*.bpmn -text\n*.json -text\n*.yaml -text\n*.js -text\n");
    const approval = await approve(repo);
    const clone = cloneOf(repo, "core.autocrlf=true");
    const out = await runIn(clone, "verify", approval, "--trusted-keys", keys.trusted("alice"));
    expect(lines(out.stdout)).toHaveLength(1);
    expect(out.code).toBe(0);
  });
});
