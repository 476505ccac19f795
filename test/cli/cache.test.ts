/**
 * `check --cache` and `gate --cache`: a warm run prints what a cold run does, byte for byte, in
 * every format; a result is reused only while every input that decided it is unchanged — the
 * file, each registry entry it resolved (sub-workflows' tools too), the config; a damaged or
 * foreign cache is ignored with a note, a cache that cannot be written is a warning.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
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
    ["check, 2 worker threads", [...CHECK, "-f", "json", "--concurrency", "2"]],
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

  it("with worker threads too, a changed tool contract re-checks the workflow", async () => {
    const argv = [...CHECK, "--cache", "-f", "json", "--concurrency", "2"];
    await run(...argv);
    edit("reg/erp-purchase-order.tool.json", '"effect": "read"', '"effect": "external-commitment"');
    const after = await run(...argv);
    expect(after.stdout).toContain("TOOL_EFFECT_UNGATED");
    expect(after).toEqual(await uncached(argv));
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
      "agentflow: the cache .agentflowcache is not an agentflow cache; ignored, every file is checked\n",
    );
    expect([foreign.code, foreign.stdout]).toEqual([cold.code, cold.stdout]);
    // It was written anew: the next run reads it without a note.
    expect((await run(...argv)).stderr).toBe("");
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
