/**
 * What is reviewed is what was named (issue 17): a registry folder with two documents for one
 * `id@version` blocks every task that uses it and says which files and hashes; symbolic links
 * are followed, and every path passed over is said; a file is no registry; and a ref is a name,
 * never a path. Through the CLI, as a user runs it.
 */
import {
  copyFileSync,
  rmSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const PROCESS = "examples/processes/loan-origination.bpmn";

/** A copy of the examples' registry, to change. */
function registryCopy(): string {
  const dir = tempDir("agentflow-registry-cli-");
  for (const name of readdirSync("examples/registry")) {
    copyFileSync(join("examples/registry", name), join(dir, name));
  }
  return dir;
}

const reviewed = JSON.parse(readFileSync("examples/registry/credit-risk.agent.json", "utf8")) as {
  description?: string;
};
const impostor = { ...reviewed, description: "Approves every application." };

describe("two documents claim one id@version", () => {
  const dir = registryCopy();
  // Sorts after the reviewed file's name: the first file must not simply win.
  writeFileSync(join(dir, "credit-risk.agent.v2.json"), JSON.stringify(impostor, null, 2));
  const first = join(dir, "credit-risk.agent.json");
  const second = join(dir, "credit-risk.agent.v2.json");
  const hashes = [contentHash(reviewed), contentHash(impostor)];

  it("gate blocks the task that resolves it, naming both files and both hashes (exit 1)", async () => {
    const result = await run("gate", PROCESS, "--registry", dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("promotion BLOCKED");
    expect(result.stdout).toContain(
      `agnt-credit-risk@1.0.0 (agent task "AssessCreditRisk") is defined with different content in '${first}' (${hashes[0]}) and '${second}' (${hashes[1]}); which one would run cannot be known, so the agent cannot be reviewed  AGENT_REF_CONFLICT`,
    );
    // And the registry's own finding, on the second file.
    expect(result.stdout).toContain(`${second}\n  -  error    agnt-credit-risk@1.0.0 is defined`);
    expect(result.stdout).toMatch(/^the registry: 1 error\(s\), 0 warning\(s\) about its files/m);
  });

  it("gate --format json carries the conflict as data", async () => {
    const result = await run("gate", PROCESS, "--registry", dir, "--format", "json");
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as {
      allowed: boolean;
      blocking: { code: string; data: Record<string, unknown> }[];
      registry: { file: string; diagnostics: { code: string }[] }[];
    };
    expect(json.allowed).toBe(false);
    expect(json.blocking.find((d) => d.code === "AGENT_REF_CONFLICT")?.data).toMatchObject({
      elementId: "AssessCreditRisk",
      ref: "agnt-credit-risk@1.0.0",
      sources: [first, second],
      contentHashes: hashes,
    });
    expect(json.registry).toEqual([
      { file: second, diagnostics: [expect.objectContaining({ code: "REGISTRY_CONFLICT" })] },
    ]);
  });

  it("check <registry> reports it as an error (exit 1), and check --registry too", async () => {
    for (const args of [
      [dir],
      ["examples/workflows/market-research.agent.json", "--registry", dir],
    ]) {
      const result = await run("check", ...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `error    agnt-credit-risk@1.0.0 is defined with different content in '${first}' (${hashes[0]}) and '${second}' (${hashes[1]})`,
      );
      expect(result.stdout).toContain("REGISTRY_CONFLICT");
    }
  });

  it("the same content twice is a warning, and the gate decides as with one", async () => {
    const same = registryCopy();
    writeFileSync(join(same, "zz-copy.json"), JSON.stringify(reviewed));
    const result = await run("gate", PROCESS, "--registry", same);
    expect(result.stdout).not.toContain("AGENT_REF_CONFLICT");
    expect(result.stdout).toContain("REGISTRY_DUPLICATE");
    expect(result.stdout).toMatch(/^the registry: 0 error\(s\), 1 warning\(s\)/m);
    expect(result.code).toBe(1); // blocked for the missing gate of the other task, as without it
  });
});

describe("a document outside the registry claims one of its id@versions", () => {
  const registry = registryCopy();
  const outside = tempDir("agentflow-outside-");
  const reviewedFile = join(registry, "credit-risk.agent.json");
  const impostorFile = join(outside, "credit-risk.agent.json");
  const copyFile = join(outside, "copy.agent.json");
  writeFileSync(impostorFile, JSON.stringify(impostor, null, 2));
  writeFileSync(copyFile, JSON.stringify(reviewed));

  it("checked alone, as a narrowed CI run checks it, it is the conflict `check .` finds", async () => {
    const result = await run("check", impostorFile, "--registry", registry);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${impostorFile}\n  -  error    agnt-credit-risk@1.0.0 is defined with different content in '${reviewedFile}' (${contentHash(reviewed)}) and '${impostorFile}' (${contentHash(impostor)})`,
    );
  });

  it("the same content is a warning; the registry's own file is never compared with itself", async () => {
    const copy = await run("check", copyFile, "--registry", registry);
    expect(copy.code).toBe(0);
    expect(copy.stdout).toContain(
      `warning  agnt-credit-risk@1.0.0 is defined again, with the same content as in '${reviewedFile}'`,
    );
    const own = await run("check", reviewedFile, "--registry", registry, "-f", "json");
    expect(own.code).toBe(0);
    const json = JSON.parse(own.stdout) as { file: string; diagnostics: unknown[] }[];
    expect(json.map((f) => [f.file, f.diagnostics])).toEqual([[reviewedFile, []]]);
  });
});

describe("symbolic links", () => {
  it("a linked tool contract is read: its effect still blocks the ungated task", async () => {
    const dir = registryCopy();
    const elsewhere = tempDir("agentflow-registry-target-");
    const name = "send-loan-offer.tool.json";
    copyFileSync(join(dir, name), join(elsewhere, name));
    rmSync(join(dir, name));
    symlinkSync(join(elsewhere, name), join(dir, name));
    const result = await run("gate", PROCESS, "--registry", dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'calls "tool:send-loan-offer@1.1.0" (effect "external-commitment")',
    );
    expect(result.stdout).toContain("TOOL_EFFECT_NEEDS_GATE");
  });

  it("a loop is a warning on its path; a broken link is a registry error, in every format", async () => {
    const dir = registryCopy();
    mkdirSync(join(dir, "nested"));
    symlinkSync(dir, join(dir, "nested", "back"), "dir");
    symlinkSync(join(dir, "nothing.json"), join(dir, "dangling.json"));
    const text = await run("gate", PROCESS, "--registry", dir);
    // The link may have been the document an agent task names: unread, it blocks.
    expect(text.stdout).toContain(
      `${join(dir, "dangling.json")}\n  -  error    cannot be read: a broken symbolic link; nothing in it was checked  FILE_UNREADABLE`,
    );
    expect(text.stdout).toContain(
      `${join(dir, "nested", "back")}\n  -  warning  skipped: a symbolic link back to '${dir}', which holds it (a loop); nothing in it was read  PATH_SKIPPED`,
    );
    expect(text.stdout).toContain(
      "the registry: 1 error(s), 1 warning(s) about its files, listed below; they block",
    );
    const sarif = await run("gate", PROCESS, "--registry", dir, "--format", "sarif");
    expect(sarif.stdout.match(/"ruleId": "PATH_SKIPPED"/g)).toHaveLength(1);
    expect(sarif.stdout.match(/"ruleId": "FILE_UNREADABLE"/g)).toHaveLength(1);
    // Walked as an input (not a registry), a broken link is still a warning on its path.
    const checked = await run("check", dir);
    expect(checked.stdout.match(/PATH_SKIPPED/g)).toHaveLength(2);
  });
});

describe("what a registry is", () => {
  it("a file given as --registry is a usage error (exit 2) for every command", async () => {
    const file = "examples/registry/credit-risk.agent.json";
    for (const argv of [
      ["gate", PROCESS, "--registry", file],
      ["check", "examples/workflows", "--registry", file],
      ["report", PROCESS, "--registry", file, "-o", join(tempDir("agentflow-r-"), "r.md")],
    ]) {
      const result = await run(...argv);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: `agentflow: the registry '${file}' (--registry) is not a folder; give the folder that holds the workflows and tool contracts\n`,
      });
    }
  });

  it("a ref that spells a path is a name: nothing is read from there", async () => {
    const root = tempDir("agentflow-ref-path-");
    mkdirSync(join(root, "reg"));
    copyFileSync("examples/registry/credit-risk.agent.json", join(root, "reg", "a.json"));
    mkdirSync(join(root, "etc"));
    // What a path-reading registry would find for the ref below.
    writeFileSync(join(root, "etc", "passwd@1.0.0"), JSON.stringify(reviewed));
    writeFileSync(join(root, "etc", "passwd.json"), JSON.stringify(reviewed));
    const xml = readFileSync(PROCESS, "utf8").replace(
      'agentWorkflowRef="agnt-credit-risk@1.0.0"',
      'agentWorkflowRef="../../etc/passwd@1.0.0"',
    );
    const process = join(root, "reg", "..", "p.bpmn");
    writeFileSync(process, xml);
    const result = await run("gate", process, "--registry", join(root, "reg"), "--format", "json");
    const json = JSON.parse(result.stdout) as {
      blocking: { code: string; data: { elementId?: string } }[];
      agentTasks: { elementId: string; resolution: string }[];
    };
    const invalid = json.blocking.find((d) => d.code === "AGENT_REF_INVALID");
    expect(invalid?.data.elementId).toBe("AssessCreditRisk");
    expect(json.agentTasks.find((t) => t.elementId === "AssessCreditRisk")?.resolution).toBe(
      "unresolved",
    );
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});
