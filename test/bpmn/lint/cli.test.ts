/**
 * The plugin as users install it: a project with `node_modules/bpmnlint-plugin-agentflow` (here a
 * symlink to this repository, as the npm alias would install it), the `.bpmnlintrc` of
 * docs/bpmnlint.md, and bpmnlint's own CLI and NodeResolver — also with the policy pack file and
 * `.bpmnlintrc` of its "Policy packs" section. Also bpmnlint's config compiler, which
 * bpmn-js bundlers use, run without a bundler. Needs `dist/` (`npm run build`; CI builds on install).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPolicyPack } from "../../../src/policy/index.js";
import { tempDir } from "../../temp.js";
import { namedCheck } from "../named-check.js";

const repo = new URL("../../../", import.meta.url).pathname;
const bpmnlint = join(repo, "node_modules/bpmnlint/bin/bpmnlint.js");
const fixture = new URL("fixtures/loan-review.bpmn", import.meta.url).pathname;
const docs = readFileSync(join(repo, "docs/bpmnlint.md"), "utf8");

/** A fenced block of docs/bpmnlint.md by its info string (`json .bpmnlintrc`, `text`). */
function docsBlock(info: string): string {
  const start = docs.indexOf("```" + info + "\n");
  if (start < 0) throw new Error(`docs/bpmnlint.md has no \`\`\`${info} block`);
  const body = docs.slice(start + info.length + 4);
  return body.slice(0, body.indexOf("```"));
}

/** Output lines without colours, padding or blank lines. */
function lines(text: string): string[] {
  // eslint-disable-next-line no-control-regex -- ANSI colour codes, in case the CLI colours
  const plain = text.replace(/\u001b\[[0-9;]*m/g, "");
  return plain
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line !== "");
}

let project = "";

