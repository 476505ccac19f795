/**
 * `check --cache` and `gate --cache`: a warm run prints what a cold run does, byte for byte, in
 * every format; a result is reused only while every input that decided it is unchanged — the
 * file, each registry entry it resolved (sub-workflows' tools too), the config; a damaged or
 * foreign cache is ignored with a note, a cache that cannot be written is a warning.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { checkFiles } from "../../src/cli/batch.js";
import { RunCache } from "../../src/cli/cache.js";
import type { FileOutcome } from "../../src/cli/check-file.js";
import type { CheckMisses } from "../../src/cli/cache-run.js";
import { cachedBatch } from "../../src/cli/cache-run.js";
import { fileCheckContext } from "../../src/cli/check-context.js";
import type { CliIo } from "../../src/cli/io.js";
import type { RegistryIndex } from "../../src/cli/registry-read.js";
import { readRegistryFile } from "../../src/cli/registry-read.js";
import { resolveSettings } from "../../src/cli/settings.js";
import { tempDir } from "../temp.js";
import { builtCli } from "./built.js";
import type { Run } from "./run.js";
import { run } from "./run.js";

const home = process.cwd();
const CHECK = ["check", "-r", "reg", "wfs", "procs"];
const GATE = ["gate", "-r", "reg", "procs"];

beforeEach(() => {
  const repo = tempDir("agentflow-cache-");
  writeFileSync(join(repo, "package.json"), "{}\n");
  cpSync(join(home, "examples/registry"), join(repo, "reg"), { recursive: true });
  cpSync(join(home, "examples/workflows"), join(repo, "wfs"), { recursive: true });
  cpSync(join(home, "examples/processes"), join(repo, "procs"), { recursive: true });
  process.chdir(repo);
});

afterAll(() => {
  process.chdir(home);
});

/** Edits a file of the temporary repository. */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

/** The same run without a cache: what a warm run must print. */
async function uncached(argv: readonly string[]): Promise<Run> {
  return run(...argv.filter((a) => a !== "--cache"));
}

/** Rewrites the cache body with `change`, under a checksum that matches again. */
function rewriteCache(file: string, change: (body: string) => string): void {
  const text = readFileSync(file, "utf8");
  const body = change(text.slice(text.indexOf("\n") + 1));
  const sha256 = createHash("sha256").update(body).digest("hex");
  writeFileSync(
    file,
    `${JSON.stringify({ format: "agentflow-cache", version: 1, sha256 })}\n${body}`,
  );
}

