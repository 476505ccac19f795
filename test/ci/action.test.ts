/**
 * The GitHub Action (action.yml) and the GitLab CI component (templates/agentflow.yml): their
 * shape as the platforms read it (a composite action on a pinned Node that uploads SARIF with
 * codeql-action v4 and keeps the report; a component whose job runs the same script and keeps a
 * code quality report), and their work run for real — action/run.sh, executed as their steps
 * execute it, in a fixture git repository with a base commit and a change.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { tempDir } from "../temp.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPT = join(ROOT, "action/run.sh");

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A repository with the example registry and two processes, then a change to one of them. */
function repository(): { dir: string; base: string } {
  const dir = tempDir("agentflow-action-");
  git(dir, "init", "-q");
  git(dir, "config", "user.email", "ci@example.com");
  git(dir, "config", "user.name", "ci");
  cpSync(join(ROOT, "examples/registry"), join(dir, "registry"), { recursive: true });
  mkdirSync(join(dir, "processes"));
  const loan = readFileSync(join(ROOT, "examples/processes/loan-origination.bpmn"), "utf8");
  writeFileSync(join(dir, "processes/loan.bpmn"), loan);
  writeFileSync(join(dir, "processes/other.bpmn"), loan);
  writeFileSync(join(dir, "README.md"), "a repository\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  writeFileSync(join(dir, "processes/loan.bpmn"), loan.replace("Consumer", "Consumer "));
  writeFileSync(join(dir, "README.md"), "a repository, changed\n");
  git(dir, "commit", "-qam", "change one process and the readme");
  return { dir, base };
}

/** Runs the script as the action's "Run agentflow" step does, with the step's environment. */
function runStep(dir: string, env: Readonly<Record<string, string>>) {
  const output = join(tempDir("agentflow-action-out-"), "github_output");
  writeFileSync(output, "");
  const out = tempDir("agentflow-action-files-");
  const r = spawnSync("bash", [SCRIPT], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, GITHUB_OUTPUT: output, OUT_DIR: out, ...env },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, "utf8")
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs };
}

describe("the GitHub Action", () => {
  const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
    runs: { using: string; steps: Step[] };
    inputs: Record<string, unknown>;
  };

  it("is a composite action on a pinned Node that uploads SARIF with codeql-action v4", () => {
    expect(action.runs.using).toBe("composite");
    const steps = action.runs.steps;
    const node = steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(String(node?.with?.["node-version"])).toMatch(/^22\.\d+\.\d+$/);
    expect(steps.map((s) => s.uses).filter(Boolean)).toEqual([
      "actions/setup-node@v4",
      "github/codeql-action/upload-sarif@v4",
      "actions/upload-artifact@v4",
    ]);
    expect(steps.find((s) => s.id === "run")?.run).toContain('"$GITHUB_ACTION_PATH/action/run.sh"');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(["command", "paths", "registry", "approval", "trusted-keys"]),
    );
  });

  it("gates only the processes the change touched, and says where the SARIF and the report are", () => {
    const { dir, base } = repository();
    const run = runStep(dir, { INPUT_COMMAND: "gate", INPUT_REGISTRY: "registry", BASE_SHA: base });
    expect(run.code).toBe(1); // the loan process's offer agent has no gate
    expect(run.outputs["exit-code"]).toBe("1");
    const sarif = JSON.parse(readFileSync(run.outputs.findings ?? "", "utf8")) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    const files = new Set(
      sarif.runs[0]?.results.map((r) => r.locations[0]?.physicalLocation.artifactLocation.uri),
    );
    expect([...files]).toEqual(["processes/loan.bpmn"]);
    expect(readFileSync(run.outputs.report ?? "", "utf8")).toContain(
      "processes/loan.bpmn: promotion BLOCKED",
    );
    expect(run.stdout).toContain("promotion BLOCKED");
  });

  it("checks nothing, and passes, when the change touched no file the command reads", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "README.md"), "only the readme\n");
    git(dir, "commit", "-qam", "docs");
    const run = runStep(dir, { INPUT_COMMAND: "check", BASE_SHA: head });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("no file check reads was changed");
    expect(run.outputs).toEqual({ "exit-code": "0", findings: "", report: "" });
  });

  it("refuses an unknown command as a usage mistake (exit 2)", () => {
    const { dir } = repository();
    const run = runStep(dir, { INPUT_COMMAND: "deploy" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'deploy'");
  });
});

describe("the GitLab CI component", () => {
  const [spec, job] = parseAllDocuments(
    readFileSync(join(ROOT, "templates/agentflow.yml"), "utf8"),
  ).map((d) => d.toJSON() as Record<string, unknown>);

  it("declares its inputs and runs the action's script, keeping a code quality report", () => {
    const inputs = (spec?.spec as { inputs: Record<string, unknown> }).inputs;
    expect(Object.keys(inputs)).toEqual(
      expect.arrayContaining(["command", "paths", "registry", "approval", "stage"]),
    );
    const body = job?.["agentflow-$[[ inputs.command ]]"] as {
      script: string[];
      variables: Record<string, string>;
      artifacts: { reports: { codequality: string } };
    };
    expect(body.script.at(-1)).toBe("bash node_modules/agentflow/action/run.sh");
    expect(body.variables.AGENTFLOW_FORMAT).toBe("gitlab");
    expect(body.artifacts.reports.codequality).toBe("agentflow-out/agentflow.gitlab.json");
  });

  it("writes GitLab's code quality JSON for the changed documents", () => {
    const { dir, base } = repository();
    const run = runStep(dir, {
      INPUT_COMMAND: "check",
      INPUT_REGISTRY: "registry",
      AGENTFLOW_FORMAT: "gitlab",
      BASE_SHA: base,
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(run.outputs.findings ?? "", "utf8")) as {
      location: { path: string };
    }[];
    expect(new Set(report.map((issue) => issue.location.path))).toEqual(
      new Set(["processes/loan.bpmn"]),
    );
  });
});
