/**
 * The CI recipes of docs/ci.md work when pasted: their YAML parses strictly and has the shape
 * GitHub Actions and GitLab CI read (every `uses` pinned, the uploads naming the files the
 * commands write), and every `npx agentflow` command in them runs, through the built CLI
 * (`bin/agentflow.js`, so `npm run build` first), in a repository laid out as the recipes assume
 * (built from `examples/`, with the config file of docs/ci.md).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { checkConfig } from "../../src/cli/config.js";
import { tempDir } from "../temp.js";

const repo = new URL("../../", import.meta.url).pathname;
const docs = readFileSync(join(repo, "docs/ci.md"), "utf8");

/** A fenced block of docs/ci.md by its info string. */
function block(info: string): string {
  const start = docs.indexOf("```" + info + "\n");
  if (start < 0) throw new Error(`docs/ci.md has no \`\`\`${info} block`);
  const body = docs.slice(start + info.length + 4);
  return body.slice(0, body.indexOf("```"));
}

/** Parses YAML strictly: duplicate keys, bad indentation and warnings all fail. */
function lintYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: true });
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as unknown;
}

/** The value of `-o` in a command line. */
function outputOf(command: string): string | undefined {
  return /(?:^|\s)-o\s+(\S+)/.exec(command)?.[1];
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Readonly<Record<string, unknown>>;
}

interface GithubWorkflow {
  readonly name: string;
  readonly on: unknown;
  readonly permissions: Readonly<Record<string, string>>;
  readonly jobs: Readonly<Record<string, { "runs-on": string; steps: Step[] }>>;
}

interface GitlabJob {
  readonly image: string;
  readonly stage: string;
  readonly script: string[];
  readonly artifacts: { when: string; reports: Readonly<Record<string, string>> };
}

const github = lintYaml(block("yaml .github/workflows/agentflow.yml")) as GithubWorkflow;
const gitlab = lintYaml(block("yaml .gitlab-ci.yml")) as Readonly<Record<string, unknown>>;
const steps = Object.values(github.jobs).flatMap((job) => job.steps);
const gitlabJobs = Object.entries(gitlab).filter(
  (entry): entry is [string, GitlabJob] => entry[0] !== "stages",
);
const commands = [
  ...steps.flatMap((s) => (s.run ?? "").split("\n")),
  ...gitlabJobs.flatMap(([, job]) => job.script),
].filter((line) => line.startsWith("npx agentflow "));

describe("the GitHub Actions recipe", () => {
  it("is a workflow GitHub reads: triggers, permissions, a job, pinned actions", () => {
    expect(github.on).toBeDefined();
    expect(github.permissions["security-events"]).toBe("write");
    const [job] = Object.values(github.jobs);
    expect(job?.["runs-on"]).toBe("ubuntu-latest");
    const setup = steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(setup?.with?.["node-version"]).toBe(22);
    for (const step of steps) {
      expect(Number(step.uses !== undefined) + Number(step.run !== undefined)).toBe(1);
      if (step.uses !== undefined) expect(step.uses).toMatch(/^[\w-]+\/[\w./-]+@v\d+$/);
    }
  });

  it("uploads the SARIF file the check writes, with its category, and keeps the report", () => {
    const check = steps.find((s) => s.run?.includes("agentflow check") === true);
    const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"));
    expect(upload?.with?.sarif_file).toBe(outputOf(check?.run ?? ""));
    expect(check?.run).toContain(`--sarif-category ${String(upload?.with?.category)}`);
    const report = steps.find((s) => s.run?.includes("agentflow report") === true);
    const artifact = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(artifact?.with?.path).toBe(outputOf(report?.run ?? ""));
    // The steps after the check run when it fails, so that its findings are uploaded.
    const after = check === undefined ? [] : steps.slice(steps.indexOf(check) + 1);
    expect(after.length).toBe(4);
    expect(after.every((s) => s.if === "${{ !cancelled() }}")).toBe(true);
  });
});

