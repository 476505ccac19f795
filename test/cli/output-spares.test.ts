/**
 * `-o` never destroys what the run read, and writes only the file it names (issue 38, item 6):
 * refused with exit 2, naming both, over an input, the config file, a registry document or a
 * fixtures file, by any name (a symbolic or a hard link); a symbolic link is not written through;
 * a regular file is replaced atomically, so a failed write leaves the old report whole and no
 * temporary file behind.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  chmodSync,
  writeFileSync,
  closeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const BROKEN = "examples/workflows/refund-autopilot.broken.agent.json";
const LOAN = "examples/processes/loan-origination.bpmn";
const RESEARCH = "examples/workflows/market-research.agent.json";
const BIN = resolve("bin/agentflow.js");
const OLD = "the old report\n";

/** A folder with a registry copied from the examples and a config file naming it. */
function project(): { dir: string; registry: string; doc: string; config: string } {
  const dir = tempDir("agentflow-spares-");
  const registry = join(dir, "registry");
  mkdirSync(registry);
  for (const f of readdirSync("examples/registry")) {
    copyFileSync(join("examples/registry", f), join(registry, f));
  }
  const config = join(dir, "agentflow.config.json");
  writeFileSync(config, JSON.stringify({ registry: "registry" }));
  return { dir, registry, doc: join(registry, "credit-risk.agent.json"), config };
}

/** The files' bytes, to show a refusal changed none of them. */
function snapshot(...files: string[]): string[] {
  return files.map((f) => readFileSync(f, "utf8"));
}

/**
 * Whether `stderr` is the one-line refusal of `-o <file>` over `role`, named as `file` or by
 * another name that leads to it.
 */
function refusedOver(stderr: string, file: string, role: string): boolean {
  const tail = ", which this run reads; writing it would replace what was read\n";
  const head = `agentflow: -o '${file}' is ${role}`;
  if (!stderr.startsWith(head) || !stderr.endsWith(tail)) return false;
  const middle = stderr.slice(head.length, -tail.length);
  if (middle === "") return true;
  const other = /^ '(.+)' by another name$/.exec(middle)?.[1];
  return other !== undefined && resolve(other) === file;
}

