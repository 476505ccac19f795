/**
 * Every way a plugin, a policy pack or the config about them can be wrong is exit 2 with one
 * exact line, before any document is read; a plugin rule that fails while running is
 * RULE_CRASHED and blocks (fail closed).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PolicyRepo } from "./policy-repo.js";
import { configFile, inRepo, policyRepo } from "./policy-repo.js";
import { run, STACK_LINE } from "./run.js";

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

/** Runs gate with a config of `config` merged over nothing, and returns its one stderr line. */
async function refused(name: string, config: unknown): Promise<string> {
  configFile(repo, name, config);
  const out = await gate("-c", name);
  expect(out.code).toBe(2);
  expect(out.stdout).toBe("");
  expect(out.stderr).not.toMatch(STACK_LINE);
  return out.stderr;
}

describe("what is wrong with a plugin or a pack is exit 2, said in one line", () => {
  it("a plugin outside the repository is never loaded", async () => {
    const evil = join(repo.outside, "evil.js");
    const line = await refused("outside.config.json", { plugins: { acme: evil } });
    expect(line).toBe(
      `agentflow: outside.config.json: plugin 'acme': '${evil}' resolves to ${evil}, outside the repository (${repo.dir}); a config loads plugins from inside its repository only, since loading one runs its code\n`,
    );
  });

  it("a link inside the repository to a plugin outside it is refused too", async () => {
    const line = await refused("link.config.json", { plugins: { acme: "./policy/linked.js" } });
    expect(line).toBe(
      `agentflow: link.config.json: plugin 'acme': './policy/linked.js' resolves to ${join(repo.outside, "evil.js")}, outside the repository (${repo.dir}); a config loads plugins from inside its repository only, since loading one runs its code\n`,
    );
  });

  it("a relative path climbing out of the repository is refused the same way", async () => {
    const line = await refused("climb.config.json", { plugins: { acme: "../x/evil.js" } });
    expect(line).toBe(
      `agentflow: climb.config.json: plugin 'acme': '../x/evil.js' resolves to ${join(repo.dir, "../x/evil.js")}, outside the repository (${repo.dir}); a config loads plugins from inside its repository only, since loading one runs its code\n`,
    );
  });

  it("a rule with a bad meta names the plugin's file and the rule", async () => {
    const line = await refused("meta.config.json", { plugins: { bad: "./policy/bad-meta.js" } });
    expect(line).toBe(
      `agentflow: meta.config.json: plugin 'bad' (${join(repo.dir, "policy/bad-meta.js")}): defineRule: FATAL meta.defaultSeverity must be one of error, warning, info\n`,
    );
  });

  it("a module that is no plugin, or no module at all", async () => {
    const none = await refused("none.config.json", { plugins: { x: "./policy/bank.policy.yaml" } });
    expect(none).toMatch(
      /^agentflow: none\.config\.json: plugin 'x' \(.*bank\.policy\.yaml\): cannot be loaded: /,
    );
    const missing = await refused("missing.config.json", { plugins: { x: "./policy/nope.js" } });
    expect(missing).toBe(
      `agentflow: missing.config.json: plugin 'x': './policy/nope.js' does not exist (looked for ${join(repo.dir, "policy/nope.js")})\n`,
    );
    const pkg = await refused("pkg.config.json", { plugins: { x: "agentflow-plugin-nowhere" } });
    expect(pkg).toMatch(
      /^agentflow: pkg\.config\.json: plugin 'x': cannot find the package 'agentflow-plugin-nowhere' /,
    );
  });

  it("a pack with a syntax error, an unknown fact or an unknown subject", async () => {
    expect(await refused("syntax.config.json", { policies: ["policy/syntax.policy.yaml"] })).toBe(
      "agentflow: policy/syntax.policy.yaml:3:1: cannot be read as YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ].\n",
    );
    expect(
      await refused("fact.config.json", { policies: ["policy/unknown-fact.policy.yaml"] }),
    ).toBe(
      "agentflow: policy/unknown-fact.policy.yaml:8:11: rule no-commitments-above-2: when: unknown fact 'levl' (facts of agentTask: process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread)\n",
    );
    expect(
      await refused("subject.config.json", { policies: ["policy/unknown-subject.policy.yaml"] }),
    ).toBe(
      'agentflow: policy/unknown-subject.policy.yaml:7:10: rule no-commitments-above-2: for: unknown subject "agent" (subjects: agentTask, workflow, tool, process)\n',
    );
  });

  it("a pack outside the repository, or named as a plugin is", async () => {
    expect(await refused("far.config.json", { policies: ["../elsewhere.policy.yaml"] })).toBe(
      `agentflow: far.config.json: policy pack '../elsewhere.policy.yaml' resolves to ${join(repo.dir, "../elsewhere.policy.yaml")}, outside the repository (${repo.dir})\n`,
    );
    expect(await refused("linked.config.json", { policies: ["policy/linked.policy.yaml"] })).toBe(
      `agentflow: linked.config.json: policy pack 'policy/linked.policy.yaml' resolves to ${join(repo.outside, "evil.policy.yaml")}, outside the repository (${repo.dir})\n`,
    );
    const clash = await refused("clash.config.json", {
      plugins: { bank: "./policy/acme.js" },
      policies: ["policy/bank.policy.yaml"],
    });
    expect(clash).toBe(
      "agentflow: clash.config.json: policy pack policy/bank.policy.yaml is named 'bank', as plugin 'bank' is; the name prefixes rule codes, so it must be unique\n",
    );
  });

  it("a namespaced rule code no plugin or pack defines", async () => {
    expect(await refused("code.config.json", { ...BASE, rules: { "acme/NOPE": "off" } })).toBe(
      "agentflow: code.config.json: /rules/acme~1NOPE: no plugin or policy pack of the config defines this rule (plugin and pack rules: acme/LEVEL_CAP, acme/MODEL_ALLOWED, bank/no-commitments-above-2)\n",
    );
    expect(await refused("none2.config.json", { rules: { "acme/LEVEL_CAP": "off" } })).toBe(
      "agentflow: none2.config.json: /rules/acme~1LEVEL_CAP: no plugin or policy pack of the config defines this rule (plugin and pack rules: none: the config names no plugin or policy pack)\n",
    );
  });

  it("options a rule's schema refuses, an unknown plugin config, a bad --today", async () => {
    expect(
      await refused("opts.config.json", {
        ...BASE,
        rules: { "acme/LEVEL_CAP": ["error", { cap: 3 }] },
      }),
    ).toBe(
      "agentflow: opts.config.json: /rules/acme~1LEVEL_CAP: options must NOT have additional properties\n",
    );
    expect(
      await refused("noopts.config.json", {
        ...BASE,
        rules: { "bank/no-commitments-above-2": ["error", { x: 1 }] },
      }),
    ).toBe(
      "agentflow: noopts.config.json: /rules/bank~1no-commitments-above-2: this rule takes no options\n",
    );
    expect(
      await refused("required.config.json", { plugins: { models: "./policy/needs-options.js" } }),
    ).toBe(
      "agentflow: required.config.json: rule 'models/ALLOWED' runs by default, and options must have required property 'models'; give its options in /rules/models~1ALLOWED, or turn it off\n",
    );
    expect(await refused("ext.config.json", { ...BASE, extends: ["acme/strict"] })).toBe(
      "agentflow: ext.config.json: extends 'acme/strict': plugin 'acme' has no config 'strict' (its configs: lenient, recommended)\n",
    );
    const today = await inRepo(repo, () =>
      run("gate", "--today", "2027-02-30", "processes/loan.bpmn"),
    );
    expect(today.code).toBe(2);
    expect(today.stderr).toBe(
      "agentflow: --today needs a calendar date written YYYY-MM-DD, got '2027-02-30'\n",
    );
  });

  it("the config's new settings, malformed, are named by their pointer", async () => {
    expect(await refused("name.config.json", { plugins: { Acme: "./policy/acme.js" } })).toBe(
      "agentflow: name.config.json: /plugins/Acme: is not a plugin name (lowercase letters, digits, '.', '_' and '-'; it prefixes the plugin's rule codes)\n",
    );
    expect(
      await refused("tuple.config.json", { ...BASE, rules: { "acme/LEVEL_CAP": ["error"] } }),
    ).toBe(
      'agentflow: tuple.config.json: /rules/acme~1LEVEL_CAP: must be "off", "warn" or "error", or for a plugin\'s or a pack\'s rule ["off" | "warn" | "error", { options }]\n',
    );
    // A bare name is a shared config's package now (config-extends.test.ts), not a plugin's config.
    expect(await refused("extends.config.json", { ...BASE, extends: [7] })).toBe(
      'agentflow: extends.config.json: /extends: must be a config to extend, or a list of them: a path ("./org.config.json"), a package ("@org/agentflow-config") or a plugin\'s config ("<plugin>/<config>")\n',
    );
    expect(await refused("bad.config.json", { ...BASE, extends: ["Acme Corp"] })).toBe(
      'agentflow: bad.config.json: extends \'Acme Corp\': is neither a path ("./org.config.json"), a package ("@org/agentflow-config", "org-config/strict.json") nor a plugin\'s config ("<plugin>/<config>")\n',
    );
    expect(await refused("noplugin.config.json", { extends: ["nope/recommended"] })).toBe(
      "agentflow: noplugin.config.json: extends 'nope/recommended': the config names no plugin 'nope'\n",
    );
  });

  it("-o may not overwrite a plugin or a pack of the config", async () => {
    const out = await gate("-o", "policy/bank.policy.yaml");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("a policy pack of the config");
  });
});