describe("the GitLab CI recipe", () => {
  it("has jobs with an image, a script and the reports the commands write", () => {
    expect(gitlab.stages).toEqual(["test"]);
    expect(gitlabJobs.length).toBe(2);
    const reports = new Map<string, string>();
    for (const [, job] of gitlabJobs) {
      // Node 20 reached its end of life in April 2026; agentflow runs on >=20, recipes use 22.
      expect(job.image).toBe("node:22");
      expect(job.stage).toBe("test");
      expect(job.artifacts.when).toBe("always");
      for (const [kind, file] of Object.entries(job.artifacts.reports)) reports.set(kind, file);
      const written = job.script.map(outputOf).filter((f) => f !== undefined);
      expect(written).toEqual(Object.values(job.artifacts.reports));
    }
    expect([...reports.keys()].sort()).toEqual(["codequality", "junit"]);
  });
});

describe("the recipes' commands", () => {
  let project = "";

  beforeAll(() => {
    if (!existsSync(join(repo, "dist/cli/main.js"))) {
      throw new Error("dist/ is missing: run `npm run build` before this test");
    }
    project = tempDir("agentflow-ci-recipes-");
    // The repository root: the config lookup stops here.
    mkdirSync(join(project, ".git"));
    for (const folder of ["workflows", "registry", "processes"]) {
      cpSync(join(repo, "examples", folder), join(project, folder), { recursive: true });
    }
    const config = block("json agentflow.config.json");
    checkConfig("agentflow.config.json", JSON.parse(config));
    writeFileSync(join(project, "agentflow.config.json"), config);
  });

  it("lists the commands it runs", () => {
    expect(commands.length).toBe(5);
  });

  it.each(commands.map((c) => [c]))("%s", (command) => {
    const line = command.replace(/^npx agentflow /, `node ${join(repo, "bin/agentflow.js")} `);
    const result = spawnSync("sh", ["-c", line], { cwd: project, encoding: "utf8" });
    // Every command fails the job on the example repository, as it should: the workflows hold
    // refund-autopilot.broken (errors) and loan-origination is blocked (an agent without its
    // gate); the report exits 1 for the findings that block. Never 2 (usage) or 3 (a crash).
    expect(result.stderr).not.toContain("internal error");
    expect(result.status, result.stderr).toBe(1);
    const output = outputOf(command);
    if (output === undefined) {
      // GitHub's workflow commands, or the text a person reads.
      expect(result.stdout).toMatch(
        command.includes("--format github")
          ? /^::error file=processes\/loan-origination\.bpmn,/m
          : /promotion (ALLOWED|BLOCKED)/,
      );
      return;
    }
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith(`agentflow: wrote ${output}`), result.stderr).toBe(true);
    const written = readFileSync(join(project, output), "utf8");
    if (output.endsWith(".sarif")) {
      const log = JSON.parse(written) as {
        version: string;
        runs: { automationDetails: { id: string }; results: unknown[] }[];
      };
      expect(log.version).toBe("2.1.0");
      expect(log.runs[0]?.automationDetails.id).toBe("agentflow/");
      expect(log.runs[0]?.results.length).toBeGreaterThan(0);
      // YAML workflows are checked too, not only .agent.json.
      expect(written).toContain('"uri": "workflows/contract-review.agent.yaml"');
    } else if (output.endsWith(".json")) {
      const issues = JSON.parse(written) as { check_name: string }[];
      expect(issues.map((i) => i.check_name)).toContain("RETRY_WITHOUT_MAX");
    } else if (output.endsWith(".xml")) {
      expect(written).toMatch(/^<\?xml[^>]*>\n<testsuites name="agentflow"/);
    } else {
      expect(written).toMatch(/^<!doctype html>/i);
      // `report` takes no config file: the recipe names the registry, so the agents resolve.
      expect(written).toContain("agnt-credit-risk@1.0.0");
      expect(written).not.toContain("no registry was given");
    }
  });
});
