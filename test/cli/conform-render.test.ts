/** conform's outputs for a process instance left unverified: text, JSON and SARIF all say it. */
import ajvDraft04 from "ajv-draft-04";
import formatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { conformJson, conformSarif, conformText } from "../../src/cli/conform-render.js";
import type { ConformanceReport } from "../../src/conform/index.js";
import { summarize } from "../../src/conform/results.js";
import { operationAudit } from "../../src/report/audit/operation.js";
import schema from "../fixtures/sarif/sarif-schema-2.1.0.json" with { type: "json" };

const ajv = new ajvDraft04.default({ strict: false, allErrors: true, logger: false });
formatsModule.default(ajv);
const validateSarif = ajv.compile(schema);

const instances = [
  {
    instance: "7",
    process: "claims",
    ended: false,
    deviations: [],
    unverified: [
      {
        reason: "RUN_UNFINISHED" as const,
        run: "7",
        at: { index: 1, file: "zeebe.jsonl", line: 2 },
        node: "agent",
        data: { instance: "7", task: "agent", gates: "approve" },
      },
    ],
  },
];
const report: ConformanceReport = {
  runs: [],
  instances,
  unmapped: { count: 0, first: [] },
  summary: summarize([], 0, instances, 0, 2),
};
const MESSAGE =
  'the records of process instance 7 end before it does, after agent task "agent" began and before it passed a gate the task requires (approve)';

describe("an unverified process instance in conform's outputs", () => {
  it("is listed in the text with its reason, and counted in the summary line", () => {
    const text = conformText(report, { basis: "the registry r", files: [] });
    expect(text.split("\n")).toEqual([
      "checked against the registry r",
      "process instance 7 (claims): unverified",
      `  zeebe.jsonl:2  unverified RUN_UNFINISHED  ${MESSAGE}`,
      "0 run(s): 0 conforming, 0 deviating, 0 unverified; 1 process instance(s), 0 deviating, 1 unverified",
      "",
    ]);
    expect(report.summary.ok).toBe(false);
  });

  it("carries its message in JSON and is a warning in SARIF", () => {
    const json = JSON.parse(conformJson(report, { basis: "b", files: [] })) as {
      instances: { unverified: { message: string }[] }[];
    };
    expect(json.instances[0]?.unverified[0]?.message).toBe(MESSAGE);
    const sarif = JSON.parse(conformSarif(report, "0.0.0")) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(sarif.runs[0]?.results.map((r) => [r.ruleId, r.level])).toEqual([
      ["UNVERIFIED_RUN_UNFINISHED", "warning"],
    ]);
  });

  it("is counted in the audit report's Operation section", () => {
    const op = operationAudit({ conformance: report, basis: "b" });
    expect(op.unverifiedInstances).toBe(1);
    expect(op.ok).toBe(false);
  });
});

describe("unread records beyond the twenty listed, in conform's outputs", () => {
  const first = Array.from({ length: 20 }, (_, i) => ({
    kind: "unknown" as const,
    reason: "the span is outside any invoke_agent span, so it belongs to no agent run",
    class: "unknown" as const,
    at: { index: i, file: "u25.jsonl", line: i + 1 },
  }));
  const many: ConformanceReport = {
    runs: [],
    instances: [],
    unmapped: { count: 25, first },
    summary: summarize([], 0, [], 25, 25),
  };

  it("are counted in SARIF: one result says how many are not listed, and the run's properties the count", () => {
    const sarif = JSON.parse(conformSarif(many, "0.0.0")) as {
      runs: {
        results: {
          ruleId: string;
          level: string;
          message: { text: string };
          locations: unknown[];
        }[];
        properties: { unreadRecords: { count: number; listed: number } };
      }[];
    };
    const run = sarif.runs[0];
    expect(run?.results.map((r) => [r.ruleId, r.level])).toEqual(
      Array.from({ length: 21 }, () => ["UNREAD_RECORD", "warning"]),
    );
    expect(run?.results[20]?.message.text).toBe(
      "5 more record(s) that no run could be given were not read, and are not listed here (25 in all; the first 20 are listed)",
    );
    expect(run?.results[20]?.locations).toEqual([]);
    expect(run?.properties.unreadRecords).toEqual({ count: 25, listed: 20 });
  });

  it("are counted in the text and the JSON too", () => {
    const text = conformText(many, { basis: "b", files: [] });
    expect(text).toContain("… and 5 more unread record(s)");
    const json = JSON.parse(conformJson(many, { basis: "b", files: [] })) as {
      unmapped: { count: number };
    };
    expect(json.unmapped.count).toBe(25);
  });
});

