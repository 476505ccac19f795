/**
 * `check --print-config <file>` and `gate --print-config <file>`: the settings that apply to the
 * file, as JSON (the config used, the registry, the preset, the rules, the policies, the Camunda
 * settings, the gates, whether the file is ignored), exit 0, nothing checked.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const CONFIG = {
  preset: "strict",
  rules: { AGENT_GATE_UNREACHABLE: "warn", BUDGET_MISSING: "off", "bank/approved-models": "warn" },
  registry: ["registry", "shared/registry"],
  ignores: ["generated/**"],
  policies: ["policy/bank.policy.yaml"],
  policy: { camundaAgents: "gate-optional" },
  toolEffects: { "acme:fraud-score:1": "read" },
  gates: [{ candidateGroup: "supervisors" }],
};

let repo = "";
const home = process.cwd();
const bankPack = join(home, "examples/policies/bank.policy.yaml");

beforeAll(() => {
  repo = tempDir("agentflow-print-config-");
  writeFileSync(join(repo, "package.json"), "{}\n");
  writeFileSync(join(repo, "agentflow.config.json"), JSON.stringify(CONFIG));
  mkdirSync(join(repo, "policy"));
  copyFileSync(bankPack, join(repo, "policy/bank.policy.yaml"));
  mkdirSync(join(repo, "sub"));
  process.chdir(repo);
});

afterAll(() => {
  process.chdir(home);
});

function parsed(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("--print-config", () => {
  it("prints the config file's settings for a file, and checks nothing", async () => {
    // The file need not exist: nothing is read but the config and what it names.
    const { code, stdout, stderr } = await run(
      "check",
      "--print-config",
      "processes/loan.bpmn",
      "--today",
      "2026-03-01",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const printed = parsed(stdout);
    expect(Object.keys(printed)).toEqual([
      "file",
      "kind",
      "config",
      "configChain",
      "preset",
      "registry",
      "registrySource",
      "rules",
      "plugins",
      "policies",
      "waivers",
      "camundaAgents",
      "toolEffects",
      "gates",
      "ignores",
      "ignored",
      "today",
      "ruleSetDigest",
    ]);
    expect(printed).toMatchObject({
      file: "processes/loan.bpmn",
      kind: "process",
      config: { file: "agentflow.config.json", contentHash: contentHash(CONFIG) },
      configChain: [{ file: "agentflow.config.json", contentHash: contentHash(CONFIG) }],
      preset: "strict",
      registry: ["registry", "shared/registry"],
      registrySource: "registry in agentflow.config.json",
      plugins: [],
      policies: ["policy/bank.policy.yaml"],
      waivers: [],
      camundaAgents: "gate-optional",
      toolEffects: { "acme:fraud-score:1": "read" },
      gates: [{ candidateGroup: "supervisors" }],
      ignores: [{ base: ".", patterns: ["generated/**"] }],
      ignored: false,
      today: "2026-03-01",
    });
    // BPMN rules run with the gate, workflow rules with the validator, a pack's workflow rule in
    // both (a process's agents are workflows too); "warn" is the level a run uses, "warning".
    expect(printed.rules).toEqual({
      workflow: { BUDGET_MISSING: "off", "bank/approved-models": "warning" },
      bpmn: { AGENT_GATE_UNREACHABLE: "warning", "bank/approved-models": "warning" },
    });
    expect(printed.ruleSetDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("says whether the ignores match the file, and what kind check reads it as", async () => {
    const ignored = parsed((await run("check", "--print-config", "generated/a.agent.yaml")).stdout);
    expect(ignored).toMatchObject({ ignored: true, kind: "yaml" });
    const pattern = await run(
      "check",
      "--print-config",
      "sub/x.json",
      "--ignore-pattern",
      "sub/**",
    );
    expect(parsed(pattern.stdout)).toMatchObject({
      kind: "json",
      ignored: true,
      ignores: [
        { base: ".", patterns: ["generated/**"] },
        { base: ".", patterns: ["sub/**"] },
      ],
    });
    expect(parsed((await run("check", "--print-config", "notes.txt")).stdout).kind).toBe("unknown");
    // gate reads any file it is named as BPMN.
    expect(parsed((await run("gate", "--print-config", "notes.txt")).stdout).kind).toBe("process");
  });

  it("lets flags win, as a run would; --no-suppress reports cascades", async () => {
    const cascades = parsed(
      (await run("check", "--print-config", "a.json", "--no-suppress")).stdout,
    );
    expect(cascades.rules).toMatchObject({
      workflow: {
        NO_PATH_TO_END: ["error", { reportCascades: true }],
        CYCLE_WITHOUT_STOP: ["error", { reportCascades: true }],
      },
    });
    const { code, stdout } = await run(
      "gate",
      "--print-config",
      "a.bpmn",
      "--preset",
      "all",
      "--registry",
      "elsewhere",
      "--camunda-agents",
      "ignore",
    );
    expect(code).toBe(0);
    expect(parsed(stdout)).toMatchObject({
      preset: "all",
      registry: ["elsewhere"],
      registrySource: "--registry",
      camundaAgents: "ignore",
    });
  });

  it("with --no-config prints the built-in defaults", async () => {
    const { code, stdout } = await run(
      "check",
      "--no-config",
      "--print-config",
      "generated/a.agent.json",
      "--today",
      "2026-03-01",
    );
    expect(code).toBe(0);
    const printed = parsed(stdout);
    expect(printed).toEqual({
      file: "generated/a.agent.json",
      kind: "json",
      config: null,
      configChain: [],
      preset: "recommended",
      registry: [],
      registrySource: null,
      rules: { workflow: {}, bpmn: {} },
      plugins: [],
      policies: [],
      waivers: [],
      camundaAgents: "gate-required",
      toolEffects: {},
      gates: [],
      ignores: [],
      ignored: false,
      today: "2026-03-01",
      ruleSetDigest: printed.ruleSetDigest,
    });
    // Another rule set than the config's: the digest says so.
    const withConfig = parsed(
      (await run("check", "--print-config", "a.json", "--today", "2026-03-01")).stdout,
    );
    expect(printed.ruleSetDigest).not.toBe(withConfig.ruleSetDigest);
  });

  it("a bad config is exit 2 naming it, as in a run; an empty name is refused", async () => {
    const bad = await run("check", "--print-config", "a.json", "-c", "missing.json");
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("missing.json");
    const more = await run("gate", "--print-config", "a.bpmn", "b.bpmn");
    expect(more).toEqual({
      code: 2,
      stdout: "",
      stderr: "agentflow: --print-config takes no other paths\n",
    });
    const empty = await run("check", "--print-config", "");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      "agentflow: --print-config '' is empty: name the file (is a variable unset?)\n",
    );
  });

  it("check and gate without paths (and without --print-config) are usage mistakes", async () => {
    for (const command of ["check", "gate"]) {
      const { code, stderr } = await run(command);
      expect(code).toBe(2);
      expect(stderr).toContain("name the files, folders or glob patterns to check");
    }
  });

  it("is in check --help and gate --help; --stdin only in check's", async () => {
    const check = (await run("check", "--help")).stdout;
    const gate = (await run("gate", "--help")).stdout;
    for (const help of [check, gate]) expect(help).toContain("--print-config <file>");
    expect(check).toContain("--stdin-filename <path>");
    expect(check).toMatch(/^ {2}--stdin +/m);
    expect(gate).not.toMatch(/^ {2}--stdin/m);
  });
});
