/**
 * A dot-file is read as the same file without the dot would be; only dot-folders (and
 * node_modules) are passed over. A leading dot hides a process from `ls`, not from an engine that
 * deploys every `.bpmn` file, nor a registry document from the resolver: so not from a verdict.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CollectOptions } from "../../src/cli/files.js";
import { collectFiles } from "../../src/cli/files.js";
import { UsageError } from "../../src/cli/io.js";
import { tempDir } from "../temp.js";
import { allowedRepo, makeKeys, runIn } from "./approval-bundle.js";
import { run } from "./run.js";
import { CAN_BE_DENIED, denied } from "./unprivileged.js";

const BLOCKED = "examples/processes/loan-origination.bpmn";
const ALLOWED = "examples/processes/refund-triage.bpmn";

/** A folder of dot-files and others, with a dot-folder and node_modules holding documents. */
function tree(): string {
  const dir = tempDir("agentflow-dot-files-");
  const outside = tempDir("agentflow-dot-files-outside-");
  for (const folder of [".hidden", "node_modules"]) mkdirSync(join(dir, folder));
  for (const name of [
    ".a.bpmn",
    ".b.agent.json",
    ".c.yaml",
    ".eslintrc.json",
    ".x.fixtures.json",
    ".json",
    ".agentflowcache",
    ".hidden/d.bpmn",
    ".hidden/e.json",
    "node_modules/f.json",
    "p.bpmn",
    "plain.json",
  ]) {
    writeFileSync(join(dir, name), "{}");
  }
  writeFileSync(join(outside, "g.bpmn"), "{}");
  // A dot-named link to a file is a dot-file; to a folder, a dot-folder.
  symlinkSync(join(outside, "g.bpmn"), join(dir, ".l.bpmn"));
  symlinkSync(outside, join(dir, ".linked"), "dir");
  return dir;
}

describe("collectFiles: a dot-file is read as the same file without the dot would be", () => {
  const dir = tree();
  const at = (...names: string[]): string[] => names.map((name) => join(dir, name));
  const cases: { name: string; options: CollectOptions; files: string[] }[] = [
    {
      name: "check: documents and processes, dot-files too",
      options: { processes: true },
      files: at(
        ".a.bpmn",
        ".b.agent.json",
        ".c.yaml",
        ".eslintrc.json",
        ".l.bpmn",
        "p.bpmn",
        "plain.json",
      ),
    },
    {
      name: "gate: processes",
      options: { onlyProcesses: true },
      files: at(".a.bpmn", ".l.bpmn", "p.bpmn"),
    },
    {
      name: "a registry: documents",
      options: {},
      files: at(".b.agent.json", ".c.yaml", ".eslintrc.json", "plain.json"),
    },
    {
      name: "gate with an ignore pattern naming a dot-file: it is passed over",
      options: { onlyProcesses: true, ignored: (path) => path.endsWith("/.a.bpmn") },
      files: at(".l.bpmn", "p.bpmn"),
    },
  ];
  it.each(cases)("$name", async ({ options, files }) => {
    expect(await collectFiles([dir], options)).toEqual({ files, skipped: [] });
  });

  it("a folder whose one process is an ignored dot-file says the pattern passed over it", async () => {
    const only = tempDir("agentflow-dot-files-ignored-");
    writeFileSync(join(only, ".a.bpmn"), "<x/>");
    await expect(
      collectFiles([only], { onlyProcesses: true, ignored: (path) => path.endsWith(".a.bpmn") }),
    ).rejects.toEqual(
      new UsageError(
        `'${only}' holds no .bpmn or .bpmn20.xml file that the ignore patterns leave: they pass over '${join(only, ".a.bpmn")}'`,
      ),
    );
  });

  it("a broken dot-named link to a process is skipped unread, as any broken link is", async () => {
    const broken = tempDir("agentflow-dot-files-broken-");
    writeFileSync(join(broken, "p.bpmn"), "<x/>");
    symlinkSync(join(broken, "nowhere.bpmn"), join(broken, ".gone.bpmn"));
    symlinkSync(join(broken, "nowhere"), join(broken, ".gone"));
    expect(await collectFiles([broken], { onlyProcesses: true })).toEqual({
      files: [join(broken, "p.bpmn")],
      skipped: [
        { path: join(broken, ".gone.bpmn"), reason: "a broken symbolic link", unread: true },
      ],
    });
  });
});

