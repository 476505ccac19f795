/**
 * `agentflow.config.json`: found upward from the working directory (no higher than the
 * repository root), or named with `-c`; `--no-config` ignores it; validated with its published
 * schema (a bad file is exit 2 naming the pointer); flags win over it.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/cli/config-schema.js";
import { CONFIG_FILE_NAME, findConfigFile, resolveConfig } from "../../src/cli/config.js";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const BROKEN = "examples/workflows/refund-autopilot.broken.agent.json";
const LOAN = "examples/processes/loan-origination.bpmn";

function configIn(dir: string, config: unknown): string {
  const file = join(dir, CONFIG_FILE_NAME);
  writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config));
  return file;
}

describe("the config file's schema", () => {
  it("is published in schemas/ as npm run schemas writes it", () => {
    const published = readFileSync("schemas/agentflow-config.schema.json", "utf8");
    expect(published).toBe(JSON.stringify(configSchema(), null, 2) + "\n");
  });
});

describe("finding agentflow.config.json", () => {
  it("finds the nearest file upward, and stops at the project root", () => {
    const top = tempDir("agentflow-config-");
    writeFileSync(join(top, "package.json"), "{}\n");
    configIn(top, {});
    const deep = join(top, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(findConfigFile(deep)).toBe(join(top, CONFIG_FILE_NAME));
    configIn(join(top, "a"), {});
    expect(findConfigFile(deep)).toBe(join(top, "a", CONFIG_FILE_NAME));
    // A repository below the file: the lookup stops at its root (a `.git` folder or file).
    const repo = join(top, "repo");
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, ".git"), "gitdir: elsewhere\n");
    expect(findConfigFile(join(repo, "src"))).toBeUndefined();
    // A package below the file is a project root too.
    const pkg = join(top, "pkg");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), "{}\n");
    expect(findConfigFile(join(pkg, "lib"))).toBeUndefined();
  });

  it("never climbs above the working directory when there is no project root", () => {
    // A shared temporary folder: its config is another project's, not this one's.
    const shared = tempDir("agentflow-config-shared-");
    configIn(shared, { rules: { AGENT_GATE_UNREACHABLE: "off" } });
    const work = join(shared, "work");
    mkdirSync(work);
    expect(findConfigFile(work)).toBeUndefined();
    configIn(work, {});
    expect(findConfigFile(work)).toBe(join(work, CONFIG_FILE_NAME));
  });

  it("a parent folder's config cannot turn BLOCKED into ALLOWED unseen", async () => {
    const shared = tempDir("agentflow-config-parent-");
    configIn(shared, {
      rules: { AGENT_GATE_UNREACHABLE: "off", TOOL_EFFECT_NEEDS_GATE: "off" },
    });
    const work = join(shared, "work");
    mkdirSync(work);
    const loan = join(process.cwd(), LOAN);
    const registry = join(process.cwd(), "examples/registry");
    const home = process.cwd();
    process.chdir(work);
    try {
      const out = await run("gate", "--registry", registry, loan);
      expect(out.code).toBe(1);
      expect(out.stdout).toContain("promotion BLOCKED");
      expect(out.stdout).toContain("config: none");
    } finally {
      process.chdir(home);
    }
  });

  it("is used from the working directory, and --no-config ignores it", async () => {
    const dir = tempDir("agentflow-config-cwd-");
    configIn(dir, { rules: { RETRY_WITHOUT_MAX: "off" } });
    const broken = join(process.cwd(), BROKEN);
    const home = process.cwd();
    process.chdir(dir);
    try {
      const found = await run("check", broken);
      // Not among the findings (the provenance line names it: changed from the preset).
      expect(found.stdout).not.toMatch(/ {2}RETRY_WITHOUT_MAX$/m);
      expect(found.stdout).toContain("RETRY_WITHOUT_MAX off (preset error)");
      const ignored = await run("check", "--no-config", broken);
      expect(ignored.stdout).toContain("RETRY_WITHOUT_MAX");
    } finally {
      process.chdir(home);
    }
  });
});

describe("agentflow check -c <config>", () => {
  it("turns a rule off and another up to error", async () => {
    const dir = tempDir("agentflow-config-rules-");
    const config = configIn(dir, {
      $schema: "../schemas/agentflow-config.schema.json",
      rules: { RETRY_WITHOUT_MAX: "off", BUDGET_MISSING: "error", LLM_NOT_STRUCTURED: "warn" },
    });
    const plain = await run("check", "--format", "json", "--no-config", BROKEN);
    const configured = await run("check", "--format", "json", "-c", config, BROKEN);
    type Out = { diagnostics: { code: string; severity: string }[] }[];
    const codes = (out: string): string[] =>
      (JSON.parse(out) as Out).flatMap((f) => f.diagnostics.map((d) => `${d.code}:${d.severity}`));
    expect(codes(plain.stdout)).toContain("RETRY_WITHOUT_MAX:error");
    expect(codes(plain.stdout)).toContain("BUDGET_MISSING:warning");
    expect(codes(configured.stdout)).not.toContain("RETRY_WITHOUT_MAX:error");
    expect(codes(configured.stdout)).toContain("BUDGET_MISSING:error");
    expect(codes(configured.stdout)).toContain("LLM_NOT_STRUCTURED:warning");
  });

  it("turns a BPMN rule down for gate, which then decides on what is left", async () => {
    const dir = tempDir("agentflow-config-bpmn-");
    const config = configIn(dir, {
      registry: relative(dir, "examples/registry"),
      rules: { TOOL_EFFECT_NEEDS_GATE: "warn", AGENT_GATE_UNREACHABLE: "off" },
    });
    const result = await run("gate", "-c", config, "--format", "json", LOAN);
    const decision = JSON.parse(result.stdout) as {
      allowed: boolean;
      blocking: unknown[];
      warnings: { code: string }[];
    };
    expect(decision.blocking).toEqual([]);
    expect(decision.warnings.map((d) => d.code)).toEqual(["TOOL_EFFECT_NEEDS_GATE"]);
    expect(decision.allowed).toBe(true);
    expect(result.code).toBe(0);
  });

  it("names the config it used, by path and hash, and the rules it changed, in every format", async () => {
    const dir = tempDir("agentflow-config-named-");
    const settings = {
      registry: relative(dir, "examples/registry"),
      rules: { TOOL_EFFECT_NEEDS_GATE: "warn", AGENT_GATE_UNREACHABLE: "off" },
    };
    const config = configIn(dir, settings);
    const hash = contentHash(settings);
    const json = JSON.parse((await run("gate", "-c", config, "--format", "json", LOAN)).stdout) as {
      config: unknown;
      ruleSet: { digest: string; changed: unknown[] };
    };
    expect(json.config).toEqual({ file: config, contentHash: hash });
    expect(json.ruleSet.changed).toEqual([
      { code: "AGENT_GATE_UNREACHABLE", preset: "error", setting: "off" },
      { code: "TOOL_EFFECT_NEEDS_GATE", preset: "error", setting: "warning" },
    ]);
    const text = await run("gate", "-c", config, LOAN);
    expect(text.stdout).toContain(
      `config: ${config} (${hash.slice(0, 19)}); changed from the preset: AGENT_GATE_UNREACHABLE off (preset error), TOOL_EFFECT_NEEDS_GATE warning (preset error)`,
    );
    expect(text.stdout).toContain(`rule set: ${json.ruleSet.digest.slice(0, 19)} (agentflow `);
    const sarif = JSON.parse(
      (await run("gate", "-c", config, "--format", "sarif", LOAN)).stdout,
    ) as {
      runs: { properties: { agentflow: { config: unknown; ruleSet: { digest: string } } } }[];
    };
    expect(sarif.runs[0]?.properties.agentflow.config).toEqual({ file: config, contentHash: hash });
    expect(sarif.runs[0]?.properties.agentflow.ruleSet.digest).toBe(json.ruleSet.digest);
  });

  it("reads registry folders relative to the config file", async () => {
    const dir = tempDir("agentflow-config-registry-");
    cpSync("examples/registry", join(dir, "reg"), { recursive: true });
    const config = configIn(dir, { registry: ["reg"] });
    const result = await run("gate", "-c", config, "--format", "json", LOAN);
    const decision = JSON.parse(result.stdout) as {
      warnings: { code: string }[];
      agentTasks: { resolution: string }[];
    };
    expect(decision.agentTasks.map((t) => t.resolution)).toEqual(["registry", "registry"]);
    expect(decision.warnings.map((d) => d.code)).not.toContain("AGENT_UNRESOLVED");
  });

  it("lets flags win: --registry over registry, --preset over preset, --camunda-agents over policy", async () => {
    const dir = tempDir("agentflow-config-flags-");
    const config = configIn(dir, {
      registry: "no-such-folder",
      preset: "all",
      policy: { camundaAgents: "ignore" },
    });
    const missing = await run("gate", "-c", config, LOAN);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no-such-folder");
    const flagged = await run(
      "gate",
      "-c",
      config,
      "--registry",
      "examples/registry",
      "--preset",
      "recommended",
      "--camunda-agents",
      "gate-required",
      "--format",
      "json",
      LOAN,
    );
    expect(flagged.code).toBe(1);
    const decision = JSON.parse(flagged.stdout) as { agentTasks: { resolution: string }[] };
    expect(decision.agentTasks.map((t) => t.resolution)).toEqual(["registry", "registry"]);
  });

  it.each([
    [{ rules: { NOPE: "off" } }, "/rules/NOPE: is not the code of a rule; only rules can be set"],
    [
      { rules: { UNKNOWN_PROPERTY: "off" } },
      "/rules/UNKNOWN_PROPERTY: is not the code of a rule; only rules can be set here (docs/rules), not what reading a file reports (STRUCTURE_INVALID, UNKNOWN_PROPERTY…)",
    ],
    [
      { rules: { RETRY_WITHOUT_MAX: "warning" } },
      "/rules/RETRY_WITHOUT_MAX: must be equal to one of the allowed values (expected off, warn, error)",
    ],
    [
      { preset: "max" },
      "/preset: must be equal to one of the allowed values (expected recommended, strict, all)",
    ],
    [{ registries: "x" }, "/registries: is not a setting agentflow knows"],
    [{ ignores: "x" }, "/ignores: must be array"],
    [
      { policy: { camundaAgents: "never" } },
      "/policy/camundaAgents: must be equal to one of the allowed values",
    ],
    ["{ not json", "1:3: not JSON: Expected property name or '}'"],
  ])("a bad config %j is exit 2 with the pointer", async (config, message) => {
    const file = configIn(tempDir("agentflow-config-bad-"), config);
    for (const command of ["check", "gate"]) {
      const result = await run(command, "-c", file, command === "gate" ? LOAN : BROKEN);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `agentflow: ${file}${message.startsWith("/") ? ": " : ":"}${message}`,
      );
    }
  });

  it("a missing config file is exit 2", async () => {
    const result = await run("check", "-c", "no/such/agentflow.config.json", BROKEN);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "agentflow: cannot read the config file 'no/such/agentflow.config.json': no such file or directory\n",
    );
  });

  it("a registry that cannot be used says it is the registry, and where it was set", async () => {
    const dir = tempDir("agentflow-config-registry-");
    mkdirSync(join(dir, "emptyreg"));
    writeFileSync(join(dir, "file.json"), "{}");
    const nope = relative(process.cwd(), join(dir, "nope"));
    const cases: [unknown, string][] = [
      [
        { registry: "nope" },
        `the registry (registry in ${join(dir, CONFIG_FILE_NAME)}): cannot read '${nope}': no such file or directory`,
      ],
      [
        { registry: "emptyreg" },
        `the registry (registry in ${join(dir, CONFIG_FILE_NAME)}): '${relative(process.cwd(), join(dir, "emptyreg"))}' holds no .json, .yaml or .yml file`,
      ],
      [
        { registry: "file.json" },
        `the registry '${relative(process.cwd(), join(dir, "file.json"))}' (registry in ${join(dir, CONFIG_FILE_NAME)}) is not a folder`,
      ],
    ];
    for (const [config, message] of cases) {
      const file = configIn(dir, config);
      for (const command of ["check", "gate"]) {
        const result = await run(command, "-c", file, command === "gate" ? LOAN : BROKEN);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`agentflow: ${message}`);
      }
    }
    const flag = await run("check", "--registry", join(dir, "emptyreg"), BROKEN);
    expect(flag.stderr).toBe(
      `agentflow: the registry (--registry): '${join(dir, "emptyreg")}' holds no .json, .yaml or .yml file\n`,
    );
  });

  it("a config that is not JSON is placed by line and column, as an editor jumps to it", async () => {
    const dir = tempDir("agentflow-config-bad-");
    const file = join(dir, "agentflow.config.json");
    writeFileSync(file, '{\n  "preset": "strict",\n}\n');
    const result = await run("check", "-c", file, BROKEN);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `agentflow: ${file}:3:1: not JSON: Expected double-quoted property name\n`,
    );
  });

  it("a config saved with a UTF-8 byte-order mark is read as the JSON it holds", async () => {
    const dir = tempDir("agentflow-config-bom-");
    const file = join(dir, "agentflow.config.json");
    writeFileSync(file, "\uFEFF" + JSON.stringify({ rules: { RETRY_WITHOUT_MAX: "off" } }));
    const result = await run("check", "-c", file, BROKEN);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toMatch(/ {2}RETRY_WITHOUT_MAX$/m);
  });

  it('"registry": [] says what a registry may be, not "must be string"', async () => {
    const dir = tempDir("agentflow-config-empty-registry-");
    const file = configIn(dir, { registry: [] });
    const result = await run("check", "-c", file, BROKEN);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `agentflow: ${file}: /registry: must be a folder, or a non-empty list of folders, of workflows and tool contracts, relative to this file\n`,
    );
  });

  it("-c naming a FIFO is exit 2 at once, not a run waiting for a writer", async () => {
    const fifo = join(tempDir("agentflow-config-fifo-"), "agentflow.config.json");
    execFileSync("mkfifo", [fifo]);
    const result = await run("check", "-c", fifo, BROKEN);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `agentflow: cannot read the config file '${fifo}': it is a FIFO (named pipe), not a regular file\n`,
    );
  });
});

describe("a config that exists but cannot be read", () => {
  it("found as agentflow.config.json, a broken link, a folder, a FIFO or a device is exit 2 naming it", async () => {
    const dir = tempDir("agentflow-config-odd-");
    writeFileSync(join(dir, "package.json"), "{}\n");
    const file = join(dir, CONFIG_FILE_NAME);
    const cases: [() => void, string][] = [
      [
        () => {
          symlinkSync(join(dir, "shared/org.config.json"), file);
        },
        "it is a broken symbolic link",
      ],
      [
        () => {
          mkdirSync(file);
        },
        "it is a directory, not a regular file",
      ],
      [() => execFileSync("mkfifo", [file]), "it is a FIFO (named pipe), not a regular file"],
      [
        () => {
          symlinkSync("/dev/null", file);
        },
        "it is a character device, not a regular file",
      ],
    ];
    for (const [make, problem] of cases) {
      rmSync(file, { recursive: true, force: true });
      make();
      // Found, not passed over for a config higher up or none: the run must not go on without it.
      expect(findConfigFile(dir)).toBe(file);
      await expect(resolveConfig(undefined, dir)).rejects.toThrow(
        `cannot read the config file '${CONFIG_FILE_NAME}': ${problem}`,
      );
    }
  });

  it("gate with a discovered config that is a broken link is exit 2, not ALLOWED without it", async () => {
    const dir = tempDir("agentflow-config-link-");
    writeFileSync(join(dir, "package.json"), "{}\n");
    symlinkSync("shared/org.config.json", join(dir, CONFIG_FILE_NAME));
    const loan = join(process.cwd(), LOAN);
    const home = process.cwd();
    process.chdir(dir);
    try {
      const out = await run("gate", loan);
      expect([out.code, out.stdout, out.stderr]).toEqual([
        2,
        "",
        "agentflow: cannot read the config file 'agentflow.config.json': it is a broken symbolic link\n",
      ]);
    } finally {
      process.chdir(home);
    }
  });

  it("a config too large to be text (a sparse file) is exit 2 naming it, -c and extends alike", async () => {
    const dir = tempDir("agentflow-config-huge-");
    writeFileSync(join(dir, "package.json"), "{}\n");
    const huge = join(dir, "huge.json");
    writeFileSync(huge, "");
    // Sparse: 600 MiB by its size, nothing on disk; refused by its size before it is read.
    truncateSync(huge, 600 * 2 ** 20);
    const problem = "it is 600 MiB, more than the 512 MiB agentflow reads as text";
    await expect(resolveConfig("huge.json", dir)).rejects.toThrow(
      `cannot read the config file 'huge.json': ${problem}`,
    );
    configIn(dir, { extends: "./huge.json" });
    await expect(resolveConfig(undefined, dir)).rejects.toThrow(
      `agentflow.config.json: extends './huge.json': cannot read the config file 'huge.json': ${problem}`,
    );
  });
});

describe("a config with a key given twice", () => {
  it("is refused with DUPLICATE_KEY naming the key and the file, not read last-wins", async () => {
    const dir = tempDir("agentflow-config-dup-");
    writeFileSync(join(dir, "package.json"), "{}\n");
    const twice = [
      "{",
      '  "registry": "registry",',
      '  "rules": { "TOOL_EFFECT_NEEDS_GATE": "error" },',
      '  "rules": { "TOOL_EFFECT_NEEDS_GATE": "off" }',
      "}",
    ].join("\n");
    configIn(dir, twice);
    await expect(resolveConfig(undefined, dir)).rejects.toThrow(
      'agentflow.config.json:4:3: DUPLICATE_KEY Key "rules" appears more than once in the top-level mapping; only one value could be kept.',
    );
    // In a nested mapping, and in a config the config extends.
    writeFileSync(
      join(dir, "org.json"),
      '{ "rules": { "BUDGET_MISSING": "error", "BUDGET_MISSING": "off" } }',
    );
    configIn(dir, { extends: "./org.json" });
    await expect(resolveConfig(undefined, dir)).rejects.toThrow(
      `agentflow.config.json: extends './org.json': org.json:1:41: DUPLICATE_KEY Key "BUDGET_MISSING" appears more than once in the mapping at /rules; only one value could be kept.`,
    );
  });
});
