/**
 * The `policies`, `waivers`, `today` and `severities` options of the plugin's rules: a pack that
 * does not compile, a file that cannot be read, a malformed waiver or day, is reported on the
 * definitions, one line per problem, and the rule does not run — never a silent pass, never a
 * stack trace. In a browser a pack path is a misconfiguration that says to give the pack as data;
 * `node:fs` is asked of the running Node.js, never imported.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createRules, staticResolverCache } from "../../../src/bpmn/lint/index.js";
import {
  nodeFileSystem,
  PackCache,
  readPacks,
  runningProcess,
} from "../../../src/bpmn/lint/pack-read.js";
import { compilePolicyPack } from "../../../src/policy/index.js";
import { tempDir } from "../../temp.js";
import { loanXml } from "../../bpmn-js/loan.js";
import { lint, staticLinter } from "./linter.js";

const ROOT = "Definitions_LoanOrigination";
const FACTS =
  "facts of agentTask: process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread";

const pack = (rules: readonly object[]) => ({
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules,
});

/** The messages one rule reports on the loan process with `options`, all at `error`. */
async function messages(rule: string, options: unknown): Promise<string[]> {
  const linter = staticLinter(staticResolverCache());
  const results = await lint(linter, loanXml, {
    rules: { [`agentflow/${rule}`]: ["error", options] },
  });
  return (results[`agentflow/${rule}`] ?? []).map((r) => {
    expect(r.id).toBe(ROOT);
    expect(r.category).toBe("error");
    return r.message;
  });
}

describe("a pack with problems", () => {
  it("is one report per problem, in the words of the CLI, and the rule does not run", async () => {
    const bad = pack([
      { id: "high", severity: "error", for: "agentTask", when: "levl >= 4" },
      { id: "odd", severity: "fatal", for: "agent" },
    ]);
    expect(await messages("policy", { policies: [bad] })).toEqual([
      'agentflow/policy: policies[0]: rule odd: severity: unknown severity "fatal" (severities: error, warning, info); the rule did not run',
      'agentflow/policy: policies[0]: rule odd: for: unknown subject "agent" (subjects: agentTask, workflow, tool, process); the rule did not run',
      `agentflow/policy: policies[0]: rule high: when: unknown fact 'levl' (${FACTS}); the rule did not run`,
    ]);
  });

  it("names the file, line and column of a pack read from a path", async () => {
    const dir = tempDir("agentflow-lint-bad-pack-");
    const file = join(dir, "bank.policy.yaml");
    writeFileSync(
      file,
      "kind: PolicyPack\nname: bank\nversion: 1.0.0\nrules:\n  - id: high\n    severity: error\n    for: agentTask\n    when: levl >= 4\n",
    );
    expect(await messages("agent-gate-bypass", { policies: [file] })).toEqual([
      `agentflow/agent-gate-bypass: ${file}:8:11: rule high: when: unknown fact 'levl' (${FACTS}); the rule did not run`,
    ]);
  });

  it.each([
    [
      { policies: ["no-such.policy.yaml"] },
      "policies[0]: cannot read the policy pack 'no-such.policy.yaml': ENOENT: no such file or directory, open 'no-such.policy.yaml'",
    ],
    [{ policies: "bank.policy.yaml" }, "policies must be a list of policy packs, got string"],
    [
      { policies: [42] },
      "policies[0] must be a policy pack (an object) or the path of a pack file (a string), got number",
    ],
    [
      {
        policies: [],
        waivers: [{ rule: "x", process: "P", reason: "r", grantedBy: "g", expires: "2027-02-30" }],
      },
      'waivers[0].expires: "2027-02-30" is not a calendar date written YYYY-MM-DD',
    ],
    [{ today: "2027-02-30" }, 'today must be a date written YYYY-MM-DD, got "2027-02-30"'],
    [{ today: 20270101 }, "today must be a date written YYYY-MM-DD, got 20270101"],
    [
      { policies: [pack([])], severities: ["fatal"] },
      'severities must be a non-empty list of error, warning, info, got ["fatal"]',
    ],
    [
      {},
      "no policy packs: give 'policies', each a pack as data or the path of a YAML or JSON pack file",
    ],
  ])("policy with %j says: %s", async (options, problem) => {
    expect(await messages("policy", options)).toEqual([
      `agentflow/policy: ${problem}; the rule did not run`,
    ]);
  });

  it("takes severities on the policy rule only", async () => {
    expect(await messages("agent-gate-bypass", { severities: ["error"] })).toEqual([
      "agentflow/agent-gate-bypass: unknown option 'severities' (known: camundaAgents, gates, toolEffects, policies, waivers, today); the rule did not run",
    ]);
  });

  it("is a TypeError from createRules when the host's pack does not compile", () => {
    expect(() =>
      createRules({ policies: [pack([{ id: "x", severity: "error", for: "agent" }])] }),
    ).toThrow(
      new TypeError(
        'createRules: policies[0]: rule x: for: unknown subject "agent" (subjects: agentTask, workflow, tool, process)',
      ),
    );
    expect(() => createRules({ today: "tomorrow" })).toThrow(
      new TypeError('createRules: today must be a date written YYYY-MM-DD, got "tomorrow"'),
    );
  });
});

describe("reading pack files", () => {
  it("in a browser, a path is a misconfiguration that says to give the pack as data", () => {
    expect(readPacks(["policy/bank.policy.yaml"], "policies", undefined)).toEqual({
      problems: [
        "policies[0] is the path 'policy/bank.policy.yaml', but this host cannot read files (a browser): give the pack as data",
      ],
    });
    expect(nodeFileSystem(undefined)).toBeUndefined();
  });

  it("asks the running Node.js for node:fs: getBuiltinModule, else the main module's require", () => {
    const fs = { readFileSync: () => "" };
    expect(nodeFileSystem({ getBuiltinModule: (id) => (id === "node:fs" ? fs : undefined) })).toBe(
      fs,
    );
    expect(
      nodeFileSystem({ mainModule: { require: (id) => (id === "fs" ? fs : undefined) } }),
    ).toBe(fs);
    const failing = {
      mainModule: {
        require: () => {
          throw new Error("no require here");
        },
      },
    };
    expect(nodeFileSystem(failing)).toBeUndefined();
    expect(nodeFileSystem({})).toBeUndefined();
    expect(nodeFileSystem(runningProcess())?.readFileSync("package.json", "utf8")).toBe(
      readFileSync("package.json", "utf8"),
    );
  });

  it("compiles a pack once per source and content, and never keeps a failure", () => {
    const cache = new PackCache();
    const compiled = compilePolicyPack(pack([]));
    const compile = vi.fn(() => compiled);
    expect(cache.get("policies[0]", pack([]), compile)).toBe(compiled);
    expect(cache.get("policies[0]", { ...pack([]) }, compile)).toBe(compiled);
    expect(compile).toHaveBeenCalledTimes(1);
    cache.get("policies[1]", pack([]), compile);
    cache.get("bank.policy.yaml", "kind: PolicyPack", compile);
    expect(compile).toHaveBeenCalledTimes(3);
    const failing = vi.fn(() => ["bank.policy.yaml:1:1: missing 'version'"]);
    cache.get("bad.yaml", "kind: PolicyPack", failing);
    cache.get("bad.yaml", "kind: PolicyPack", failing);
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
