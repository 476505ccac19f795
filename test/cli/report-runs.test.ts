/**
 * `agentflow report … --runs <files…>`: recorded runs (simulated runs of the credit-risk
 * workflow, and of mutated copies of it, exported as OTLP/JSON) checked as `conform` checks
 * them, in the report's Operation section; exit 1 when a run deviates or is unverified, exit 2
 * for a run file that cannot be read and for options that cannot apply.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { creditRisk, creditRiskRun } from "../conform/export/credit-risk.js";
import { tempDir } from "../temp.js";
import { approvedRepo, runIn } from "./approval-bundle.js";
import { run, STACK_LINE } from "./run.js";

const WORKFLOW = "examples/registry/credit-risk.agent.json";
const LOAN = "examples/processes/loan-origination.bpmn";
const otlpRun = creditRiskRun;

/** Retries allowed up to 5 and more steps: a run of it retries past the approved 2 and 9 steps. */
const moreRetries: AgentWorkflow = {
  ...creditRisk,
  budget: { ...creditRisk.budget, maxSteps: 40 },
  nodes: creditRisk.nodes.map((n) =>
    n.type === "decision" && "onFalse" in n.config
      ? { ...n, config: { ...n.config, onFalse: { ...n.config.onFalse, maxRetries: 5 } } }
      : n,
  ),
};

/** A second model call the approved workflow does not have, between assessment and decision. */
const extraNode: AgentWorkflow = {
  ...creditRisk,
  nodes: [
    ...creditRisk.nodes,
    {
      id: "double-check",
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:credit-risk@1.0.0", structuredOutput: true },
    },
  ],
  edges: [
    ...creditRisk.edges.filter((e) => e.from !== "assess-risk"),
    { from: "assess-risk", to: "double-check", edgeType: "data" },
    { from: "double-check", to: "report-complete", edgeType: "data" },
  ],
};

const dir = tempDir("agentflow-report-runs-");
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const good = file("good.jsonl", otlpRun(creditRisk, "good", 1));
const retried = file("retried.jsonl", otlpRun(moreRetries, "retried", 4));
const extra = file("extra.jsonl", otlpRun(extraNode, "extra"));

/** The good run without its agent span (so without its workflow and its end), and a bad line. */
function cutRun(): string {
  const doc = JSON.parse(otlpRun(creditRisk, "cut")) as {
    resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
  };
  for (const r of doc.resourceSpans) {
    for (const s of r.scopeSpans) s.spans = s.spans.filter((x) => !x.name.startsWith("invoke_"));
  }
  return JSON.stringify(doc) + "\n{not json\n";
}
const cut = file("cut.jsonl", cutRun());

const report = (out: string, ...more: string[]) =>
  run("report", WORKFLOW, "--registry", "examples/registry", "-o", join(dir, out), ...more);