function run(args: readonly string[]) {
  const result = spawnSync(process.execPath, args, {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  if (!existsSync(join(repo, "dist/bpmn/lint/index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` before this test");
  }
  project = tempDir("agentflow-bpmnlint-");
  mkdirSync(join(project, "node_modules"));
  symlinkSync(repo, join(project, "node_modules/bpmnlint-plugin-agentflow"), "dir");
  writeFileSync(join(project, ".bpmnlintrc"), docsBlock("json .bpmnlintrc"));
  copyFileSync(fixture, join(project, "loan-review.bpmn"));
  const level4 = readFileSync(fixture, "utf8").replace('autonomyLevel="1"', 'autonomyLevel="4"');
  writeFileSync(join(project, "loan-review-level4.bpmn"), level4);
});

afterAll(() => {
  if (project !== "") rmSync(project, { recursive: true, force: true });
});

describe("the bpmnlint CLI with plugin:agentflow/recommended", () => {
  it("reports the bypassed gate as an error and exits with 1", () => {
    const { status, stdout, stderr } = run([bpmnlint, "loan-review.bpmn"]);
    expect(stderr).toBe("");
    expect(lines(stdout)).toEqual([
      join(project, "loan-review.bpmn"),
      'Research warning no registry was given to resolve agnt-rsch@2.1.0 (agent task "Research applicant"); the agent itself could not be reviewed, only the process around it agentflow/agent-unresolved',
      'Research error agent task "Research applicant" (agnt-rsch@2.1.0) could not be reviewed, since its workflow could not be read, so it needs an approval gate on every path as the most demanding case, but it can reach the end without one: Research applicant → Amount? → Auto-approved agentflow/agent-gate-bypass',
      "✖ 2 problems (1 error, 1 warning)",
    ]);
    expect(status).toBe(1);
  });

  it("prints what docs/bpmnlint.md shows", () => {
    const { stdout } = run([bpmnlint, "loan-review.bpmn"]);
    expect(lines(stdout).slice(1)).toEqual(lines(docsBlock("text")).slice(1));
  });

  it("fails closed: a level-4 agent whose workflow nothing can read still needs its gate", () => {
    const { status, stdout } = run([bpmnlint, "loan-review-level4.bpmn"]);
    expect(lines(stdout).slice(1)).toEqual([
      'Research warning no registry was given to resolve agnt-rsch@2.1.0 (agent task "Research applicant"); the agent itself could not be reviewed, only the process around it agentflow/agent-unresolved',
      'Research error agent task "Research applicant" (agnt-rsch@2.1.0) could not be reviewed, since its workflow could not be read, so it needs an approval gate on every path as the most demanding case, but it can reach the end without one: Research applicant → Amount? → Auto-approved agentflow/agent-gate-bypass',
      "✖ 2 problems (1 error, 1 warning)",
    ]);
    expect(status).toBe(1);
  });

  it("says a misspelled rule option in one line, without a stack trace, and lints the rest", () => {
    writeFileSync(
      join(project, "misspelled.bpmnlintrc"),
      JSON.stringify({
        extends: "plugin:agentflow/recommended",
        rules: { "agentflow/agent-gate-bypass": ["error", { camundaAgent: "ignore" }] },
      }),
    );
    const { status, stdout, stderr } = run([
      bpmnlint,
      "--config",
      "misspelled.bpmnlintrc",
      "loan-review.bpmn",
    ]);
    expect(stderr).toBe("");
    expect(stdout).not.toMatch(/^\s+at /m);
    expect(lines(stdout)).toContain(
      "Definitions_Loan error agentflow/agent-gate-bypass: unknown option 'camundaAgent' (known: camundaAgents, gates, toolEffects, policies, waivers, today); the rule did not run agentflow/agent-gate-bypass",
    );
    // The other rules ran.
    expect(stdout).toContain("agentflow/agent-unresolved");
    expect(status).toBe(1);
  });

  it("loads on a Node.js that cannot require() ES modules: the rules load a CommonJS bundle", () => {
    const script = `const f = require("bpmnlint-plugin-agentflow/rules/agent-gate-bypass"); console.log(typeof f, typeof f().check)`;
    const { status, stdout, stderr } = run(["--no-experimental-require-module", "-e", script]);
    expect(stderr).toBe("");
    expect(stdout.trim()).toBe("function function");
    expect(status).toBe(0);
  });
});

describe("the bpmnlint CLI with a policy pack", () => {
  const loan = join(repo, "examples/processes/loan-origination.bpmn");

  beforeAll(() => {
    mkdirSync(join(project, "policy"), { recursive: true });
    writeFileSync(
      join(project, "policy/bank.policy.yaml"),
      docsBlock("yaml policy/bank.policy.yaml"),
    );
    writeFileSync(
      join(project, "policy.bpmnlintrc"),
      docsBlock("json .bpmnlintrc with a policy pack"),
    );
    copyFileSync(loan, join(project, "loan-origination.bpmn"));
  });

  it("reads the pack the .bpmnlintrc names and reports what checkProcess finds for it", async () => {
    const { status, stdout, stderr } = run([
      bpmnlint,
      "--config",
      "policy.bpmnlintrc",
      "loan-origination.bpmn",
    ]);
    expect(stderr).toBe("");
    const policyLines = lines(stdout).filter((line) => line.endsWith(" agentflow/policy"));
    expect(policyLines).toEqual(lines(docsBlock("text policy")));
    const text = readFileSync(join(project, "policy/bank.policy.yaml"), "utf8");
    const reading = readPolicyPack(text, "policy/bank.policy.yaml");
    if (!("pack" in reading)) throw new Error("the docs' pack must compile");
    const check = await namedCheck(readFileSync(loan, "utf8"), { policies: [reading.pack] });
    const expected = [...check.blocking, ...check.warnings]
      .filter((d) => d.code.startsWith("acme-bank-agents/"))
      .map((d) => {
        const id = d.target.kind === "bpmn-element" ? d.target.elementId : "";
        return `${id} error ${d.code}: ${d.message} agentflow/policy`;
      });
    expect(policyLines).toEqual(expected);
    expect(status).toBe(1);
  });

  it("says a pack it cannot compile, with file, line and column, and the rule does not run", () => {
    writeFileSync(
      join(project, "policy/broken.policy.yaml"),
      "kind: PolicyPack\nname: bank\nversion: 1.0.0\nrules:\n  - id: high\n    severity: error\n    for: agentTask\n    when: levl >= 4\n",
    );
    writeFileSync(
      join(project, "broken.bpmnlintrc"),
      JSON.stringify({
        moddleExtensions: { btv: "bpmnlint-plugin-agentflow/bpmn/resources/btv.json" },
        rules: { "agentflow/policy": ["error", { policies: ["policy/broken.policy.yaml"] }] },
      }),
    );
    const { status, stdout, stderr } = run([
      bpmnlint,
      "--config",
      "broken.bpmnlintrc",
      "loan-origination.bpmn",
    ]);
    expect(stderr).toBe("");
    expect(stdout).not.toMatch(/^\s+at /m);
    expect(lines(stdout).slice(1, -1)).toEqual([
      "Definitions_LoanOrigination error agentflow/policy: policy/broken.policy.yaml:8:11: rule high: when: unknown fact 'levl' (facts of agentTask: process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread); the rule did not run agentflow/policy",
    ]);
    expect(status).toBe(1);
  });

  it("shows a waived finding under agentflow/waived, and it no longer fails the lint", () => {
    const waiver = {
      rule: "four-eyes-on-commitments",
      process: "LoanOrigination",
      reason: "pilot",
      grantedBy: "cro@bank.example",
      expires: "2027-03-31",
    };
    const options = {
      policies: ["policy/bank.policy.yaml"],
      waivers: [waiver],
      today: "2027-01-15",
    };
    writeFileSync(
      join(project, "waived.bpmnlintrc"),
      JSON.stringify({
        moddleExtensions: { btv: "bpmnlint-plugin-agentflow/bpmn/resources/btv.json" },
        rules: {
          "agentflow/policy": ["error", options],
          "agentflow/waived": ["info", options],
        },
      }),
    );
    const { status, stdout } = run([
      bpmnlint,
      "--config",
      "waived.bpmnlintrc",
      "loan-origination.bpmn",
    ]);
    const found = lines(stdout).slice(1, -1);
    expect(found.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "AssessCreditRisk info acme-bank-agents/four-eyes-on-commitments:",
      "DraftAndSendOffer info acme-bank-agents/four-eyes-on-commitments:",
    ]);
    expect(found[1]).toMatch(
      /\(waived by cro@bank\.example until 2027-03-31: pilot\) agentflow\/waived$/,
    );
    expect(status).toBe(0);
  });
});

describe("bpmnlint's config compiler (bpmnlint-loader, rollup-plugin-bpmnlint)", () => {
  it("packs the plugin's rules into a bundle that lints", async () => {
    const require = createRequire(join(project, "package.json"));
    const compile = require(join(repo, "node_modules/bpmnlint/lib/support/compile-config.js")) as (
      config: unknown,
      resolver: unknown,
    ) => Promise<string>;
    const NodeResolver = require(
      join(repo, "node_modules/bpmnlint/lib/resolver/node-resolver.js"),
    ) as new (options: { require: NodeJS.Require }) => unknown;
    const code = await compile(
      { extends: "plugin:agentflow/recommended" },
      new NodeResolver({ require }),
    );
    expect(code).toMatch(
      /import rule_\d+ from 'bpmnlint-plugin-agentflow\/rules\/agent-gate-bypass';/,
    );
    writeFileSync(join(project, "bundle.mjs"), code);
    // What bpmn-js-bpmnlint does with the bundle: `new Linter({ config, resolver })`.
    writeFileSync(
      join(project, "lint-bundle.mjs"),
      [
        `import { createRequire } from "node:module";`,
        `import { readFileSync } from "node:fs";`,
        `import { config, resolver } from "./bundle.mjs";`,
        `const require = createRequire(${JSON.stringify(join(repo, "package.json"))});`,
        `const { BpmnModdle } = require("bpmn-moddle");`,
        `const { Linter } = require("bpmnlint");`,
        `const btv = createRequire(import.meta.url)("bpmnlint-plugin-agentflow/bpmn/resources/btv.json");`,
        `const { rootElement } = await new BpmnModdle({ btv }).fromXML(readFileSync("loan-review.bpmn", "utf8"));`,
        `const results = await new Linter({ config, resolver }).lint(rootElement);`,
        `for (const [name, reports] of Object.entries(results)) for (const r of reports) console.log(name, r.category, r.id);`,
      ].join("\n"),
    );
    const { status, stdout, stderr } = run(["lint-bundle.mjs"]);
    expect(stderr).toBe("");
    expect(lines(stdout)).toEqual([
      "agentflow/agent-unresolved warn Research",
      "agentflow/agent-gate-bypass error Research",
    ]);
    expect(status).toBe(0);
  });
});
