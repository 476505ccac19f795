/**
 * A file in a folder that cannot be read is that file's problem (issue 38, item 10): a
 * `FILE_UNREADABLE` error on it in every format, the other files' results kept, exit 2 — never
 * an empty report. A permission-denied file is read as a user without the permission (this
 * suite may run as root, who reads everything: the built CLI then runs as `nobody`). A walk past
 * the path-length limit reports the path it could not enter the same way, never exit 3.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const ROOT = process.getuid?.() === 0;

/**
 * The built CLI, copied where `nobody` can read it: the clone this suite runs in may sit in a
 * folder only root may enter (a fresh `mktemp -d` is mode 700), and then `nobody` could not even
 * load the CLI. The bundle is self-contained: `bin/`, `dist/cli-bundle/` and the package's type.
 */
function portableCli(): string {
  const root = tempDir("agentflow-portable-cli-");
  chmodSync(root, 0o755);
  cpSync("bin", join(root, "bin"), { recursive: true });
  cpSync("dist/cli-bundle", join(root, "dist", "cli-bundle"), { recursive: true });
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  for (const folder of [
    root,
    join(root, "bin"),
    join(root, "dist"),
    join(root, "dist", "cli-bundle"),
  ]) {
    chmodSync(folder, 0o755);
  }
  return join(root, "bin", "agentflow.js");
}

const BIN = ROOT ? portableCli() : resolve("bin/agentflow.js");
const GOOD = "examples/registry/credit-risk.agent.json";
const BROKEN = "examples/workflows/refund-autopilot.broken.agent.json";
const LOAN = "examples/processes/loan-origination.bpmn";