describe("run files and record text in conform's outputs", () => {
  const unread = (file: string, ids: Record<string, string> = {}): ConformanceReport => ({
    runs: [],
    instances: [],
    unmapped: {
      count: 1,
      first: [
        {
          kind: "unknown" as const,
          reason: "the span is outside any invoke_agent span",
          class: "unknown" as const,
          at: { index: 0, file, line: 3, ids },
        },
      ],
    },
    summary: summarize([], 0, [], 1, 1),
  });
  const artifact = (sarif: string) =>
    (
      JSON.parse(sarif) as {
        runs: {
          originalUriBaseIds?: unknown;
          results: { locations: { physicalLocation: { artifactLocation: unknown } }[] }[];
        }[];
      }
    ).runs[0];

  // As gate's and check's SARIF place files: encoded, relative to %SRCROOT% below it.
  it.each<[string, string | undefined, unknown]>([
    [
      "cf/my runs #1%.jsonl",
      undefined,
      { uri: "cf/my%20runs%20%231%25.jsonl", uriBaseId: "%SRCROOT%" },
    ],
    ["./plain.jsonl", undefined, { uri: "plain.jsonl", uriBaseId: "%SRCROOT%" }],
    ["/abs/a b.jsonl", undefined, { uri: "file:///abs/a%20b.jsonl" }],
    ["cf/a b.jsonl", "file:///work/repo", { uri: "cf/a%20b.jsonl", uriBaseId: "%SRCROOT%" }],
    ["/elsewhere/x.jsonl", "file:///work/repo/", { uri: "file:///elsewhere/x.jsonl" }],
  ])("places %j (srcRoot %s) at %j", (file, srcRoot, expected) => {
    const sarif = conformSarif(unread(file), "0.0.0", srcRoot);
    expect(validateSarif(JSON.parse(sarif)), JSON.stringify(validateSarif.errors)).toBe(true);
    const run = artifact(sarif);
    expect(run?.results[0]?.locations[0]?.physicalLocation.artifactLocation).toEqual(expected);
  });

  it.each<[string | undefined, unknown]>([
    [undefined, { "%SRCROOT%": { description: { text: "The folder agentflow was run in." } } }],
    ["file:///work/repo", { "%SRCROOT%": { uri: "file:///work/repo/" } }],
  ])("defines %SRCROOT% when a location names it (srcRoot %s)", (srcRoot, expected) => {
    expect(artifact(conformSarif(unread("a.jsonl"), "0.0.0", srcRoot))?.originalUriBaseIds).toEqual(
      expected,
    );
    expect(artifact(conformSarif(unread("/abs/a.jsonl"), "0.0.0", srcRoot))).not.toHaveProperty(
      "originalUriBaseIds",
    );
  });

  // Invisible characters shown escaped, as the audit report shows them: `gpt-4o\u200B` is not
  // `gpt-4o`, and no control character reaches the terminal.
  it.each<[string, Record<string, string>, string]>([
    ["a.jsonl", { model: "gpt-4o\u200B" }, "unread record a.jsonl:3 [model=gpt-4o\\u{200B}]: "],
    ["a.jsonl", { key: "k\u001b[2K\r" }, "unread record a.jsonl:3 [key=k\\u{1B}[2K\\r]: "],
    ["a\u202Eb.jsonl", {}, "unread record a\\u{202E}b.jsonl:3: "],
  ])("shows %j %j escaped in the text", (file, ids, start) => {
    const lines = conformText(unread(file, ids), { basis: "b", files: [] }).split("\n");
    expect(lines[1]).toBe(`${start}the span is outside any invoke_agent span`);
  });
});