describe("a plugin rule that fails while running blocks (fail closed)", () => {
  it("a rule that throws is RULE_CRASHED, exit 1", async () => {
    configFile(repo, "throws.config.json", {
      registry: "registry",
      plugins: { boom: "./policy/throws.js" },
    });
    const out = await gate("-c", "throws.config.json", "-f", "json");
    expect(out.code).toBe(1);
    const decision = JSON.parse(out.stdout) as { blocking: { code: string; message: string }[] };
    expect(decision.blocking.find((d) => d.code === "RULE_CRASHED")?.message).toContain(
      "boom/EXPLODES",
    );
    expect(decision.blocking.find((d) => d.code === "RULE_CRASHED")?.message).toContain(
      "lookup table missing",
    );
  });

  it("a rule reporting a messageId its meta lacks is RULE_CRASHED naming the id, exit 1", async () => {
    configFile(repo, "typo.config.json", {
      registry: "registry",
      plugins: { typo: "./policy/misreports.js" },
    });
    const out = await gate("-c", "typo.config.json", "-f", "json");
    expect(out.code).toBe(1);
    const decision = JSON.parse(out.stdout) as { blocking: { code: string; message: string }[] };
    const crash = decision.blocking.find((d) => d.code === "RULE_CRASHED");
    expect(crash?.message).toContain("typo/MISNAMED");
    expect(crash?.message).toContain(
      "it reported messageId 'toohigh', which its meta.messages does not define (defined: default, tooHigh)",
    );
  });
});
