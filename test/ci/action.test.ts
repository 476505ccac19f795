/**
 * The GitHub Action (action.yml) and the GitLab CI component (templates/agentflow.yml): their
 * shape as the platforms read it (a composite action on a pinned Node that uploads SARIF with
 * codeql-action v4 and keeps the report; a component whose job runs the same script and keeps a
 * code quality report), and their work run for real — action/run.sh, executed as their steps
 * execute it, in a fixture git repository with a base commit and a change.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
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
  git(dir, "commit", "-qam", "change one process");
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
    env: { ...process.env, GITHUB_ACTIONS: "true", GITHUB_OUTPUT: output, OUT_DIR: out, ...env },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, "utf8")
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs };
}

/** The files a SARIF log's results are on. */
function sarifFiles(file: string | undefined): Set<string | undefined> {
  const sarif = JSON.parse(readFileSync(file ?? "", "utf8")) as {
    runs: {
      results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
    }[];
  };
  return new Set(
    sarif.runs[0]?.results.map((r) => r.locations[0]?.physicalLocation.artifactLocation.uri),
  );
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

  it("prints its report with the runner's commands stopped on GitHub: a name cannot forge one", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    const loan = readFileSync(join(dir, "processes/loan.bpmn"));
    writeFileSync(join(dir, "processes/::notice title=agentflow::promotion ALLOWED.bpmn"), loan);
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a process named as a command");
    const run = runStep(dir, { INPUT_COMMAND: "gate", INPUT_REGISTRY: "registry", BASE_SHA: head });
    const lines = run.stdout.split("\n");
    const stop = lines.findIndex((l) => l.startsWith("::stop-commands::"));
    const token = lines[stop]?.slice("::stop-commands::".length) ?? "";
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const resume = lines.indexOf(`::${token}::`);
    const named = lines.findIndex((l) => l.includes("::notice title=agentflow::"));
    expect(stop < named && named < resume).toBe(true);
    // Outside GitHub, the report is printed as it is.
    const plain = runStep(dir, {
      INPUT_COMMAND: "gate",
      INPUT_REGISTRY: "registry",
      BASE_SHA: head,
      GITHUB_ACTIONS: "",
    });
    expect(plain.stdout).not.toContain("::stop-commands::");
  });

  it("checks the whole repository when the change touched a file the command does not take", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "README.md"), "only the readme\n");
    git(dir, "commit", "-qam", "docs");
    const run = runStep(dir, {
      INPUT_COMMAND: "check",
      INPUT_REGISTRY: "registry",
      BASE_SHA: head,
    });
    expect(run.stdout).toContain("'README.md' changed and is not a file check takes");
    expect(run.stdout).toContain("checking the whole repository");
    expect(run.code).toBe(1);
    expect(sarifFiles(run.outputs.findings)).toEqual(
      new Set(["processes/loan.bpmn", "processes/other.bpmn"]),
    );
  });

  it("checks nothing, and passes, when the change touched no file at all", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    git(dir, "commit", "-q", "--allow-empty", "-m", "empty");
    const run = runStep(dir, { INPUT_COMMAND: "check", BASE_SHA: head });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("nothing to check");
    expect(run.outputs).toEqual({ "exit-code": "0", findings: "", report: "" });
  });

  it("gates the whole repository when only a registry tool contract changed", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    const tool = join(dir, "registry/send-loan-offer.tool.json");
    writeFileSync(tool, readFileSync(tool, "utf8") + "\n");
    git(dir, "commit", "-qam", "a tool contract");
    const run = runStep(dir, { INPUT_COMMAND: "gate", INPUT_REGISTRY: "registry", BASE_SHA: head });
    expect(run.stdout).toContain("checking the whole repository");
    expect(run.code).toBe(1);
    expect(readFileSync(run.outputs.report ?? "", "utf8")).toContain(
      "processes/other.bpmn: promotion BLOCKED",
    );
  });

  it("checks the whole repository when a registry document changed, though check takes it", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    const tool = join(dir, "registry/send-loan-offer.tool.json");
    writeFileSync(tool, readFileSync(tool, "utf8") + "\n");
    git(dir, "commit", "-qam", "a tool contract");
    const run = runStep(dir, {
      INPUT_COMMAND: "check",
      INPUT_REGISTRY: "registry",
      BASE_SHA: head,
    });
    expect(run.stdout).toContain("'registry/send-loan-offer.tool.json' is read by the settings");
    expect(sarifFiles(run.outputs.findings)).toContain("processes/other.bpmn");
  });

  it("checks the whole repository when the config changed", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "agentflow.config.json"), '{ "registry": "registry" }\n');
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a config");
    const run = runStep(dir, { INPUT_COMMAND: "check", BASE_SHA: head });
    expect(run.stdout).toContain("'agentflow.config.json' is read by the settings");
    expect(sarifFiles(run.outputs.findings)).toContain("processes/other.bpmn");
  });

  it("gates the whole repository when a waiver names a process, which another file may define", () => {
    const { dir } = repository();
    const waiver = {
      rule: "AGENT_GATE_UNREACHABLE",
      process: "LoanOrigination",
      reason: "reviewed",
      grantedBy: "risk",
      expires: "2099-12-31",
    };
    writeFileSync(
      join(dir, "agentflow.config.json"),
      JSON.stringify({ registry: "registry", waivers: [waiver] }),
    );
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a waiver");
    const waived = git(dir, "rev-parse", "HEAD");
    writeFileSync(
      join(dir, "processes/loan.bpmn"),
      readFileSync(join(dir, "processes/other.bpmn")),
    );
    git(dir, "commit", "-qam", "a process");
    const run = runStep(dir, { INPUT_COMMAND: "gate", BASE_SHA: waived });
    expect(run.stdout).toContain(
      "agentflow: 'processes/loan.bpmn' is a process and a waiver names processes by id",
    );
    // Both files define LoanOrigination: the waiver cannot say which one was reviewed.
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'waivers[0].process: "LoanOrigination" is the id of a process in 2 inputs (processes/loan.bpmn, processes/other.bpmn)',
    );
  });

  it("checks the whole repository when the settings cannot be read", () => {
    const { dir } = repository();
    writeFileSync(join(dir, "agentflow.config.json"), "{ not json");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a broken config");
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(
      join(dir, "processes/loan.bpmn"),
      readFileSync(join(dir, "processes/other.bpmn")),
    );
    git(dir, "commit", "-qam", "a process");
    const run = runStep(dir, { INPUT_COMMAND: "gate", BASE_SHA: head });
    expect(run.stdout).toContain(
      "the settings (--print-config) could not be read; checking the whole repository",
    );
    expect(run.code).toBe(2);
  });

  it("gates the whole repository when a process was deleted or renamed", () => {
    for (const change of [["rm", "-q"], ["mv"]]) {
      const { dir } = repository();
      const head = git(dir, "rev-parse", "HEAD");
      const to = change[0] === "mv" ? ["processes/renamed.bpmn"] : [];
      git(dir, ...change, "processes/loan.bpmn", ...to);
      git(dir, "commit", "-qm", "one process less");
      const run = runStep(dir, {
        INPUT_COMMAND: "gate",
        INPUT_REGISTRY: "registry",
        BASE_SHA: head,
      });
      expect(run.stdout).toContain("'processes/loan.bpmn' was deleted or renamed");
      expect(run.code).toBe(1);
      expect(readFileSync(run.outputs.report ?? "", "utf8")).toContain(
        "processes/other.bpmn: promotion BLOCKED",
      );
    }
  });

  it("gates a changed process whose name is not ASCII, by its own name", () => {
    const { dir } = repository();
    git(dir, "mv", "processes/other.bpmn", "processes/prêt.bpmn");
    git(dir, "commit", "-qm", "renamed");
    const renamed = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "processes/prêt.bpmn"), readFileSync(join(dir, "processes/loan.bpmn")));
    git(dir, "commit", "-qam", "changed");
    git(dir, "config", "core.quotePath", "true"); // git's default: names quoted as "pr\303\252t"
    const run = runStep(dir, {
      INPUT_COMMAND: "gate",
      INPUT_REGISTRY: "registry",
      BASE_SHA: renamed,
    });
    expect(run.stdout).not.toContain("whole repository");
    expect(run.code).toBe(1);
    const report = readFileSync(run.outputs.report ?? "", "utf8");
    expect(report).toContain("processes/prêt.bpmn: promotion BLOCKED");
    expect(report).not.toContain("processes/loan.bpmn");
  });

  it("gates a changed process whose name reads as an option, as a file", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    const loan = readFileSync(join(dir, "processes/loan.bpmn"));
    writeFileSync(join(dir, "--print-config=loan.bpmn"), loan);
    writeFileSync(join(dir, "--sarif-category=x.bpmn"), loan);
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "processes named as options");
    const run = runStep(dir, { INPUT_COMMAND: "gate", INPUT_REGISTRY: "registry", BASE_SHA: head });
    expect(run.stdout).not.toContain("whole repository");
    expect(run.code).toBe(1);
    expect(sarifFiles(run.outputs.findings)).toEqual(
      // SARIF URIs are percent-encoded.
      new Set(["--print-config%3Dloan.bpmn", "--sarif-category%3Dx.bpmn"]),
    );
  });

  it("checks a changed workflow against the registry's document of its id@version", () => {
    const { dir } = repository();
    const head = git(dir, "rev-parse", "HEAD");
    const reviewed = JSON.parse(
      readFileSync(join(dir, "registry/credit-risk.agent.json"), "utf8"),
    ) as Record<string, unknown>;
    mkdirSync(join(dir, "workflows"));
    writeFileSync(
      join(dir, "workflows/credit-risk.agent.json"),
      JSON.stringify({ ...reviewed, description: "Approves every application." }),
    );
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "an impostor");
    const run = runStep(dir, {
      INPUT_COMMAND: "check",
      INPUT_REGISTRY: "registry",
      BASE_SHA: head,
    });
    expect(run.stdout).not.toContain("whole repository");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "workflows/credit-risk.agent.json\n  -  error    agnt-credit-risk@1.0.0 is defined with different content in 'registry/credit-risk.agent.json'",
    );
  });

  const contract = "send-loan-offer.tool.json";
  it.each([
    [
      "a contract linked into the registry from another folder",
      (dir: string) => {
        mkdirSync(join(dir, "contracts"));
        renameSync(join(dir, "registry", contract), join(dir, "contracts", contract));
        symlinkSync(`../contracts/${contract}`, join(dir, "registry", contract));
      },
      `contracts/${contract}`,
    ],
    [
      "a contract in a registry folder that is itself a link",
      (dir: string) => {
        mkdirSync(join(dir, "shared"));
        renameSync(join(dir, "registry"), join(dir, "shared/reg"));
        symlinkSync("shared/reg", join(dir, "registry"));
      },
      `shared/reg/${contract}`,
    ],
  ])("checks the whole repository when %s changed (by its real path)", (_, link, changed) => {
    const { dir } = repository();
    link(dir);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "the registry through a link");
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, changed), readFileSync(join(dir, changed), "utf8") + "\n");
    git(dir, "commit", "-qam", "a tool contract");
    const run = runStep(dir, {
      INPUT_COMMAND: "check",
      INPUT_REGISTRY: "registry",
      BASE_SHA: head,
    });
    expect(run.stdout).toContain(`'${changed}' is read by the settings`);
    expect(run.stdout).toContain("checking the whole repository");
    expect(run.code).toBe(1);
    expect(sarifFiles(run.outputs.findings)).toContain("processes/other.bpmn");
  });

  it.each([
    [
      "package.json (a dependency bump)",
      "package.json",
      '{ "name": "repo", "devDependencies": { "acme-rules": "2.0.0" } }\n',
      "'package.json' changed and is not a file check takes",
    ],
    [
      "a lock file",
      "package-lock.json",
      '{ "name": "repo", "lockfileVersion": 3, "packages": { "": {} } }\n',
      "'package-lock.json' changed and is not a file check takes",
    ],
    [
      "a document the config ignores",
      "drafts/next.agent.json",
      '{ "kind": "AgentWorkflow" }\n',
      "'drafts/next.agent.json' changed and the config's ignores pass over it",
    ],
  ])("checks the whole repository, and never the file, when %s changed", (_, file, text, said) => {
    const { dir } = repository();
    writeFileSync(
      join(dir, "agentflow.config.json"),
      JSON.stringify({
        registry: "registry",
        ignores: ["package.json", "package-lock.json", "drafts/**"],
      }),
    );
    mkdirSync(join(dir, "drafts"));
    writeFileSync(join(dir, "package.json"), '{ "name": "repo" }\n');
    writeFileSync(join(dir, "package-lock.json"), '{ "name": "repo" }\n');
    writeFileSync(join(dir, "drafts/next.agent.json"), "{}\n");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a config with ignores");
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, file), text);
    git(dir, "commit", "-qam", "a change");
    const run = runStep(dir, { INPUT_COMMAND: "check", BASE_SHA: head });
    expect(run.stdout).toContain(said);
    expect(run.stdout).toContain("; checking the whole repository");
    expect(run.code).toBe(1);
    const files = sarifFiles(run.outputs.findings);
    expect(files).toContain("processes/other.bpmn");
    expect(files).not.toContain(file);
  });

  it("checks the whole repository when the changes cannot be compared with the settings", () => {
    const { dir } = repository();
    writeFileSync(join(dir, "agentflow.config.json"), JSON.stringify({ registry: "gone" }));
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "a registry folder that is not there");
    const head = git(dir, "rev-parse", "HEAD");
    const loan = join(dir, "processes/loan.bpmn");
    writeFileSync(loan, readFileSync(loan, "utf8") + "\n");
    git(dir, "commit", "-qam", "a process");
    const run = runStep(dir, { INPUT_COMMAND: "gate", BASE_SHA: head });
    expect(run.stdout).toContain("the changed files could not be compared with the settings");
    expect(run.stdout).toContain("checking the whole repository");
  });

  it("is a usage mistake (exit 2) outside a git repository, and when git diff fails", () => {
    const outside = runStep(tempDir("agentflow-action-nogit-"), {
      INPUT_COMMAND: "gate",
      BASE_SHA: "0123456789abcdef0123456789abcdef01234567",
    });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("not in a git repository");
    expect(outside.outputs["exit-code"]).toBe("2");
    const { dir, base } = repository();
    // A HEAD that is not a commit: `git diff <base> HEAD` fails.
    writeFileSync(join(dir, ".git/HEAD"), "ref: refs/heads/nowhere\n");
    const broken = runStep(dir, { INPUT_COMMAND: "gate", BASE_SHA: base });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`git diff ${base} HEAD failed`);
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

  it("never reads its own outputs when they lie in the checkout: every surface agrees", () => {
    const { dir } = repository();
    const step = () =>
      runStep(dir, {
        INPUT_COMMAND: "check",
        INPUT_REGISTRY: "registry",
        AGENTFLOW_FORMAT: "gitlab",
        OUT_DIR: "agentflow-out", // as the component sets it
      });
    // Twice: the second run finds the first one's outputs in the checkout, as a rerun does.
    for (const run of [step(), step()]) {
      expect(run.stdout).toContain("checking the whole repository");
      expect(existsSync(join(dir, "agentflow-out/agentflow.gitlab.json"))).toBe(true);
      const issues = JSON.parse(
        readFileSync(join(dir, "agentflow-out/agentflow.gitlab.json"), "utf8"),
      ) as { location: { path: string } }[];
      const paths = new Set(issues.map((issue) => issue.location.path));
      expect(paths).toEqual(new Set(["processes/loan.bpmn", "processes/other.bpmn"]));
      const text = readFileSync(join(dir, "agentflow-out/agentflow-report.txt"), "utf8");
      expect(text).not.toContain("agentflow-out");
      expect(text).toContain(`(${String(issues.length)} errors, 0 warnings) in 9 files checked`);
    }
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
