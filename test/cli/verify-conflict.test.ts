/**
 * `verify` when the registry gains a second, different document for an approved `id@version`:
 * every format names the real reasons — the conflict, on its files, and the document added — and
 * never calls an approved file that is still there, byte for byte, removed.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Keys } from "./approval-bundle.js";
import { approvedRepo, copyOf, replaceIn, runIn } from "./approval-bundle.js";

let keys: Keys;
let dir: string;

beforeAll(async () => {
  let repo: string;
  ({ repo, keys } = await approvedRepo());
  dir = copyOf(repo);
  // Read before the approved one (names are read in order): the registry resolves to neither.
  copyFileSync(join(dir, "registry/credit-risk.agent.json"), join(dir, "registry/aa.agent.json"));
  replaceIn(join(dir, "registry/aa.agent.json"), "Assessor", "Assessos");
});

const verify = (...more: string[]) =>
  runIn(dir, "verify", "approval.json", "--trusted-keys", keys.pub("alice"), ...more);

const SUBJECT_REASONS = [
  ["SUBJECT_ADDED", "registry/aa.agent.json"],
  ["SUBJECT_UNUSED", "registry/credit-bureau-report.tool.json"],
];

describe("verify after a conflicting registry document was added", () => {
  it("json: the added document and the unread contract, no removal, and the conflict", async () => {
    const out = await verify("-f", "json");
    expect(out.code).toBe(1);
    const data = JSON.parse(out.stdout) as {
      reasons: { code: string; subject?: string }[];
      registry: { file: string; code: string; data: { definitions: { source: string }[] } }[];
    };
    const subjects = data.reasons
      .filter((r) => r.code.startsWith("SUBJECT_"))
      .map((r) => [r.code, r.subject]);
    expect(subjects).toEqual(SUBJECT_REASONS);
    expect(
      data.registry.map((e) => [e.file, e.code, e.data.definitions.map((d) => d.source)]),
    ).toEqual([
      [
        "registry/credit-risk.agent.json",
        "REGISTRY_CONFLICT",
        ["registry/aa.agent.json", "registry/credit-risk.agent.json"],
      ],
    ]);
  });

  it("sarif: a result for the conflict on its file, none calling a file removed", async () => {
    const out = await verify("-f", "sarif");
    expect(out.code).toBe(1);
    const log = JSON.parse(out.stdout) as {
      runs: {
        results: {
          ruleId: string;
          message: { text: string };
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    const results = log.runs[0]?.results ?? [];
    const at = (r: (typeof results)[number]) =>
      r.locations[0]?.physicalLocation.artifactLocation.uri;
    expect(
      results.filter((r) => r.ruleId !== "DECISION_CHANGED").map((r) => [r.ruleId, at(r)]),
    ).toEqual([...SUBJECT_REASONS, ["REGISTRY_CONFLICT", "registry/credit-risk.agent.json"]]);
    const conflict = results.find((r) => r.ruleId === "REGISTRY_CONFLICT");
    expect(conflict?.message.text).toContain(
      "agnt-credit-risk@1.0.0 is defined with different content in 'registry/aa.agent.json'",
    );
  });

  it("text -o: the report file names the conflict, as stderr does", async () => {
    const out = await verify("-o", "verify.txt");
    expect(out.code).toBe(1);
    const report = readFileSync(join(dir, "verify.txt"), "utf8");
    expect(report).not.toContain("removed since the approval (approved as");
    expect(report).toContain(
      "registry/credit-bureau-report.tool.json: unchanged, but no longer an input of the decisions (approved as a tool contract)\n",
    );
    expect(report).toContain("registry/aa.agent.json: added since the approval (a workflow)\n");
    expect(report).toMatch(
      /^the registry: registry\/credit-risk\.agent\.json: agnt-credit-risk@1\.0\.0 is defined with different content in 'registry\/aa\.agent\.json' .*\(REGISTRY_CONFLICT\)$/m,
    );
  });
});