interface Spawned {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI as a user who may not read a mode-000 file (`nobody` when this is root). */
function unprivileged(...args: string[]): Spawned {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    ...(ROOT ? { uid: 65534, gid: 65534 } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder `nobody` can enter, holding a good, an unreadable and a broken document. */
function folder(): { dir: string; locked: string } {
  const dir = tempDir("agentflow-unreadable-files-");
  chmodSync(dir, 0o755);
  copyFileSync(GOOD, join(dir, "a-good.agent.json"));
  const locked = join(dir, "b-locked.agent.json");
  copyFileSync(GOOD, locked);
  chmodSync(locked, 0o000);
  copyFileSync(BROKEN, join(dir, "c-broken.agent.json"));
  return { dir, locked };
}

interface JsonFile {
  readonly file: string;
  readonly diagnostics: readonly { readonly code: string; readonly severity: string }[];
}

describe("an unreadable file in a folder", () => {
  it("check --format json: the file carries FILE_UNREADABLE, the others their results, exit 2", () => {
    const { dir, locked } = folder();
    const result = unprivileged("check", "--no-config", "--format", "json", dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`agentflow: cannot read '${locked}': permission denied\n`);
    const files = JSON.parse(result.stdout) as JsonFile[];
    expect(files.map((f) => f.file)).toEqual([
      join(dir, "a-good.agent.json"),
      locked,
      join(dir, "c-broken.agent.json"),
    ]);
    expect(files[0]?.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(files[1]?.diagnostics).toEqual([
      {
        code: "FILE_UNREADABLE",
        severity: "error",
        message: "cannot be read: permission denied; nothing in it was checked",
        target: { kind: "workflow" },
        path: "",
        data: { reason: "permission denied" },
      },
    ]);
    expect(files[2]?.diagnostics.map((d) => d.code)).toContain("RETRY_WITHOUT_MAX");
  });

  it("check --format sarif: one result on the file, the others' results kept, exit 2", () => {
    const { dir } = folder();
    const result = unprivileged("check", "--no-config", "--format", "sarif", dir);
    expect(result.code).toBe(2);
    const sarif = JSON.parse(result.stdout) as {
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    const results = sarif.runs[0]?.results ?? [];
    const onLocked = results.filter((r) =>
      r.locations.some((l) =>
        l.physicalLocation.artifactLocation.uri.endsWith("b-locked.agent.json"),
      ),
    );
    expect(onLocked.map((r) => [r.ruleId, r.level])).toEqual([["FILE_UNREADABLE", "error"]]);
    expect(results.some((r) => r.ruleId === "RETRY_WITHOUT_MAX")).toBe(true);
  });

  it("gate: an unreadable process blocks as unreadable; the readable one keeps its verdict", () => {
    const dir = tempDir("agentflow-unreadable-files-");
    chmodSync(dir, 0o755);
    copyFileSync(LOAN, join(dir, "a-loan.bpmn"));
    const locked = join(dir, "b-locked.bpmn");
    copyFileSync(LOAN, locked);
    chmodSync(locked, 0o000);
    const result = unprivileged("gate", "--no-config", "--format", "json", dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`agentflow: cannot read '${locked}': permission denied\n`);
    const decisions = JSON.parse(result.stdout) as {
      file: string;
      readable: boolean;
      allowed: boolean;
      blocking: { code: string }[];
    }[];
    expect(decisions.map((d) => [d.file, d.readable, d.allowed])).toEqual([
      [join(dir, "a-loan.bpmn"), true, false],
      [locked, false, false],
    ]);
    // The readable process's decision is the one it has alone.
    const alone = JSON.parse(
      unprivileged("gate", "--no-config", "--format", "json", join(dir, "a-loan.bpmn")).stdout,
    ) as { blocking: { code: string }[] };
    expect(decisions[0]?.blocking).toEqual(alone.blocking);
    expect(decisions[1]?.blocking.map((d) => d.code)).toEqual(["FILE_UNREADABLE"]);
  });

  it("two worker threads report it as one thread does", () => {
    const { dir } = folder();
    const one = unprivileged("check", "--no-config", "--format", "json", dir);
    const two = unprivileged("check", "--no-config", "--format", "json", "--concurrency", "2", dir);
    expect(two).toEqual(one);
  });
});

describe("a walk past the path-length limit", () => {
  it("reports the path it cannot enter as unreadable, keeps the rest, and exits 2, never 3", async () => {
    const dir = tempDir("agentflow-deep-");
    copyFileSync(GOOD, join(dir, "a.agent.json"));
    // Folders of 200 characters, 22 deep: past PATH_MAX (4,096) from the temporary folder. Made
    // by a child that steps into each one (a path that long cannot be named at once), removed
    // by rm(1), which works folder by folder too.
    const name = "d".repeat(200);
    const script = `
      const fs = require("node:fs");
      process.chdir(process.argv[1]);
      for (let i = 0; i < 22; i++) { fs.mkdirSync(process.argv[2]); process.chdir(process.argv[2]); }
      fs.writeFileSync("w.agent.json", "{}");`;
    const made = spawnSync(process.execPath, ["-e", script, dir, name], { encoding: "utf8" });
    expect(made.status).toBe(0);
    try {
      for (const format of ["json", "text"]) {
        const result = await run("check", "--no-config", "--format", format, dir);
        expect(result.code).toBe(2);
        expect(result.stderr).not.toMatch(STACK_LINE);
        expect(result.stderr).toMatch(
          /^agentflow: cannot read '\/\S+': the path is longer than the file system allows \(ENAMETOOLONG\)\n$/,
        );
        const where = /cannot read '(\S+)'/.exec(result.stderr)?.[1] ?? "";
        expect(where.startsWith(join(dir, name, name))).toBe(true);
        expect(where.length).toBeGreaterThan(4096);
        if (format === "json") {
          const files = JSON.parse(result.stdout) as JsonFile[];
          expect(files.map((f) => [f.file, f.diagnostics.map((d) => d.code)])).toEqual([
            [join(dir, "a.agent.json"), []],
            [where, ["FILE_UNREADABLE"]],
          ]);
        }
      }
      const gate = await run("gate", "--no-config", dir);
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain("the path is longer than the file system allows");
    } finally {
      // rm(1) walks by folder handle, which a path this long needs.
      spawnSync("rm", ["-rf", join(dir, name)]);
    }
  });

  it("a path named past the limit is refused in the CLI's words, exit 2", async () => {
    const long = join(
      tempDir("agentflow-deep-"),
      ...Array.from({ length: 21 }, () => "z".repeat(200)),
      "w.agent.json",
    );
    const result = await run("check", long);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: cannot read '${long}': the path is longer than the file system allows (ENAMETOOLONG)\n`,
    });
  });
});