describe.skipIf(!CAN_BE_DENIED)("collectFiles: a dot-named link that cannot be followed", () => {
  it("is listed when its name is one the command reads, for the read to say why", async () => {
    const dir = tempDir("agentflow-dot-files-denied-");
    // Outside the walked folder: only the links lead into it.
    const sub = tempDir("agentflow-dot-files-denied-target-");
    writeFileSync(join(sub, "b.bpmn"), "<x/>");
    symlinkSync(join(sub, "b.bpmn"), join(dir, ".linked.bpmn"));
    symlinkSync(sub, join(dir, ".linked"), "dir");
    writeFileSync(join(dir, "p.bpmn"), "<x/>");
    for (const folder of [dir, sub]) chmodSync(folder, 0o755);
    const collected = await denied([sub], () => collectFiles([dir], { onlyProcesses: true }));
    expect(collected).toEqual({
      files: [join(dir, ".linked.bpmn"), join(dir, "p.bpmn")],
      skipped: [],
    });
  });
});

describe("the commands read dot-files", () => {
  it("gate over a folder holding a blocked dot-file process is BLOCKED, naming it (exit 1)", async () => {
    const dir = tempDir("agentflow-dot-files-gate-");
    copyFileSync(ALLOWED, join(dir, "refund.bpmn"));
    copyFileSync(BLOCKED, join(dir, ".loan.bpmn"));
    mkdirSync(join(dir, ".drafts"));
    copyFileSync(BLOCKED, join(dir, ".drafts", "loan.bpmn"));
    const out = await run("gate", dir, "--registry", "examples/registry", "--format", "json");
    expect(out.code).toBe(1);
    // One decision per process, in walk order; the dot-folder's copy is never read.
    const decisions = JSON.parse(out.stdout) as { file: string; allowed: boolean }[];
    expect(decisions.map((d) => [d.file, d.allowed])).toEqual([
      [join(dir, ".loan.bpmn"), false],
      [join(dir, "refund.bpmn"), true],
    ]);
  });

  it("a registry holding a conflicting dot-file document is REGISTRY_CONFLICT, and gate blocks", async () => {
    const dir = tempDir("agentflow-dot-files-registry-");
    copyFileSync(BLOCKED, join(dir, "loan.bpmn"));
    const registry = join(dir, "registry");
    mkdirSync(registry);
    for (const name of ["credit-risk.agent.json", "credit-bureau-report.tool.json"]) {
      copyFileSync(join("examples/registry", name), join(registry, name));
    }
    const reviewed = JSON.parse(
      readFileSync("examples/registry/credit-risk.agent.json", "utf8"),
    ) as Record<string, unknown>;
    const impostor = join(registry, ".aa.agent.json");
    writeFileSync(impostor, JSON.stringify({ ...reviewed, description: "Approves everything." }));
    const out = await run(
      "gate",
      join(dir, "loan.bpmn"),
      "--registry",
      registry,
      "--format",
      "json",
    );
    expect(out.code).toBe(1);
    const decision = JSON.parse(out.stdout) as {
      blocking: { code: string; data: Record<string, unknown> }[];
      registry: { file: string; diagnostics: { code: string }[] }[];
    };
    expect(decision.registry.flatMap((f) => f.diagnostics.map((d) => [f.file, d.code]))).toEqual([
      [join(registry, "credit-risk.agent.json"), "REGISTRY_CONFLICT"],
    ]);
    expect(decision.blocking.find((d) => d.code === "AGENT_REF_CONFLICT")?.data).toMatchObject({
      ref: "agnt-credit-risk@1.0.0",
      sources: [impostor, join(registry, "credit-risk.agent.json")],
    });
  });

  it("verify refuses an approved folder where a blocked dot-file process appeared since", async () => {
    const keys = await makeKeys();
    const repo = allowedRepo();
    const approve = ["approve", "processes", "--key", keys.key("alice"), "--role", "risk-officer"];
    const made = await runIn(repo, ...approve, "-o", "approval.json");
    expect(made.code).toBe(0);
    copyFileSync(BLOCKED, join(repo, "processes/.evil.bpmn"));
    const out = await runIn(repo, "verify", "approval.json", "--trusted-keys", keys.pub("alice"));
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("processes/.evil.bpmn: added since the approval (a process)\n");
  });
});
