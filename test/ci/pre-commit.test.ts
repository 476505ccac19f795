/**
 * The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself on a fixture repository
 * whose .pre-commit-config.yaml names this repository at its HEAD commit, as a user's names a
 * release, and which has agentflow installed: the
 * check hook passes clean documents and fails a broken one, and skips files it does not read; the
 * gate hook decides on every process at each commit, whatever was staged. Skipped, and
 * said, when pre-commit is not installed (.ci/run installs it).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../temp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const hasPreCommit = spawnSync("pre-commit", ["--version"]).status === 0;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/**
 * A repository holding this checkout's .pre-commit-hooks.yaml and action/ as its one commit: the
 * hooks as the working tree has them (not as last committed), named by a rev as a user names a
 * release.
 */
function hookRepository(): { repo: string; head: string } {
  const repo = tempDir("agentflow-pre-commit-hooks-");
  git(repo, "init", "-q");
  git(repo, "config", "user.email", "ci@example.com");
  git(repo, "config", "user.name", "ci");
  // The hooks and what the check hook runs from this repository (package.json: its modules' type).
  for (const file of [".pre-commit-hooks.yaml", "package.json", "action"]) {
    cpSync(join(ROOT, file), join(repo, file), { recursive: true });
  }
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "hooks");
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" });
  return { repo, head: head.stdout.trim() };
}

/** A repository with agentflow installed as a devDependency would be (linked to this one). */
function repository(): string {
  const dir = tempDir("agentflow-pre-commit-");
  git(dir, "init", "-q");
  git(dir, "config", "user.email", "ci@example.com");
  git(dir, "config", "user.name", "ci");
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules/agentflow"));
  symlinkSync("../agentflow/bin/agentflow.js", join(dir, "node_modules/.bin/agentflow"));
  writeFileSync(join(dir, ".gitignore"), "node_modules\n");
  cpSync(join(ROOT, "examples/registry"), join(dir, "registry"), { recursive: true });
  writeFileSync(
    join(dir, "agentflow.config.json"),
    JSON.stringify({ registry: "registry", ignores: ["notes.json", "drafts/**"] }),
  );
  writeFileSync(join(dir, "package.json"), '{ "name": "repo" }\n');
  mkdirSync(join(dir, "drafts"));
  writeFileSync(join(dir, "drafts/next.agent.json"), "{}\n");
  // An imported workflow, or one named as docs/getting-started.md names it: no `.agent.`.
  mkdirSync(join(dir, "imported"));
  cpSync(
    join(ROOT, "examples/workflows/refund-autopilot.broken.agent.json"),
    join(dir, "imported/refund.json"),
  );
  mkdirSync(join(dir, "processes"));
  cpSync(join(ROOT, "examples/processes/loan-origination.bpmn"), join(dir, "processes/loan.bpmn"));
  cpSync(
    join(ROOT, "examples/workflows/refund-autopilot.broken.agent.json"),
    join(dir, "broken.agent.json"),
  );
  // A clean workflow outside the registry, and a broken one whose name reads as an option.
  mkdirSync(join(dir, "workflows"));
  cpSync(
    join(ROOT, "examples/workflows/market-research.agent.json"),
    join(dir, "workflows/research.agent.json"),
  );
  cpSync(
    join(ROOT, "examples/workflows/refund-autopilot.broken.agent.json"),
    join(dir, "--print-config=bad.agent.json"),
  );
  writeFileSync(join(dir, "notes.json"), "{}\n");
  const { repo, head } = hookRepository();
  writeFileSync(
    join(dir, ".pre-commit-config.yaml"),
    `repos:\n  - repo: ${repo}\n    rev: ${head}\n    hooks:\n      - id: agentflow-check\n      - id: agentflow-gate\n`,
  );
  git(dir, "add", ".");
  return dir;
}