/** Temporary files a write left in a folder (there must be none). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith(".agentflow-"));
}

describe("-o onto a file the run reads", () => {
  it("check: a registry document, by its name, a symbolic link and a hard link", async () => {
    const { dir, doc } = project();
    const link = join(dir, "report-link.json");
    symlinkSync(doc, link);
    const hard = join(dir, "report-hard.json");
    linkSync(doc, hard);
    const before = snapshot(doc);
    const named = await run("check", "--no-config", "-r", join(dir, "registry"), "-o", doc, BROKEN);
    expect(named).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: -o '${doc}' is a document of the registry, which this run reads; writing it would replace what was read\n`,
    });
    const viaHardLink = await run(
      "check",
      "--no-config",
      "-r",
      join(dir, "registry"),
      "-o",
      hard,
      BROKEN,
    );
    expect(viaHardLink).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: -o '${hard}' is a document of the registry '${doc}' by another name, which this run reads; writing it would replace what was read\n`,
    });
    // A symbolic link is refused as one, before the run, naming what it leads to.
    const viaLink = await run(
      "check",
      "--no-config",
      "-r",
      join(dir, "registry"),
      "-o",
      link,
      BROKEN,
    );
    expect(viaLink).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: cannot write '${link}': it is a symbolic link to '${doc}'; -o writes only the file it names, never through a link (name the target itself, or remove the link)\n`,
    });
    expect(snapshot(doc)).toEqual(before);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(leftovers(dir)).toEqual([]);
  });

  it("check: the config file, found through -c", async () => {
    const { config } = project();
    const before = snapshot(config);
    const result = await run("check", "-c", config, "-f", "json", "-o", config, BROKEN);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(refusedOver(result.stderr, config, "the config file")).toBe(true);
    expect(snapshot(config)).toEqual(before);
  });

  it("check: an input file reached by a hard link, or by a path written another way", async () => {
    const dir = tempDir("agentflow-spares-");
    const input = join(dir, "w.agent.json");
    copyFileSync(BROKEN, input);
    const hard = join(dir, "hard.json");
    linkSync(input, hard);
    const dotted = `${dir}/./w.agent.json`;
    for (const out of [hard, dotted]) {
      const result = await run("check", "-o", out, input);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `agentflow: -o '${out}' is one of the input files '${input}' by another name, which this run reads; writing it would replace what was read\n`,
      );
    }
    expect(readFileSync(input, "utf8")).toBe(readFileSync(BROKEN, "utf8"));
  });

  it("gate: a registry document and the config file", async () => {
    const { dir, doc, config } = project();
    const before = snapshot(doc, config);
    const overDoc = await run("gate", "-c", config, "-o", doc, LOAN);
    expect(overDoc.code).toBe(2);
    // The registry's own name for the file may be relative to the working directory.
    expect(refusedOver(overDoc.stderr, doc, "a document of the registry")).toBe(true);
    const overConfig = await run("gate", "-c", config, "-o", config, LOAN);
    expect(overConfig.code).toBe(2);
    expect(refusedOver(overConfig.stderr, config, "the config file")).toBe(true);
    expect(snapshot(doc, config)).toEqual(before);
    expect(leftovers(dir)).toEqual([]);
  });

  it("gate and check: a config the config file extends", async () => {
    const { dir, config } = project();
    const org = join(dir, "org.json");
    writeFileSync(org, JSON.stringify({ rules: { AGENT_GATE_OPTIONAL: "error" } }));
    writeFileSync(config, JSON.stringify({ extends: "./org.json", registry: "registry" }));
    const before = snapshot(org, config);
    for (const argv of [
      ["gate", "-c", config, "-o", org, LOAN],
      ["check", "-c", config, "-o", org, BROKEN],
    ]) {
      const result = await run(...argv);
      expect([result.code, result.stdout]).toEqual([2, ""]);
      expect(refusedOver(result.stderr, org, "a config the config file extends")).toBe(true);
    }
    expect(snapshot(org, config)).toEqual(before);
    expect(leftovers(dir)).toEqual([]);
  });

  it("report: a registry document and the fixtures file", async () => {
    const { dir, registry, doc } = project();
    const fixtures = join(dir, "research.fixtures.html");
    writeFileSync(fixtures, "{}");
    const before = snapshot(doc, fixtures);
    const html = join(dir, "doc.html");
    linkSync(doc, html);
    const overDoc = await run("report", LOAN, "-r", registry, "-o", html);
    expect([overDoc.code, overDoc.stderr]).toEqual([
      2,
      `agentflow: -o '${html}' is a document of the registry '${doc}' by another name, which this run reads; writing it would replace what was read\n`,
    ]);
    const overFixtures = await run("report", RESEARCH, "--fixtures", fixtures, "-o", fixtures);
    expect([overFixtures.code, overFixtures.stderr]).toEqual([
      2,
      `agentflow: -o '${fixtures}' is the fixtures file, which this run reads; writing it would replace what was read\n`,
    ]);
    expect(snapshot(doc, fixtures)).toEqual(before);
  });
});

describe("where -o writes", () => {
  it("a symbolic link is not written through, to a file or nowhere", async () => {
    const dir = tempDir("agentflow-spares-");
    const elsewhere = join(dir, "elsewhere.txt");
    writeFileSync(elsewhere, OLD);
    const link = join(dir, "report.sarif");
    symlinkSync(elsewhere, link);
    const through = await run("check", "-f", "sarif", "-o", link, BROKEN);
    expect(through).toEqual({
      code: 2,
      stdout: "",
      stderr: `agentflow: cannot write '${link}': it is a symbolic link to '${elsewhere}'; -o writes only the file it names, never through a link (name the target itself, or remove the link)\n`,
    });
    expect(readFileSync(elsewhere, "utf8")).toBe(OLD);
    const dangling = join(dir, "dangling.sarif");
    const target = join(dir, "created-by-the-link.sarif");
    symlinkSync(target, dangling);
    const broken = await run("convert", RESEARCH, "--to", "agentflow", "-o", dangling);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      `agentflow: cannot write '${dangling}': it is a broken symbolic link; -o writes only the file it names, never through a link (name the target itself, or remove the link)\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(["dangling.sarif", "elsewhere.txt", "report.sarif"]);
    // --force lets convert overwrite its input, by the input's own name only.
    const input = join(dir, "w.agent.json");
    copyFileSync(RESEARCH, input);
    const alias = join(dir, "alias.json");
    symlinkSync(input, alias);
    const forced = await run("convert", input, "--to", "mermaid", "--force", "-o", alias);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain(`cannot write '${alias}': it is a symbolic link to '${input}'`);
    expect(readFileSync(input, "utf8")).toBe(readFileSync(RESEARCH, "utf8"));
  });

  it("replaces a regular file by rename: the permissions stay, a hard link elsewhere keeps the old text", async () => {
    const dir = tempDir("agentflow-spares-");
    const out = join(dir, "report.json");
    writeFileSync(out, OLD);
    chmodSync(out, 0o640);
    const other = join(dir, "kept.json");
    linkSync(out, other);
    const result = await run("check", "-f", "json", "-o", out, BROKEN);
    expect(result.code).toBe(1);
    expect(readFileSync(out, "utf8")).toBe((await run("check", "-f", "json", BROKEN)).stdout);
    expect(statSync(out).mode & 0o777).toBe(0o640);
    expect(readFileSync(other, "utf8")).toBe(OLD);
    expect(leftovers(dir)).toEqual([]);
  });

  it("a path whose folder is a file is refused before anything is read", async () => {
    const dir = tempDir("agentflow-spares-");
    const file = join(dir, "a-file");
    writeFileSync(file, OLD);
    for (const command of [
      ["check", BROKEN],
      ["convert", RESEARCH, "--to", "agentflow"],
    ]) {
      const result = await run(...command, "-o", join(file, "report.json"));
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: `agentflow: cannot write '${join(file, "report.json")}': '${file}' is not a folder\n`,
      });
    }
    expect(readFileSync(file, "utf8")).toBe(OLD);
  });

  it("a write that fails half-way leaves the old report whole and no temporary file", () => {
    // The file-size limit (ulimit -f, SIGXFSZ ignored) fails the write after it has begun, as a
    // full disk would; the report is larger than the limit.
    const dir = tempDir("agentflow-spares-");
    const out = join(dir, "report.sarif");
    writeFileSync(out, OLD);
    const script = `trap "" XFSZ; ulimit -f 1; exec "$0" "$@"`;
    const result = spawnSync(
      "sh",
      ["-c", script, process.execPath, BIN, "check", "-f", "sarif", "-o", out, resolve(BROKEN)],
      { encoding: "utf8", cwd: dir },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `agentflow: cannot write '${out}': the file would exceed the size limit (EFBIG)\n`,
    );
    expect(readFileSync(out, "utf8")).toBe(OLD);
    expect(leftovers(dir)).toEqual([]);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it("/dev/stdout is written when it leads to a device, refused when it leads elsewhere", () => {
    const devNull = openSync("/dev/null", "w");
    try {
      const toDevice = spawnSync(process.execPath, [BIN, "check", "-o", "/dev/stdout", BROKEN], {
        encoding: "utf8",
        stdio: ["ignore", devNull, "pipe"],
      });
      expect([toDevice.status, toDevice.stderr]).toEqual([
        1,
        "agentflow: wrote /dev/stdout: 7 errors, 4 warnings in 1 file\n",
      ]);
    } finally {
      closeSync(devNull);
    }
    // Redirected to a file (`> out.txt`): /dev/stdout leads to it, and it is not replaced.
    const file = join(tempDir("agentflow-spares-"), "out.txt");
    writeFileSync(file, OLD);
    const fd = openSync(file, "a");
    try {
      const toFile = spawnSync(process.execPath, [BIN, "check", "-o", "/dev/stdout", BROKEN], {
        encoding: "utf8",
        stdio: ["ignore", fd, "pipe"],
      });
      expect([toFile.status, toFile.stderr]).toEqual([
        2,
        "agentflow: cannot write '/dev/stdout': it leads to a regular file, not a terminal or a device; leave out -o to print the report on stdout\n",
      ]);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, "utf8")).toBe(OLD);
  });
});
