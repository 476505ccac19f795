/**
 * `extends` in agentflow.config.json: shared configs by path or package, applied in order under
 * the file's own settings (ESLint's legacy model), their paths relative to the file that names
 * them; a missing, invalid or cyclic one is exit 2 naming the chain of files.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const home = process.cwd();
const BROKEN = join(home, "examples/workflows/refund-autopilot.broken.agent.json");
const BANK = join(home, "examples/policies/bank.policy.yaml");
let repo = "";

function write(path: string, value: unknown): void {
  const file = join(repo, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
}

/** `check --print-config` under the config `-c file`, parsed. */
async function printed(file: string): Promise<Record<string, unknown>> {
  const out = await run("check", "-c", file, "--print-config", "w.agent.json");
  expect(out.stderr).toBe("");
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as Record<string, unknown>;
}

/** The usage error of `check` under `-c file`: exit 2, one line on stderr. */
async function refused(file: string): Promise<string> {
  const out = await run("check", "-c", file, "w.agent.json");
  expect(out.code).toBe(2);
  return out.stderr;
}

beforeAll(() => {
  repo = tempDir("agentflow-extends-");
  write("package.json", "{}\n");
  write("w.agent.json", "{}");
  copyFileSync(BROKEN, join(repo, "broken.agent.json"));
  process.chdir(repo);
});

afterAll(() => {
  process.chdir(home);
});