/** Runs one hook of the config on `files`, as `pre-commit run` does before a commit. */
function runHook(dir: string, hook: string, ...files: string[]) {
  const r = spawnSync("pre-commit", ["run", hook, "--files", ...files], {
    cwd: dir,
    encoding: "utf8",
    // One cache for the file: pre-commit clones the hook repository once.
    env: { ...process.env, PRE_COMMIT_HOME: cache, NO_COLOR: "1" },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const cache = tempDir("agentflow-pre-commit-cache-");

describe("the pre-commit hooks", () => {
  let made: string | undefined;
  const shared = (): string => (made ??= repository());

  it("declares agentflow-check and agentflow-gate on the files each reads", () => {
    const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as {
      id: string;
      files: string;
    }[];
    expect(hooks.map((h) => h.id)).toEqual(["agentflow-check", "agentflow-gate"]);
    const reads = (id: string, file: string) =>
      new RegExp(hooks.find((h) => h.id === id)?.files ?? "^$").test(file);
    expect(reads("agentflow-check", "a/x.agent.yaml")).toBe(true);
    expect(reads("agentflow-check", "a/x.tool.json")).toBe(true);
    // Any document, as check reads it: the hook's script passes over what is no document.
    expect(reads("agentflow-check", "registry/support-agent.json")).toBe(true);
    expect(reads("agentflow-check", "p.bpmn")).toBe(true);
    expect(reads("agentflow-check", "p.BPMN")).toBe(true);
    expect(reads("agentflow-check", "p.bpmn20.xml")).toBe(true);
    expect(reads("agentflow-check", "p.xml")).toBe(false);
    expect(reads("agentflow-check", "README.md")).toBe(false);
  });

  it("runs gate on the whole repository at every commit, whatever changed", () => {
    const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as {
      id: string;
      entry: string;
      always_run?: boolean;
      pass_filenames?: boolean;
      files?: string;
    }[];
    const gate = hooks.find((h) => h.id === "agentflow-gate");
    expect(gate?.always_run).toBe(true);
    expect(gate?.pass_filenames).toBe(false);
    expect(gate?.entry).toMatch(/ gate \.$/);
    expect(gate?.files).toBeUndefined();
  });

  it.skipIf(!hasPreCommit)(
    "run by pre-commit: check fails a broken workflow, passes clean ones",
    () => {
      const dir = shared();
      const clean = runHook(dir, "agentflow-check", "workflows/research.agent.json", "notes.json");
      expect(clean.out).toMatch(/agentflow check\.+Passed/);
      expect(clean.code).toBe(0);
      const broken = runHook(dir, "agentflow-check", "broken.agent.json");
      expect(broken.code).toBe(1);
      expect(broken.out).toMatch(/agentflow check\.+Failed/);
      expect(broken.out).toContain("AUTONOMY_INCOHERENT");
      // A name that reads as an option is still a file to check (after `--`).
      const dashed = runHook(dir, "agentflow-check", "--files=--print-config=bad.agent.json");
      expect(dashed.code).toBe(1);
      expect(dashed.out).toContain("--print-config=bad.agent.json\n");
      expect(dashed.out).toContain("AUTONOMY_INCOHERENT");
    },
  );

  it.skipIf(!hasPreCommit)(
    "run by pre-commit: check reads any staged document, and passes over what a walk would",
    () => {
      const dir = shared();
      const imported = runHook(dir, "agentflow-check", "imported/refund.json");
      expect(imported.code).toBe(1);
      expect(imported.out).toContain("imported/refund.json");
      expect(imported.out).toContain("AUTONOMY_INCOHERENT");
      // package.json and what the config's ignores name (a broken draft): not read.
      const passed = runHook(
        dir,
        "agentflow-check",
        "package.json",
        "notes.json",
        "drafts/next.agent.json",
      );
      expect(passed.out).toMatch(/agentflow check\.+Passed/);
      expect(passed.code).toBe(0);
    },
  );

  it.skipIf(!hasPreCommit)(
    "run by pre-commit: a staged file the settings read checks the whole repository",
    () => {
      const dir = shared();
      // A registry contract changes the verdicts of the workflows that resolve it, the config
      // every verdict: the documents that did not change are checked again with them.
      for (const file of ["registry/send-loan-offer.tool.json", "agentflow.config.json"]) {
        const whole = runHook(dir, "agentflow-check", file);
        expect(whole.code).toBe(1);
        expect(whole.out).toContain(`agentflow: '${file}' is read by the settings`);
        expect(whole.out).toContain("imported/refund.json\n");
        expect(whole.out).toContain("AUTONOMY_INCOHERENT");
      }
    },
  );

  it.skipIf(!hasPreCommit)(
    "run by pre-commit: gate blocks a process, also when only another file is staged",
    () => {
      const dir = shared();
      const blocked = runHook(dir, "agentflow-gate", "processes/loan.bpmn");
      expect(blocked.code).toBe(1);
      expect(blocked.out).toContain("promotion BLOCKED");
      // A registry tool contract (or any file) alone: every process is decided again.
      for (const file of ["registry/send-loan-offer.tool.json", "notes.json"]) {
        const again = runHook(dir, "agentflow-gate", file);
        expect(again.code).toBe(1);
        expect(again.out).toContain("processes/loan.bpmn: promotion BLOCKED");
      }
    },
  );
});
