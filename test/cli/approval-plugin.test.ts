/**
 * An approval pins a plugin by its whole module graph, not by its entry alone: the approved
 * repository's plugin imports `./helper.mjs`, and one byte changed in the helper is refused by
 * `agentflow verify` with the helper's own line and the rule set's; untouched, it verifies. A
 * plugin whose imports cannot be pinned cannot be approved at all.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStatement } from "../../src/approval/index.js";
import type { Keys } from "./approval-bundle.js";
import {
  allowedRepo,
  copyOf,
  lines,
  makeKeys,
  PLUGIN,
  readEnvelope,
  replaceIn,
  runIn,
} from "./approval-bundle.js";

/** The bundle's plugin, with its rule's description taken from a helper module. */
const ENTRY = `import { DESCRIPTION } from "./helper.mjs";\n${PLUGIN.replace(
  '"Finds nothing; it is here to be an input"',
  "DESCRIPTION",
)}`;
const HELPER = 'export const DESCRIPTION = "Finds nothing; it is here to be an input";\n';

let keys: Keys;
let repo: string;
let approved: ApprovalStatement;

const short = (digest: string): string =>
  `${digest.startsWith("sha256:") ? "sha256:" : ""}${digest.replace(/^sha256:/, "").slice(0, 12)}…`;
const changed = (name: string): string => {
  const digest = approved.subject.find((s) => s.name === name)?.digest.sha256 ?? "?";
  return `${name}: sha256 differs from the approved ${short(digest)}`;
};
const RULE_SET_LINE = (): RegExp =>
  new RegExp(
    `^rule set: digest sha256:[0-9a-f]{12}… differs from the approved ${short(approved.predicate.ruleSet.digest)}$`,
  );

/** Approves the processes of `dir` as alice. */
function approve(dir: string) {
  return runIn(
    dir,
    "approve",
    "processes/loan.bpmn",
    "--key",
    keys.key("alice"),
    "--role",
    "risk-officer",
    "-o",
    "approval.json",
  );
}

const verify = (dir: string) =>
  runIn(dir, "verify", "approval.json", "--trusted-keys", keys.pub("alice"));

beforeAll(async () => {
  keys = await makeKeys();
  repo = allowedRepo();
  writeFileSync(join(repo, "policy/acme.js"), ENTRY);
  writeFileSync(join(repo, "policy/helper.mjs"), HELPER);
  const made = await approve(repo);
  expect(made.code).toBe(0);
  approved = readEnvelope(join(repo, "approval.json")).statement;
});

describe("a plugin's imported file is an approved input", () => {
  it("names every file of the plugin's graph as a subject of kind plugin", () => {
    const plugins = approved.subject.filter((s) => s.annotations.agentflowKind === "plugin");
    expect(plugins.map((s) => s.name)).toEqual(["policy/acme.js", "policy/helper.mjs"]);
  });

  it("refuses one byte changed in the imported file, naming it and the rule set", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "policy/helper.mjs"), "Finds nothing", "Finds nothinG");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const [ruleSet, ...rest] = lines(out.stdout);
    expect(ruleSet).toMatch(RULE_SET_LINE());
    expect(rest).toEqual([changed("policy/helper.mjs")]);
  });

  it("verifies the untouched repository", async () => {
    const out = await verify(copyOf(repo));
    expect(out.stdout).toMatch(/^approval\.json: verified: \d+ subject\(s\) unchanged/);
    expect(out.code).toBe(0);
  });

  it("refuses to approve a plugin that imports by a computed specifier (exit 2)", async () => {
    const dir = copyOf(repo);
    const entry = readFileSync(join(dir, "policy/acme.js"), "utf8");
    writeFileSync(
      join(dir, "policy/acme.js"),
      entry.replace(
        '"./helper.mjs";',
        '"./helper.mjs";\nconst more = "./more.mjs";\nawait import(more);',
      ),
    );
    const out = await approve(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `plugin 'acme': ${join(dir, "policy/acme.js")}:3: import(…) of a computed specifier: agentflow cannot tell what it loads`,
    );
  });
});
