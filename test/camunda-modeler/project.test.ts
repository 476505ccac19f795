/**
 * A diagram's project settings as the Modeler plug-in reads them: the config that applies (found
 * as `agentflow check` finds it, through the Modeler's file reader), what it sets that the
 * Modeler applies, what it cannot apply, and every way it cannot be read, each said.
 */
import { describe, expect, it } from "vitest";
import type { ProjectConfig } from "../../src/camunda-modeler/project-config.js";
import { readProjectConfig, ruleCategories } from "../../src/camunda-modeler/project-config.js";
import type { FileRead, ReadFile } from "../../src/camunda-modeler/project-read.js";
import { readProject } from "../../src/camunda-modeler/project-read.js";
import { configProperties } from "../../src/cli/config-schema.js";

const PACK = `kind: PolicyPack
name: bank
version: 1.0.0
rules:
  - id: high
    severity: error
    for: agentTask
    when: level >= 4
`;

/** A disk of files and folders, read as the Modeler's reader answers; records what was read. */
function disk(files: Readonly<Record<string, string | FileRead>>, folders: readonly string[]) {
  const reads: string[] = [];
  const read: ReadFile = (path) => {
    reads.push(path);
    const file = files[path];
    if (typeof file === "string") return Promise.resolve({ kind: "text", text: file });
    if (file !== undefined) return Promise.resolve(file);
    return Promise.resolve(folders.includes(path) ? { kind: "folder" } : { kind: "missing" });
  };
  return { read, reads };
}

const config = (text: string): ProjectConfig => readProjectConfig("/p/agentflow.config.json", text);

describe("readProjectConfig", () => {
  it("applies rule levels, gates, effects, the Camunda policy, waivers and packs", () => {
    const read = config(
      JSON.stringify({
        $schema: "../schemas/agentflow-config.schema.json",
        preset: "strict",
        rules: {
          AGENT_UNRESOLVED: "off",
          AGENT_GATE_OPTIONAL: "error",
          DUPLICATE_NODE_ID: "warn",
          "bank/high": ["warn", { limit: 2 }],
        },
        policies: ["policy/bank.policy.yaml"],
        policy: { camundaAgents: "gate-optional" },
        gates: [{ template: "dev.agentflow.approval-gate" }],
        toolEffects: { "io.camunda:http-json:1": "read" },
        registry: "registry",
        ignores: ["drafts/**"],
      }),
    );
    // The registry cannot be read here, and its documents may judge an agent more strictly than
    // its embedded snapshot: an error, while every other setting still applies.
    expect(read.problems.map((p) => p.split(": ")[1])).toEqual(["/registry"]);
    expect(read.preset).toBe("strict");
    expect(read.categories).toEqual({ "agent-unresolved": "off", "agent-gate-optional": "error" });
    expect(read.workflowRules).toEqual({ DUPLICATE_NODE_ID: "warning" });
    expect(read.policies).toEqual(["policy/bank.policy.yaml"]);
    expect(read.camundaAgents).toBe("gate-optional");
    expect(read.gates).toEqual([{ template: "dev.agentflow.approval-gate" }]);
    expect(read.toolEffects).toEqual({ "io.camunda:http-json:1": "read" });
    expect(read.unapplied.map((u) => u.split(": ")[1])).toEqual(["/ignores", "/rules/bank~1high"]);
  });

  it("says every setting it cannot apply or that is wrong, naming the file and the place", () => {
    const read = config(
      JSON.stringify({
        extends: ["acme/recommended"],
        plugins: { acme: "./acme.js" },
        preset: "lenient",
        rules: {
          NOT_A_RULE: "error",
          AGENT_GATE_BYPASS: ["error", {}],
          AGENT_UNRESOLVED: "loud",
          AGENT_GATE_OPTIONAL: "constructor",
        },
        policy: { camundaAgents: "trust" },
        gates: [{ role: "legal" }],
        toolEffects: { "io.camunda:slack:1": "sends" },
        waivers: "none",
        rule: {},
      }),
    );
    const at = (p: string) => p.replace("/p/agentflow.config.json: ", "").split(":")[0];
    expect(read.problems.map(at)).toEqual([
      "/rule",
      "/extends",
      "/plugins",
      "/preset",
      "/rules/NOT_A_RULE",
      "/rules/AGENT_GATE_BYPASS",
      "/rules/AGENT_UNRESOLVED",
      "/rules/AGENT_GATE_OPTIONAL",
      "/policy",
      "/gates/0 names no criterion (id, candidateGroup, template or property)",
      '/toolEffects["io.camunda',
      "/waivers must be a list of waivers",
    ]);
    // A wrong setting is left out: its default applies.
    expect(read.gates).toBeUndefined();
    expect(read.camundaAgents).toBeUndefined();
    expect(read.categories).toEqual({});
  });

  it("checks each waiver where it is written, and applies none when one is malformed", () => {
    const good = {
      rule: "AGENT_GATE_UNREACHABLE",
      process: "Loans",
      reason: "pilot",
      grantedBy: "cro",
      expires: "2030-01-01",
    };
    expect(config(JSON.stringify({ waivers: [good] }))).toMatchObject({
      problems: [],
      waivers: [good],
    });
    const read = config(
      JSON.stringify({
        waivers: [good, { ...good, expires: "2030-02-30" }, "all", { rule: "X", workflow: "w" }],
      }),
    );
    expect(read.problems).toEqual([
      '/p/agentflow.config.json: /waivers/1.expires: "2030-02-30" is not a calendar date written YYYY-MM-DD',
      "/p/agentflow.config.json: /waivers/2: must be a mapping, not a string",
      "/p/agentflow.config.json: /waivers/3: missing 'reason'",
      "/p/agentflow.config.json: /waivers/3: missing 'grantedBy'",
      "/p/agentflow.config.json: /waivers/3: missing 'expires'",
      '/p/agentflow.config.json: /waivers/3.workflow: "w" is not written id@version',
    ]);
    expect(read.waivers).toBeUndefined();
    expect(ruleCategories(read, false).waived).toBe("off");
  });

  it("knows exactly the settings of the config schema, and places a JSON error as the CLI", () => {
    for (const key of Object.keys(configProperties())) {
      expect(config(JSON.stringify({ [key]: null })).problems.join("\n")).not.toContain(
        `/${key}: is not a setting agentflow knows`,
      );
    }
    expect(config('{"cache": true}').problems).toEqual([
      "/p/agentflow.config.json: /cache: is not a setting agentflow knows",
    ]);
    const text = '\uFEFF{\n  "preset": "strict",\n}';
    expect(config(text).problems).toEqual([
      expect.stringMatching(/^\/p\/agentflow\.config\.json:3:1: not JSON: /) as unknown,
    ]);
  });

  it("says where a config is not JSON, and that a non-object is no config", () => {
    expect(config('{ "rules": }').problems).toEqual([
      expect.stringMatching(/^\/p\/agentflow\.config\.json:1:\d+: not JSON: /) as unknown,
    ]);
    expect(config("[]").problems).toEqual(["/p/agentflow.config.json: must be a JSON object"]);
    expect(config("\uFEFF{}").problems).toEqual([]);
  });

  it("puts policy at error only with packs, and waived at info with packs or waivers", () => {
    const none = ruleCategories(undefined, false);
    expect([none.policy, none.waived, none["agent-gate-bypass"], none["agent-unresolved"]]).toEqual(
      ["off", "off", "error", "warn"],
    );
    expect([
      ruleCategories(undefined, true).policy,
      ruleCategories(undefined, true).waived,
    ]).toEqual(["error", "info"]);
    const waivers = config(
      JSON.stringify({
        waivers: [
          {
            rule: "AGENT_GATE_UNREACHABLE",
            process: "Loans",
            reason: "r",
            grantedBy: "a@b.c",
            expires: "2030-01-01",
          },
        ],
      }),
    );
    expect(ruleCategories(waivers, false).waived).toBe("info");
    expect(
      ruleCategories(config('{"rules":{"AGENT_UNRESOLVED":"off"}}'), false)["agent-unresolved"],
    ).toBe("off");
  });
});

