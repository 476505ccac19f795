/**
 * Plugins and policy packs named in `agentflow.config.json`: their rules judge `gate` and
 * `check` as `<name>/<CODE>` in every format, and the rule set names each with its version and
 * hash. What can go wrong with them is in policy-errors.test.ts.
 */
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./built.js";
import type { PolicyRepo } from "./policy-repo.js";
import { ACME, acmeGraphHash, configFile, inRepo, policyRepo, short } from "./policy-repo.js";
import { run } from "./run.js";

let repo: PolicyRepo;
const BASE = {
  registry: "registry",
  plugins: { acme: "./policy/acme.js" },
  policies: ["policy/bank.policy.yaml"],
};

beforeAll(() => {
  repo = policyRepo();
  configFile(repo, "agentflow.config.json", BASE);
});

const gate = (...args: string[]): ReturnType<typeof run> =>
  inRepo(repo, () => run("gate", ...args, "processes/loan.bpmn"));

describe("a plugin's and a pack's rules in gate", () => {
  it("text: their findings carry their codes, and the rule set names both", async () => {
    const out = await gate();
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("");
    const lines = out.stdout.split("\n");
    expect(lines).toContain("processes/loan.bpmn: promotion BLOCKED (4 blocking, 0 warning(s))");
    expect(lines).toContain(
      '  54:23  error    agent task "Draft and send offer" runs at level 3, above 2  acme/LEVEL_CAP',
    );
    expect(lines).toContain(
      "  54:23  error    Draft and send offer runs at level 3 and can commit the bank  bank/no-commitments-above-2",
    );
    const footer = lines.find((l) => l.startsWith("rule set: "));
    expect(footer).toMatch(
      new RegExp(
        `^rule set: sha256:[0-9a-f]{12} \\(agentflow [^,]+, preset recommended; plugin acme@1\\.0\\.0 ${short(repo.acmeHash)}, policy pack bank@1\\.2\\.0 ${short(repo.bankHash)}\\)$`,
      ),
    );
  });

  it("json: the decision's rule set lists the extensions, pinned", async () => {
    const out = await gate("-f", "json");
    const decision = JSON.parse(out.stdout) as {
      allowed: boolean;
      blocking: { code: string }[];
      ruleSet: { extensions: unknown[]; digest: string };
    };
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => d.code)).toEqual([
      "AGENT_GATE_UNREACHABLE",
      "TOOL_EFFECT_NEEDS_GATE",
      "acme/LEVEL_CAP",
      "bank/no-commitments-above-2",
    ]);
    expect(decision.ruleSet.extensions).toEqual([
      { kind: "plugin", name: "acme", version: "1.0.0", sha256: repo.acmeHash },
      { kind: "policy", name: "bank", version: "1.2.0", sha256: repo.bankHash },
    ]);
  });

  it("sarif: each extension is a tool component, and its results point at it", async () => {
    const out = await gate("-f", "sarif");
    const run0 = (
      JSON.parse(out.stdout) as {
        runs: {
          tool: {
            extensions: {
              name: string;
              version: string;
              properties: { sha256: string };
              rules: { id: string; helpUri: string }[];
            }[];
          };
          results: { ruleId: string; rule?: { toolComponent: { index: number } } }[];
        }[];
      }
    ).runs[0];
    const extensions = run0?.tool.extensions ?? [];
    expect(extensions.map((e) => [e.name, e.version, e.properties.sha256])).toEqual([
      ["acme", "1.0.0", repo.acmeHash],
      ["bank", "1.2.0", repo.bankHash],
    ]);
    // Help links: a plugin's URL as written, its relative docs from its module's folder; a
    // pack rule's place in the pack.
    expect(extensions[0]?.rules.map((r) => r.helpUri)).toEqual([
      "https://policy.example.com/acme/LEVEL_CAP",
      `file://${join(repo.dir, "policy/docs/MODEL_ALLOWED.md")}`,
    ]);
    expect(extensions[1]?.rules.map((r) => r.helpUri)).toEqual([
      `file://${join(repo.dir, "policy/bank.policy.yaml")}#no-commitments-above-2`,
    ]);
    const byCode = new Map(run0?.results.map((r) => [r.ruleId, r.rule?.toolComponent.index]));
    expect(byCode.get("acme/LEVEL_CAP")).toBe(0);
    expect(byCode.get("bank/no-commitments-above-2")).toBe(1);
    expect(byCode.get("AGENT_GATE_UNREACHABLE")).toBeUndefined();
  });

  it("junit and gitlab name the extensions and the rule set", async () => {
    const junit = (await gate("-f", "junit")).stdout;
    expect(junit).toContain(
      `<property name="agentflow.extension.acme" value="plugin 1.0.0 ${repo.acmeHash}"/>`,
    );
    expect(junit).toContain(
      `<property name="agentflow.extension.bank" value="policy 1.2.0 ${repo.bankHash}"/>`,
    );
    expect(junit).toContain("see https://policy.example.com/acme/LEVEL_CAP");
    const json = JSON.parse((await gate("-f", "json")).stdout) as { ruleSet: { digest: string } };
    const issues = JSON.parse((await gate("-f", "gitlab")).stdout) as {
      check_name: string;
      agentflow: { ruleSet: string };
    }[];
    expect(issues.map((i) => i.check_name)).toContain("acme/LEVEL_CAP");
    expect(issues.every((i) => i.agentflow.ruleSet === json.ruleSet.digest)).toBe(true);
  });

  it("the same in worker threads as on one (each worker loads the plugin again)", async () => {
    mkdirSync(join(repo.dir, "copies"), { recursive: true });
    cpSync(join(repo.dir, "processes/loan.bpmn"), join(repo.dir, "copies/loan.bpmn"));
    const args = ["gate", "-f", "json", "processes/loan.bpmn", "copies/loan.bpmn"];
    const one = await inRepo(repo, () => run(...args));
    // The built CLI: a worker thread from the sources would compile agentflow again.
    const two = builtCli([...args, "--concurrency", "2"], repo.dir);
    expect(two.debug).toContain("2 file(s) in 2 worker thread(s)");
    expect(two.code).toBe(1);
    expect(two.stdout).toContain("acme/LEVEL_CAP");
    expect(two.stdout).toBe(one.stdout);
  });

  it("rule options from the config reach the rule; extends applies under the file's rules", async () => {
    configFile(repo, "capped.config.json", {
      ...BASE,
      rules: { "acme/LEVEL_CAP": ["error", { max: 3 }] },
    });
    const capped = await gate("-c", "capped.config.json", "-f", "json");
    expect(JSON.parse(capped.stdout)).toMatchObject({ blocking: { length: 3 } });
    configFile(repo, "lenient.config.json", { ...BASE, extends: ["acme/lenient"] });
    const lenient = await gate("-c", "lenient.config.json");
    const lines = lenient.stdout.split("\n");
    // No finding of it; the provenance line says it was turned off, against its own default.
    expect(lines.filter((l) => !l.startsWith("config: ")).join("\n")).not.toContain(
      "acme/LEVEL_CAP",
    );
    expect(lines.find((l) => l.startsWith("config: "))).toMatch(
      /; changed from the preset: acme\/LEVEL_CAP off \(preset error\)$/,
    );
    configFile(repo, "own.config.json", {
      ...BASE,
      extends: ["acme/lenient"],
      rules: { "acme/LEVEL_CAP": "warn" },
    });
    const own = await gate("-c", "own.config.json");
    expect(own.stdout).toContain(
      'warning  agent task "Draft and send offer" runs at level 3, above 2  acme/LEVEL_CAP',
    );
  });
});

