/**
 * A plugin's bad report, through the CLI: whatever the output format, with worker threads or a
 * cache, the outcome is the same — the rule crashed (`RULE_CRASHED` naming it), the verdict
 * blocked (exit 1) — never an internal error (exit 3) in one format and a pass in another.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import type { PolicyRepo } from "./policy-repo.js";
import { inRepo } from "./policy-repo.js";
import { run } from "./run.js";

/** A plugin `bad` whose rule `R` (of `scope`) makes the report `report` (JavaScript source). */
function plugin(scope: "workflow" | "process", report: string): string {
  return `export default {
  meta: { name: "bad", version: "1.0.0" },
  rules: {
    R: {
      meta: { code: "R", scope: "${scope}", defaultSeverity: "error", description: "d", docs: "https://x", messages: { default: "finding" } },
      check(context) { context.report(${report}); },
    },
  },
};
`;
}

const PLUGINS: Readonly<Record<string, string>> = {
  bigint: plugin("process", '{ elementId: "DraftAndSendOffer", path: "", data: { n: 10n } }'),
  critical: plugin(
    "process",
    '{ elementId: "DraftAndSendOffer", path: "", severity: "critical", data: {} }',
  ),
  "null-target": plugin("workflow", '{ target: null, path: "", data: {} }'),
  "no-path": plugin("workflow", "{ data: {} }"),
};

let repo: PolicyRepo;

beforeAll(() => {
  const dir = tempDir("agentflow-plugin-reports-");
  writeFileSync(join(dir, "package.json"), '{ "name": "r", "private": true, "type": "module" }\n');
  cpSync("examples/registry", join(dir, "registry"), { recursive: true });
  mkdirSync(join(dir, "plugins"));
  for (const [name, source] of Object.entries(PLUGINS)) {
    writeFileSync(join(dir, "plugins", `${name}.js`), source);
    const config = { registry: "registry", plugins: { bad: `./plugins/${name}.js` } };
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(config));
  }
  repo = { dir, acmeHash: "", bankHash: "", outside: "" };
});

const WAYS: readonly (readonly string[])[] = [
  ["-f", "text"],
  ["-f", "json"],
  ["-f", "sarif"],
  ["-f", "github"],
  ["-f", "junit"],
  ["-f", "text", "--concurrency", "2"],
  ["-f", "json", "--cache"],
];

/**
 * Worker threads load agentflow from its sources (two seconds a run), so they run one plugin of
 * each scope: the worker path is the same for every bad report of a scope, whose checks the
 * single-thread ways cover.
 */
const THREADED: ReadonlySet<string> = new Set(["bigint", "no-path"]);

const CASES = Object.keys(PLUGINS).flatMap((name) =>
  WAYS.filter((way) => THREADED.has(name) || !way.includes("--concurrency")).map(
    (way) => [name, way.join(" "), way] as const,
  ),
);

describe("a plugin's bad report in every output", () => {
  it.each(CASES)("%s, %s: RULE_CRASHED naming bad/R, exit 1", async (name, _, way) => {
    const command = name === "bigint" || name === "critical" ? "gate" : "check";
    const file =
      command === "gate"
        ? "examples/processes/loan-origination.bpmn"
        : "registry/offer-sender.agent.json";
    const input = command === "gate" ? join(process.cwd(), file) : file;
    const out = await inRepo(repo, () => run(command, "-c", `${name}.json`, ...way, input));
    expect([out.code, out.stderr]).toEqual([1, ""]);
    expect(out.stdout).toContain("RULE_CRASHED");
    expect(out.stdout).toContain("bad/R");
  });
});