describe("readProject", () => {
  it("finds the nearest config up to the project root, and compiles its packs", async () => {
    const { read } = disk(
      {
        "/w/repo/agentflow.config.json": '{ "policies": ["policy/bank.policy.yaml"] }',
        "/w/repo/policy/bank.policy.yaml": PACK,
      },
      ["/w/repo/.git"],
    );
    const project = await readProject("/w/repo/processes/loan/loan.bpmn", read);
    expect(project.problems).toEqual([]);
    expect(project.config?.file).toBe("/w/repo/agentflow.config.json");
    expect(project.packs.map((p) => p.name)).toEqual(["bank"]);
  });

  it("reads no config above the project root, nor above the folder without a root", async () => {
    const above = disk({ "/w/agentflow.config.json": "{}", "/w/repo/package.json": "{}" }, []);
    expect(await readProject("/w/repo/loan.bpmn", above.read)).toEqual({ packs: [], problems: [] });
    expect(above.reads).not.toContain("/agentflow.config.json");
    const rootless = disk({ "/w/agentflow.config.json": "{}" }, []);
    expect(await readProject("/w/repo/loan.bpmn", rootless.read)).toEqual({
      packs: [],
      problems: [],
    });
    const here = disk({ "/w/repo/agentflow.config.json": '{ "preset": "all" }' }, []);
    expect((await readProject("/w/repo/loan.bpmn", here.read)).config?.preset).toBe("all");
  });

  it("says a config or a pack it cannot read, and runs no pack then", async () => {
    const unreadable = disk(
      { "/r/agentflow.config.json": { kind: "error", message: "EACCES: permission denied" } },
      ["/r/.git"],
    );
    expect((await readProject("/r/loan.bpmn", unreadable.read)).problems).toEqual([
      "/r/agentflow.config.json: cannot be read: EACCES: permission denied; the rules run with the defaults",
    ]);
    const packs = disk(
      {
        "/r/agentflow.config.json": JSON.stringify({
          policies: ["ok.yaml", "missing.yaml", "../outside.yaml", "bad.yaml"],
        }),
        "/r/ok.yaml": PACK,
        "/r/bad.yaml": PACK.replace("level >= 4", "levl >= 4"),
        "/outside.yaml": PACK,
      },
      ["/r/.git"],
    );
    const project = await readProject("/r/loan.bpmn", packs.read);
    expect(project.packs).toEqual([]);
    expect(project.problems).toEqual([
      "/r/agentflow.config.json: policy pack 'missing.yaml' cannot be read (/r/missing.yaml): is missing",
      "/r/agentflow.config.json: policy pack '../outside.yaml' resolves to /outside.yaml, outside the project (/r)",
      expect.stringMatching(
        /^\/r\/bad\.yaml:8:11: rule high: when: unknown fact 'levl'/,
      ) as unknown,
    ]);
  });
});