describe("a plugin named by its npm package", () => {
  it("is resolved from the config's folder and loaded as the path would be", async () => {
    // A package whose exports offer `import` only, as many ES module packages do.
    const dir = join(repo.dir, "node_modules/@acme/agentflow-rules");
    mkdirSync(join(dir, "esm"), { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "@acme/agentflow-rules",
        type: "module",
        exports: { ".": { import: "./esm/index.js" } },
      }),
    );
    writeFileSync(join(dir, "esm/index.js"), ACME);
    configFile(repo, "package.config.json", {
      ...BASE,
      plugins: { acme: "@acme/agentflow-rules" },
    });
    const out = await gate("-c", "package.config.json", "-f", "json");
    const decision = JSON.parse(out.stdout) as {
      blocking: { code: string }[];
      ruleSet: { extensions: unknown[] };
    };
    expect(decision.blocking.map((d) => d.code)).toContain("acme/LEVEL_CAP");
    expect(decision.ruleSet.extensions).toContainEqual({
      kind: "plugin",
      name: "acme",
      version: "1.0.0",
      // The same module, at another path of the repository: its graph names that path.
      sha256: acmeGraphHash("node_modules/@acme/agentflow-rules/esm/index.js"),
    });
  });

  it("a package linked in from outside the repository is refused", async () => {
    const link = join(repo.dir, "node_modules/linked-rules");
    symlinkSync(repo.outside, link);
    writeFileSync(join(repo.outside, "index.js"), ACME);
    configFile(repo, "linkpkg.config.json", { plugins: { acme: "linked-rules" } });
    const out = await gate("-c", "linkpkg.config.json");
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `agentflow: linkpkg.config.json: plugin 'acme': 'linked-rules' resolves to ${join(repo.outside, "index.js")}, outside the repository (${repo.dir}); a config loads plugins from inside its repository only, since loading one runs its code\n`,
    );
  });
});

describe("a plugin's workflow rule in check", () => {
  it("reports on the workflow's node, with its code and the plugin's default severity", async () => {
    const out = await inRepo(repo, () => run("check", "agents"));
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      '  29:18  warning  node "plan-queries" uses mistral-large, which is not allowed  acme/MODEL_ALLOWED',
    );
  });
});