describe("extends a shared config", () => {
  it("by path: its settings apply, its paths stay relative to it, the chain is shown", async () => {
    const org = {
      preset: "strict",
      rules: { BUDGET_MISSING: "error", LLM_NOT_STRUCTURED: "warn" },
      registry: "registry",
      policies: ["policy/bank.policy.yaml"],
      ignores: ["generated/**"],
    };
    write("shared/org.config.json", org);
    mkdirSync(join(repo, "shared/policy"), { recursive: true });
    copyFileSync(BANK, join(repo, "shared/policy/bank.policy.yaml"));
    const own = { extends: "./shared/org.config.json", rules: { LLM_NOT_STRUCTURED: "off" } };
    write("path.config.json", own);
    const p = await printed("path.config.json");
    expect(p).toMatchObject({
      preset: "strict",
      registry: ["shared/registry"],
      policies: ["shared/policy/bank.policy.yaml"],
      ignores: [{ base: "shared", patterns: ["generated/**"] }],
      configChain: [
        { file: "shared/org.config.json", contentHash: contentHash(org) },
        { file: "path.config.json", contentHash: contentHash(own) },
      ],
    });
    const rules = (p.rules as { workflow: Record<string, unknown> }).workflow;
    expect(rules.BUDGET_MISSING).toBe("error");
    // The file itself wins over what it extends.
    expect(rules.LLM_NOT_STRUCTURED).toBe("off");
    // The run is named by the whole chain: a change in the shared file is a different config.
    const before = (p.config as { contentHash: string }).contentHash;
    expect(before).not.toBe(contentHash(own));
    write("shared/org.config.json", { ...org, preset: "recommended" });
    const after = await printed("path.config.json");
    expect((after.config as { contentHash: string }).contentHash).not.toBe(before);
    write("shared/org.config.json", org);
  });

  it("a check runs with the extended rules", async () => {
    write("shared/strict-budget.json", { rules: { BUDGET_MISSING: "error" } });
    write("check.config.json", { extends: ["./shared/strict-budget.json"] });
    const out = await run("check", "-c", "check.config.json", "-f", "json", "broken.agent.json");
    const files = JSON.parse(out.stdout) as { diagnostics: { code: string; severity: string }[] }[];
    const budget = files[0]?.diagnostics.find((d) => d.code === "BUDGET_MISSING");
    expect(budget?.severity).toBe("error");
    write("nocheck.config.json", {
      extends: ["./shared/strict-budget.json"],
      rules: { BUDGET_MISSING: "off" },
    });
    const off = await run("check", "-c", "nocheck.config.json", "-f", "json", "broken.agent.json");
    const offFiles = JSON.parse(off.stdout) as { diagnostics: { code: string }[] }[];
    expect(offFiles[0]?.diagnostics.map((d) => d.code)).not.toContain("BUDGET_MISSING");
  });

  it("by package: its agentflow.config.json, what its exports name, or a file in it", async () => {
    write("node_modules/@org/agentflow-config/package.json", { name: "@org/agentflow-config" });
    write("node_modules/@org/agentflow-config/agentflow.config.json", {
      preset: "all",
      registry: ["registry"],
    });
    write("node_modules/@org/agentflow-config/strict.json", { preset: "strict" });
    write("node_modules/exported-config/package.json", {
      name: "exported-config",
      exports: { "./agentflow.config.json": "./dist/config.json" },
    });
    write("node_modules/exported-config/dist/config.json", {
      policy: { camundaAgents: "gate-optional" },
    });
    write("pkg.config.json", { extends: "@org/agentflow-config" });
    expect(await printed("pkg.config.json")).toMatchObject({
      preset: "all",
      registry: ["node_modules/@org/agentflow-config/registry"],
    });
    write("sub.config.json", { extends: ["@org/agentflow-config/strict.json"] });
    expect((await printed("sub.config.json")).preset).toBe("strict");
    write("exp.config.json", { extends: ["exported-config"] });
    const exp = await printed("exp.config.json");
    expect(exp.camundaAgents).toBe("gate-optional");
    expect((exp.configChain as { file: string }[])[0]?.file).toBe(
      "node_modules/exported-config/dist/config.json",
    );
  });

  it("in order: later entries over earlier ones, the file over all; lists replaced, rules by code", async () => {
    write("a.json", {
      preset: "strict",
      rules: { BUDGET_MISSING: "error", LLM_NOT_STRUCTURED: "off" },
      ignores: ["a/**"],
      toolEffects: { "acme:a": "read", "acme:b": "read" },
    });
    write("b.json", {
      extends: "./a.json",
      preset: "all",
      rules: { BUDGET_MISSING: "warn" },
      toolEffects: { "acme:b": "notify" },
    });
    write("c.json", { rules: { BUDGET_MISSING: "off" }, ignores: ["c/**"] });
    write("order.config.json", { extends: ["./b.json", "./c.json"], ignores: ["own/**"] });
    const p = await printed("order.config.json");
    expect((p.configChain as { file: string }[]).map((c) => c.file)).toEqual([
      "a.json",
      "b.json",
      "c.json",
      "order.config.json",
    ]);
    expect(p.preset).toBe("all");
    expect(p.ignores).toEqual([{ base: ".", patterns: ["own/**"] }]);
    expect(p.toolEffects).toEqual({ "acme:a": "read", "acme:b": "notify" });
    const rules = (p.rules as { workflow: Record<string, unknown> }).workflow;
    expect(rules).toMatchObject({ BUDGET_MISSING: "off", LLM_NOT_STRUCTURED: "off" });
    write("order2.config.json", { extends: ["./c.json", "./b.json"] });
    const q = await printed("order2.config.json");
    expect((q.rules as { workflow: Record<string, unknown> }).workflow.BUDGET_MISSING).toBe(
      "warning",
    );
    expect(q.ignores).toEqual([{ base: ".", patterns: ["a/**"] }]);
  });

  it("plugins in an extended config load from its folder, its plugin configs in its place", async () => {
    write(
      "shared/plugins/org.js",
      `export default {
  meta: { name: "org", version: "1.0.0" },
  rules: {
    NOTE: {
      meta: { code: "NOTE", scope: "workflow", defaultSeverity: "warning", description: "Notes", docs: "https://example.com/x", messages: { default: "x" } },
      check() {},
    },
  },
  configs: { strict: { rules: { NOTE: "error" } } },
};
`,
    );
    write("shared/plugin.json", { plugins: { org: "./plugins/org.js" }, extends: ["org/strict"] });
    write("plug.config.json", { extends: "./shared/plugin.json" });
    const p = await printed("plug.config.json");
    expect(p.plugins).toEqual([{ name: "org", file: "shared/plugins/org.js" }]);
    expect((p.rules as { workflow: Record<string, unknown> }).workflow["org/NOTE"]).toBe("error");
    write("plug2.config.json", { extends: "./shared/plugin.json", rules: { "org/NOTE": "warn" } });
    const q = await printed("plug2.config.json");
    expect((q.rules as { workflow: Record<string, unknown> }).workflow["org/NOTE"]).toBe("warning");
  });

  it("a file shared by many branches is read once and applies at its last place", async () => {
    // 30 levels, each extending the level below twice: 2^30 places, 31 files.
    write("diamond/d0.json", { preset: "strict", rules: { BUDGET_MISSING: "error" } });
    for (let level = 1; level <= 30; level++) {
      const below = `./d${String(level - 1)}.json`;
      write(`diamond/d${String(level)}.json`, { extends: [below, below] });
    }
    write("diamond.config.json", {
      extends: ["./diamond/d30.json", "./diamond/d0.json"],
      rules: { LLM_NOT_STRUCTURED: "off" },
    });
    const p = await printed("diamond.config.json");
    const chain = (p.configChain as { file: string }[]).map((c) => c.file);
    expect(chain).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `diamond/d${String(i + 1)}.json`),
      "diamond/d0.json",
      "diamond.config.json",
    ]);
    expect(p.preset).toBe("strict");
    const rules = (p.rules as { workflow: Record<string, unknown> }).workflow;
    expect(rules.BUDGET_MISSING).toBe("error");
    expect(rules.LLM_NOT_STRUCTURED).toBe("off");
  });

  it("a cycle is exit 2 naming the chain", async () => {
    write("cyc/one.json", { extends: "./two.json" });
    write("cyc/two.json", { extends: ["../cycle.config.json"] });
    write("cycle.config.json", { extends: "./cyc/one.json" });
    expect(await refused("cycle.config.json")).toBe(
      "agentflow: cycle.config.json → cyc/one.json → cyc/two.json → cycle.config.json: extends forms a cycle (cycle.config.json extends itself through this chain)\n",
    );
    write("self.config.json", { extends: "./self.config.json" });
    expect(await refused("self.config.json")).toContain("self.config.json → self.config.json:");
  });

  it("a missing, unreadable or invalid extended config is exit 2 naming the chain", async () => {
    write("missing.config.json", { extends: ["./a.json", "./gone.json"] });
    expect(await refused("missing.config.json")).toMatch(
      /^agentflow: missing\.config\.json: extends '\.\/gone\.json': cannot read the config file 'gone\.json': /,
    );
    write("nopkg.config.json", { extends: "@org/nowhere" });
    expect(await refused("nopkg.config.json")).toBe(
      `agentflow: nopkg.config.json: extends '@org/nowhere': no package '@org/nowhere' in node_modules at or above ${repo}\n`,
    );
    write("deep/bad.json", '{ "preset": ');
    write("deep/mid.json", { extends: "./bad.json" });
    write("deep.config.json", { extends: "./deep/mid.json" });
    expect(await refused("deep.config.json")).toMatch(
      /^agentflow: deep\.config\.json → deep\/mid\.json: extends '\.\/bad\.json': deep\/bad\.json:1:\d+: not JSON: /,
    );
    write("deep/invalid.json", { preset: "lenient" });
    write("invalid.config.json", { extends: "./deep/invalid.json" });
    expect(await refused("invalid.config.json")).toMatch(
      /^agentflow: invalid\.config\.json: extends '\.\/deep\/invalid\.json': deep\/invalid\.json: \/preset: /,
    );
  });
});
