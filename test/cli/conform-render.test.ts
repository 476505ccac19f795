/** conform's outputs for a process instance left unverified: text, JSON and SARIF all say it. */
import { describe, expect, it } from "vitest";
import { conformJson, conformSarif, conformText } from "../../src/cli/conform-render.js";
import type { ConformanceReport } from "../../src/conform/index.js";
import { summarize } from "../../src/conform/results.js";
import { operationAudit } from "../../src/report/audit/operation.js";

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