describe("--cache", () => {
  it.each([
    ["check, text", [...CHECK]],
    ["check, JSON", [...CHECK, "-f", "json"]],
    ["check, SARIF", [...CHECK, "-f", "sarif"]],
    ["gate, text", [...GATE]],
    ["gate, JSON", [...GATE, "-f", "json"]],
  ])("%s: a warm run prints what a cold run does, byte for byte", async (_, argv) => {
    const cold = await run(...argv, "--cache");
    expect(existsSync(".agentflowcache")).toBe(true);
    const warm = await run(...argv, "--cache");
    expect(warm).toEqual(cold);
    expect(warm).toEqual(await uncached(argv));
  });

  it("reuses the cached outcome when nothing changed (a planted outcome shows)", async () => {
    await run(...CHECK, "--cache");
    // Proof that the outcome is read from the cache: one changed there (checksum redone) shows.
    rewriteCache(".agentflowcache", (b) => b.replaceAll("BUDGET_MISSING", "BUDGET_PLANTED"));
    const warm = await run(...CHECK, "--cache", "-f", "json");
    expect(warm.stdout).toContain("BUDGET_PLANTED");
    // The same planted file under another setting is not used: the run key differs.
    const other = await run(...CHECK, "--cache", "-f", "json", "--preset", "strict");
    expect(other.stdout).not.toContain("BUDGET_PLANTED");
  });

  it("a changed tool contract re-checks the workflow that uses it", async () => {
    const argv = [...CHECK, "--cache", "-f", "json"];
    const before = await run(...argv);
    edit("reg/erp-purchase-order.tool.json", '"effect": "read"', '"effect": "external-commitment"');
    const after = await run(...argv);
    expect(after.stdout).toContain("TOOL_EFFECT_UNGATED");
    expect(after.stdout).not.toBe(before.stdout);
    expect(after).toEqual(await uncached(argv));
  });

  // Worker threads through the built CLI (`builtCli`: a worker from the sources compiles
  // agentflow again), against the sources' run in process without a cache.
  it("with 2 worker threads: a warm run prints what a cold run does, and a changed tool contract re-checks the workflow", async () => {
    const argv = [...CHECK, "-f", "json", "--concurrency", "2"];
    const cold = builtCli([...argv, "--cache"], process.cwd());
    expect(cold.debug).toContain("6 file(s) in 2 worker thread(s)");
    expect(existsSync(".agentflowcache")).toBe(true);
    const warm = builtCli([...argv, "--cache"], process.cwd());
    expect(warm).toEqual(cold);
    expect({ code: warm.code, stdout: warm.stdout, stderr: warm.stderr }).toEqual(
      await uncached(argv),
    );
    edit("reg/erp-purchase-order.tool.json", '"effect": "read"', '"effect": "external-commitment"');
    const after = builtCli([...argv, "--cache"], process.cwd());
    expect(after.debug).toContain("6 file(s) in 2 worker thread(s)");
    expect(after.stdout).toContain("TOOL_EFFECT_UNGATED");
    expect({ code: after.code, stdout: after.stdout, stderr: after.stderr }).toEqual(
      await uncached(argv),
    );
  });

  it("a changed tool of a process's sub-workflow re-decides the process (gate)", async () => {
    const argv = [...GATE, "--cache", "-f", "json"];
    const before = await run(...argv);
    expect(before.stdout).toContain("TOOL_EFFECT_NEEDS_GATE");
    edit("reg/send-loan-offer.tool.json", '"external-commitment"', '"read"');
    const after = await run(...argv);
    expect(after.stdout).not.toContain("TOOL_EFFECT_NEEDS_GATE");
    expect(after).toEqual(await uncached(argv));
  });

  it("a registry entry that was absent and now exists re-checks what looked it up", async () => {
    const tool = readFileSync("reg/browser-search.tool.json", "utf8");
    writeFileSync("reg/browser-search.tool.json", "{}");
    const argv = [...CHECK, "--cache", "-f", "json"];
    const before = await run(...argv);
    writeFileSync("reg/browser-search.tool.json", tool);
    const after = await run(...argv);
    expect(after.stdout).not.toBe(before.stdout);
    expect(after).toEqual(await uncached(argv));
  });

  it("a second definition of a resolved ref, with other content, re-checks what used it", async () => {
    const argv = [...CHECK, "--cache", "-f", "json"];
    const before = await run(...argv);
    const tool = readFileSync("reg/erp-purchase-order.tool.json", "utf8");
    writeFileSync(
      "reg/zz-erp-copy.tool.json",
      tool.replace("Reads the", "Reads, differently, the"),
    );
    const after = await run(...argv);
    // The workflow's own finding, not only the registry's: its cached outcome was not reused.
    const invoice = (out: Run): string[] =>
      (JSON.parse(out.stdout) as { file: string; diagnostics: { code: string }[] }[])
        .filter((f) => f.file === "wfs/invoice-exception-review.agent.json")
        .flatMap((f) => f.diagnostics.map((d) => d.code));
    expect(invoice(before)).not.toContain("TOOL_UNRESOLVED");
    expect(invoice(after)).toContain("TOOL_UNRESOLVED");
    expect(after).toEqual(await uncached(argv));
  });

  it("a changed config (a rule's level) is a different run: nothing is reused", async () => {
    writeFileSync("agentflow.config.json", JSON.stringify({ rules: { BUDGET_MISSING: "warn" } }));
    const argv = [...CHECK, "--cache", "-f", "json"];
    await run(...argv);
    writeFileSync("agentflow.config.json", JSON.stringify({ rules: { BUDGET_MISSING: "off" } }));
    const after = await run(...argv);
    const codes = (JSON.parse(after.stdout) as { diagnostics: { code: string }[] }[]).flatMap((f) =>
      f.diagnostics.map((d) => d.code),
    );
    expect(codes).not.toContain("BUDGET_MISSING");
    expect(after).toEqual(await uncached(argv));
  });

  it("a changed shared config the config extends is a different run too", async () => {
    writeFileSync("org.json", JSON.stringify({ rules: { BUDGET_MISSING: "error" } }));
    writeFileSync("agentflow.config.json", JSON.stringify({ extends: "./org.json" }));
    const argv = [...CHECK, "--cache", "-f", "json"];
    const before = await run(...argv);
    writeFileSync("org.json", JSON.stringify({ rules: { BUDGET_MISSING: "warn" } }));
    const after = await run(...argv);
    expect(after.stdout).not.toBe(before.stdout);
    expect(after).toEqual(await uncached(argv));
  });

  it("a damaged or foreign cache is ignored with a note, never a wrong result", async () => {
    const argv = [...CHECK, "--cache", "-f", "json"];
    const cold = await run(...argv);
    const text = readFileSync(".agentflowcache", "utf8");
    writeFileSync(".agentflowcache", text.replace("BUDGET_MISSING", "BUDGET_PLANTED"));
    const damaged = await run(...argv);
    expect(damaged.stderr).toBe(
      "agentflow: the cache .agentflowcache is damaged (its checksum does not match); ignored, every file is checked\n",
    );
    expect(damaged.stdout).toBe(cold.stdout);
    writeFileSync(".agentflowcache", text.slice(0, text.length / 2));
    expect((await run(...argv)).stderr).toContain("is damaged");
    writeFileSync(".agentflowcache", '{"eslint": true}\n{}');
    const foreign = await run(...argv);
    expect(foreign.stderr).toBe(
      "agentflow: the cache .agentflowcache is not an agentflow cache; ignored and left as it is: every file is checked and no result is kept (give --cache-location a path of its own)\n",
    );
    expect([foreign.code, foreign.stdout]).toEqual([cold.code, cold.stdout]);
    // A damaged cache is agentflow's and written anew; a foreign file is never written over.
    expect(readFileSync(".agentflowcache", "utf8")).toBe('{"eslint": true}\n{}');
  });

  type Outcome = Record<string, unknown> & { checked: Record<string, unknown> };
  type Mangle = (file: string, outcome: Outcome) => void;
  const isProcess = (file: string): boolean => file.endsWith(".bpmn");
  const firstDiagnostics = (o: Outcome): unknown[] =>
    (o.checked.diagnostics as unknown[]).length > 0
      ? (o.checked.diagnostics as unknown[])
      : (o.decision as { warnings: unknown[] }).warnings;
  it.each<[string, readonly string[], Mangle]>([
    ["a process's decision deleted", GATE, (_, o) => delete o.decision],
    ["a decision that is null", GATE, (_, o) => (o.decision = null)],
    [
      "agentTasks that are null",
      GATE,
      (_, o) => ((o.decision as Record<string, unknown>).agentTasks = null),
    ],
    [
      "an agent task without its gate",
      GATE,
      (_, o) =>
        delete (o.decision as { agentTasks: Record<string, unknown>[] }).agentTasks[0]?.gate,
    ],
    ["a diagnostic that is {}", CHECK, (_, o) => (o.checked.diagnostics as unknown[]).push({})],
    ["a diagnostic that is null", CHECK, (_, o) => (o.checked.diagnostics as unknown[]).push(null)],
    [
      "a diagnostic of an unknown severity",
      GATE,
      (_, o) => {
        const first = firstDiagnostics(o)[0] as Record<string, unknown> | undefined;
        if (first !== undefined) first.severity = "fatal";
      },
    ],
    [
      "a check's process outcome without its decision",
      CHECK,
      (file, o) => {
        if (isProcess(file)) delete o.decision;
      },
    ],
    ["a field the cache never writes", CHECK, (_, o) => (o.trusted = true)],
    [
      "an outcome filed under another file's name",
      CHECK,
      (_, o) => (o.checked.file = "wfs/elsewhere.agent.json"),
    ],
  ])(
    "an outcome of another shape (%s) is never used: the cache is ignored, every file checked",
    async (_, argv, mangle) => {
      const args = [...argv, "--cache", "-f", "json"];
      await run(...args);
      rewriteCache(".agentflowcache", (text) => {
        const body = JSON.parse(text) as {
          runs: Record<string, { files: Record<string, { outcome: Outcome }> }>;
        };
        for (const section of Object.values(body.runs)) {
          for (const [file, entry] of Object.entries(section.files)) mangle(file, entry.outcome);
        }
        return JSON.stringify(body);
      });
      const warm = await run(...args);
      const plain = await uncached(args);
      expect(warm.stderr).toMatch(
        /^agentflow: the cache \.agentflowcache is damaged \(not the cache's shape: \/runs\/(check|gate)\/files\/.+\); ignored, every file is checked\n$/,
      );
      expect([warm.code, warm.stdout]).toEqual([plain.code, plain.stdout]);
      expect(warm.stdout).toContain("procs/loan-origination.bpmn");
      // Written anew: the next run reuses it without a word.
      expect(await run(...args)).toEqual(plain);
    },
  );

  it("another agentflow build's cache is started afresh without a word, whatever its shape", async () => {
    const args = [...GATE, "--cache", "-f", "json"];
    await run(...args);
    rewriteCache(".agentflowcache", (text) => {
      const body = JSON.parse(text) as { code: string; runs: { gate: { files: object } } };
      body.code = "0.0.1 an older build";
      for (const entry of Object.values(body.runs.gate.files)) {
        (entry as { outcome: { decision?: unknown } }).outcome.decision = { allowed: true };
      }
      return JSON.stringify(body);
    });
    expect(await run(...args)).toEqual(await uncached(args));
  });

  it("a registry file's summary of another shape is never used", async () => {
    const args = [...CHECK, "--cache", "-f", "json"];
    await run(...args);
    rewriteCache(".agentflowcache", (text) => {
      const body = JSON.parse(text) as { registry: [string, { summary: unknown }][] };
      for (const entry of body.registry) entry[1].summary = { kind: "tool", problems: null };
      return JSON.stringify(body);
    });
    const warm = await run(...args);
    expect(warm.stderr).toContain(
      "is damaged (not the cache's shape: /registry/0/1/summary/problems",
    );
    const plain = await uncached(args);
    expect([warm.code, warm.stdout]).toEqual([plain.code, plain.stdout]);
  });

  it("a location holding a file that is not a cache is ignored and left as it is, a FIFO too", async () => {
    const argv = [...CHECK, "--cache", "-f", "json"];
    const plain = await run(...argv.filter((a) => a !== "--cache"));
    writeFileSync("notes.txt", "my notes\n");
    const notes = await run(...argv, "--cache-location", "notes.txt");
    expect(notes.stderr).toBe(
      "agentflow: the cache notes.txt is not an agentflow cache; ignored and left as it is: every file is checked and no result is kept (give --cache-location a path of its own)\n",
    );
    expect([notes.code, notes.stdout]).toEqual([plain.code, plain.stdout]);
    expect(readFileSync("notes.txt", "utf8")).toBe("my notes\n");
    execFileSync("mkfifo", ["pipe"]);
    const pipe = await run(...argv, "--cache-location", "pipe");
    expect(pipe.stderr).toBe(
      "agentflow: the cache pipe is a FIFO (named pipe), not a cache file; ignored and left as it is: every file is checked and no result is kept (give --cache-location a path of its own)\n",
    );
    expect(lstatSync("pipe").isFIFO()).toBe(true);
  });

  it("--cache-location naming a file the run reads is exit 2, and the file stays", async () => {
    writeFileSync("org.json", JSON.stringify({ rules: { BUDGET_MISSING: "error" } }));
    writeFileSync("agentflow.config.json", JSON.stringify({ extends: "./org.json" }));
    const refusal = (where: string, role: string): string =>
      `agentflow: --cache-location '${where}' is ${role}, which this run reads; writing the cache would replace what was read\n`;
    const foreign = (where: string): string =>
      `agentflow: the cache ${where} is not an agentflow cache; ignored and left as it is: every file is checked and no result is kept (give --cache-location a path of its own)\n`;
    const cases: [string[], string, string][] = [
      [CHECK, "agentflow.config.json", refusal("agentflow.config.json", "the config file")],
      [CHECK, "org.json", refusal("org.json", "a config the config file extends")],
      [
        GATE,
        "reg/erp-purchase-order.tool.json",
        foreign("reg/erp-purchase-order.tool.json") +
          refusal("reg/erp-purchase-order.tool.json", "a document of the registry"),
      ],
      [
        GATE,
        "procs/loan-origination.bpmn",
        foreign("procs/loan-origination.bpmn") +
          refusal("procs/loan-origination.bpmn", "one of the input files"),
      ],
    ];
    for (const [argv, location, stderr] of cases) {
      const before = readFileSync(location, "utf8");
      const out = await run(...argv, "--cache", "--cache-location", location);
      expect([out.code, out.stdout, out.stderr]).toEqual([2, "", stderr]);
      expect(readFileSync(location, "utf8")).toBe(before);
    }
  });

  it("a cache that cannot be written is a warning; the run's result stands", async () => {
    writeFileSync("blocker", "a file, not a folder");
    const argv = [...CHECK, "-f", "json"];
    const out = await run(...argv, "--cache", "--cache-location", "blocker/cache");
    expect(out.stderr).toMatch(/^agentflow: warning: cannot write the cache blocker\/cache: /);
    const plain = await run(...argv);
    expect([out.code, out.stdout]).toEqual([plain.code, plain.stdout]);
  });

  it("--cache-location: a file, or a folder that holds one per working directory", async () => {
    await run(...CHECK, "--cache", "--cache-location", "my.cache");
    expect(existsSync("my.cache")).toBe(true);
    expect(existsSync(".agentflowcache")).toBe(false);
    await run(...CHECK, "--cache", "--cache-location", "caches/");
    expect(readdirSync("caches")).toEqual([
      expect.stringMatching(/^agentflowcache-[0-9a-f]{12}$/) as unknown as string,
    ]);
    const clash = await run(...CHECK, "--cache", "--cache-location", "my.cache", "-o", "my.cache");
    expect([clash.code, clash.stderr]).toEqual([
      2,
      "agentflow: -o my.cache is the cache file; write the report elsewhere\n",
    ]);
    // Without --cache, the location is not used (as ESLint's).
    await run(...CHECK, "--cache-location", "unused.cache");
    expect(existsSync("unused.cache")).toBe(false);
  });
});

describe("--cache with worker threads", () => {
  it("records a file's outcome under the hash of the text the worker checked, not of an earlier read", async () => {
    const dir = tempDir("agentflow-cache-race-");
    const source = readFileSync(join(home, "examples/registry/credit-risk.agent.json"), "utf8");
    const broken = readFileSync(
      join(home, "examples/workflows/refund-autopilot.broken.agent.json"),
      "utf8",
    );
    const files = ["a", "b"].map((n) => join(dir, `${n}.agent.json`));
    for (const file of files) writeFileSync(file, source);
    const settings = await resolveSettings({ format: "text", config: false });
    const context = await fileCheckContext(settings);
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined, isTTY: false };
    const location = join(dir, "cache");
    const open = () => RunCache.open(location, "cache", "check", "key", io);
    const cache = open();
    // The main thread has read and hashed both files; then a.agent.json is edited (a checkout,
    // an editor) before the worker reads it: the worker checks the broken text.
    const editFirst: CheckMisses = (...args) => {
      writeFileSync(files[0] ?? "", broken);
      return checkFiles(...args);
    };
    const batch = cachedBatch(
      files,
      settings,
      context,
      { mode: { processesOnly: false }, concurrency: "2" },
      cache,
      editFirst,
    );
    expect(batch.workers).toBe(2);
    const codes: string[][] = [];
    for await (const outcome of batch.outcomes) {
      codes.push(outcome.checked.diagnostics.map((d) => d.code));
    }
    expect(codes[0]).toContain("AUTONOMY_INCOHERENT");
    cache.save(io);
    const next = open();
    const hash = (text: string) => createHash("sha256").update(text).digest("hex");
    // The broken verdict is kept for the broken text only: restoring the old text misses.
    expect(next.candidate(files[0] ?? "", hash(source))).toBeUndefined();
    expect(
      next.candidate(files[0] ?? "", hash(broken))?.checked.diagnostics.map((d) => d.code),
    ).toContain("AUTONOMY_INCOHERENT");
    expect(next.candidate(files[1] ?? "", hash(source))?.checked.diagnostics).toEqual([]);
  });

  it("ends the check of the files it could not reuse once the run is done: its workers stop", async () => {
    const dir = tempDir("agentflow-cache-end-");
    const files = ["a", "b"].map((n) => join(dir, `${n}.agent.json`));
    const source = readFileSync(join(home, "examples/registry/credit-risk.agent.json"), "utf8");
    for (const file of files) writeFileSync(file, source);
    const settings = await resolveSettings({ format: "text", config: false });
    const context = await fileCheckContext(settings);
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined, isTTY: false };
    const cache = RunCache.open(join(dir, "cache"), "cache", "check", "key", io);
    // checkInWorkers stops its threads in its generator's `finally`: it must be reached after the
    // last outcome, or the threads keep the process alive (the CLI hung after printing).
    const ended: string[] = [];
    const watched: CheckMisses = (misses, ...rest) => {
      const inner = checkFiles(misses, rest[0], rest[1], { ...rest[2], concurrency: "off" });
      async function* outcomes(): AsyncGenerator<FileOutcome, void, undefined> {
        try {
          yield* inner.outcomes;
        } finally {
          ended.push(`${String(misses.length)} checked`);
        }
      }
      return { workers: 2, outcomes: outcomes() };
    };
    const options = { mode: { processesOnly: false }, concurrency: "2" } as const;
    const batch = cachedBatch(files, settings, context, options, cache, watched);
    expect(batch.workers).toBe(2);
    let seen = 0;
    for await (const outcome of batch.outcomes) seen += outcome.checked.diagnostics.length + 1;
    expect(seen).toBe(2);
    expect(ended).toEqual(["2 checked"]);
  });
});

describe("a registry file the index knows", () => {
  it("is loaded from the text that was hashed, not read again from disk", () => {
    const dir = tempDir("agentflow-cache-registry-");
    const file = join(dir, "credit-risk.agent.json");
    const text = readFileSync(join(home, "examples/registry/credit-risk.agent.json"), "utf8");
    writeFileSync(file, text);
    const first = { previous: new Map(), next: new Map() } satisfies RegistryIndex;
    readRegistryFile(file, text, first);
    const index: RegistryIndex = { previous: first.next, next: new Map() };
    const read = readRegistryFile(file, text, index);
    expect(read.summary.kind).toBe("workflow");
    // Edited on disk after the run read it: the document is still the one the run read.
    writeFileSync(file, "{ not json");
    const doc = read.load();
    expect(doc.id).toBe(read.summary.id);
    expect(`${doc.id}@${doc.version}`).toBe(
      `${read.summary.id ?? ""}@${read.summary.version ?? ""}`,
    );
  });
});