describe("agentflow report --runs", () => {
  it("adds the Operation section, worst runs first, and exits 1 on deviating runs", async () => {
    const out = await report("three.md", "--runs", good, retried, extra);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `agentflow: wrote ${join(dir, "three.md")} (nothing blocks; runs: 1 conforming, 2 deviating, 0 unverified)\n`,
    );
    const md = readFileSync(join(dir, "three.md"), "utf8");
    const op = md.slice(md.indexOf("## Operation"), md.indexOf("## Oversight checklist"));
    expect(op).toContain("3 recorded run(s)");
    expect(op).toContain("checked against the registry examples/registry");
    expect(op).toContain(`\`${retried}\` (otlp, 1 record(s))`);
    expect(op).toContain("| ✔ conforming | 1 | 33.3% |");
    expect(op).toContain("| ✖ deviating | 2 | 66.7% |");
    const classes = op
      .split("\n")
      .filter((l) => /^\| `[A-Z_]+` \| \d+ \|/.test(l))
      .map((l) => l.split(" | ").slice(0, 2).join(" "));
    // Most frequent first; equal counts in the classes' own order (NODE_UNKNOWN comes first).
    expect(classes).toEqual([
      "| `RETRY_EXCEEDED` 2",
      "| `NODE_UNKNOWN` 1",
      "| `BUDGET_EXCEEDED` 1",
    ]);
    expect(op).toContain('decision "report-complete" retried 3 times; the workflow allows 2');
    const runs = op.split("\n").filter((l) => l.startsWith("#### Run "));
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatch(/: deviating — 3 deviation\(s\), 0 unverified part\(s\)/);
    expect(runs[1]).toMatch(/: deviating — 1 deviation\(s\), 0 unverified part\(s\)/);
    // The retried run executed the tool, then the model: both drawn as visited, in that order.
    expect(op).toContain(`p0[/"(1) pull-report`);
    expect(op).toContain(`p1["(2) assess-risk<br/>llm"]`);
    expect(op).toContain("Deviating nodes the workflow does not have: double-check.");
    expect(op).toContain(`${retried}:1`);
  });

  it("draws the worst runs' paths in the HTML page", async () => {
    const out = await report("three.html", "--runs", extra, retried);
    expect(out.code).toBe(1);
    const html = readFileSync(join(dir, "three.html"), "utf8");
    expect(html).toContain(`<li><a href="#operation">Operation</a></li>`);
    const first = html.slice(html.indexOf(`aria-labelledby="op-run-1-title"`));
    const svg = first.slice(0, first.indexOf("</svg>"));
    expect(svg).toMatch(/<g class="node tool visited" data-node-id="pull-report">/);
    expect(svg).toMatch(/<g class="node llm visited" data-node-id="assess-risk">/);
    expect(svg).toContain("Path of run ");
  });

  it("exits 0 when every run conforms, and says so", async () => {
    const out = await report("good.md", "--runs", good);
    expect(out.code).toBe(0);
    const md = readFileSync(join(dir, "good.md"), "utf8");
    expect(md).toContain("| ✔ conforming | 1 | 100% |");
    expect(md).toContain("**✔ 1 of 1 run(s) conform (100%).**");
    expect(md).toContain("Every run conforms.");
  });

  it("shows an unfinished run as unverified, never conforming, with the unread record", async () => {
    const unnamed = await report("cut.md", "--runs", cut);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(
      "names no workflow and 2 are approved (agnt-credit-risk@1.0.0, agnt-offer-sender@1.0.0): say which with --workflow <id@version>",
    );
    expect(existsSync(join(dir, "cut.md"))).toBe(false);
    const out = await report("cut.md", "--runs", cut, "--workflow", "agnt-credit-risk@1.0.0");
    expect(out.code).toBe(1);
    const md = readFileSync(join(dir, "cut.md"), "utf8");
    expect(md).toContain("| ✔ conforming | 0 | 0% |");
    expect(md).toMatch(/\| ⚠ unverified [^|]*\| 1 \| 100% \|/);
    expect(md).toContain("Records that could not be read: 1.");
    expect(md).toContain(`- \`${cut}:2\`: not JSON`);
    expect(md).toContain("| `RUN_UNFINISHED` | the records end before the run does |");
  });

  it("says a run file with nothing in it as nothing checked, never as 0 of 0 conforming (exit 1)", async () => {
    const empty = file("empty.jsonl", "");
    const out = await report("empty.md", "--runs", empty);
    expect(out.code).toBe(1);
    const md = readFileSync(join(dir, "empty.md"), "utf8");
    expect(md).toContain(
      "**✖ Nothing was checked: the run files hold no run and no process instance.**",
    );
    expect(md).not.toContain("0 of 0 run(s) conform");
    const html = await report("empty.html", "--runs", empty);
    expect(html.code).toBe(1);
    const page = readFileSync(join(dir, "empty.html"), "utf8");
    expect(page).toContain(
      "✖ Nothing was checked: the run files hold no run and no process instance",
    );
    expect(page).not.toContain("0 of 0 run(s) conform");
  });

  it("fails closed with exit 2 on a run file that cannot be read, writing nothing", async () => {
    const missing = join(dir, "missing.jsonl");
    const out = await report("missing.md", "--runs", good, missing);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${missing}: cannot be read (ENOENT)`);
    expect(out.stderr).not.toMatch(STACK_LINE);
    expect(existsSync(join(dir, "missing.md"))).toBe(false);
  });

  it("refuses options that cannot apply (exit 2)", async () => {
    const cases: [string[], string][] = [
      [["--workflow", "agnt-credit-risk@1.0.0"], "--workflow and --source apply with --runs"],
      [["--source", "otlp"], "--workflow and --source apply with --runs"],
      [["--runs", good, "--source", "csv"], "unknown --source 'csv'"],
      [
        ["--runs", good, "--workflow", "agnt-nope@1.0.0"],
        "--workflow agnt-nope@1.0.0 is not among the approved workflows",
      ],
      [["--runs", "-", "-"], "stdin (-) can be read once"],
    ];
    for (const [args, message] of cases) {
      const out = await report("refused.md", ...args);
      expect(out.code, args.join(" ")).toBe(2);
      expect(out.stderr).toContain(message);
    }
    const bare = await run("report", WORKFLOW, "-o", join(dir, "bare.md"), "--runs", good);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("give --approval <approval.json> or --registry <dir>");
    expect(existsSync(join(dir, "refused.md"))).toBe(false);
  });

  it("checks the runs of a process report against the registry and the process", async () => {
    const out = await run(
      "report",
      LOAN,
      "--registry",
      "examples/registry",
      "-o",
      join(dir, "loan.md"),
      "--runs",
      extra,
    );
    expect(out.code).toBe(1);
    const md = readFileSync(join(dir, "loan.md"), "utf8");
    expect(md).toContain("checked against the registry examples/registry and 1 process(es)");
    expect(md).toContain("Process instances: 0 checked, 0 deviating.");
    expect(md).toContain("| `NODE_UNKNOWN` | 1 |");
    // The credit-risk workflow is reviewed in this report: the run is drawn on it.
    expect(md).toContain("#### Run ");
    expect(md).toContain(`p0[/"(1) pull-report`);
  });
});

describe("agentflow report --approval --runs", () => {
  let repo: string;
  beforeAll(async () => {
    ({ repo } = await approvedRepo());
  });

  it("checks the runs against what the approval approved", async () => {
    writeFileSync(
      join(repo, "runs.jsonl"),
      otlpRun(creditRisk, "a") + otlpRun({ ...creditRisk, version: "1.1.0" }, "b"),
    );
    const out = await runIn(
      repo,
      "report",
      "processes/loan.bpmn",
      "--approval",
      "approval.json",
      "-o",
      "loan.md",
      "--runs",
      "runs.jsonl",
    );
    expect(out.code).toBe(1);
    const md = readFileSync(join(repo, "loan.md"), "utf8");
    expect(md).toContain("checked against the approval approval.json");
    expect(md).toContain("| ✖ deviating | 1 | 50% |");
    expect(md).toContain(
      "the run is of workflow agnt-credit-risk\\@1.1.0, which was never approved (approved: agnt-credit-risk\\@1.0.0)",
    );
    expect(md).toContain(
      "This report does not review agnt-credit-risk\\@1.1.0: the run's path is not drawn",
    );
  });
});
