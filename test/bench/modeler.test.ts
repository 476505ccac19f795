/**
 * The modeller bench's table (bench/modeler.ts): each figure plain, agentflow and their
 * difference, and the limits judged on them — the import on the medians and on the
 * least-disturbed runs, the edit on its 95th percentile.
 */
import { describe, expect, it } from "vitest";
import type { EditFigures, ModelerBench, OpenMedians } from "../../bench/modeler.js";
import { modelerTable } from "../../bench/modeler.js";

const open = (blockedMs: number, least: number): OpenMedians & { least: OpenMedians } => ({
  blockedMs,
  afterImportMs: 10,
  longestMs: blockedMs,
  readyMs: blockedMs,
  least: { blockedMs: least, afterImportMs: 5, longestMs: least, readyMs: least },
});

const edits = (p95Ms: number): EditFigures => ({ count: 40, p50Ms: 5, p95Ms, maxMs: p95Ms + 1 });

function bench(agentflow: number, agentflowLeast: number, p95: number, paired = 0): ModelerBench {
  return {
    flowNodes: 2000,
    agentTasks: 91,
    runs: 5,
    plain: open(1000, 900),
    agentflow: open(agentflow, agentflowLeast),
    pairedBlockedMs: paired,
    badges: 91,
    plainCommand: edits(3),
    agentflowCommand: edits(3),
    evaluate: edits(p95),
    plainRendered: edits(1),
    agentflowRendered: edits(p95 + 10),
    byKind: { rename: 1, move: 2, "add-flow": 3, "remove-flow": 4, "btv-level": 5 },
  };
}

const row = (table: ReturnType<typeof modelerTable>, start: string) =>
  table.find((r) => r.figure.startsWith(start));

describe("modelerTable", () => {
  it("judges the import within plain + 100 ms, on the medians and on the least runs", () => {
    const met = row(modelerTable(bench(1100, 1000, 10)), "import: main thread blocked");
    expect(met).toMatchObject({
      plain: "1000.0 (900.0)",
      agentflow: "1100.0 (1000.0)",
      difference: "100.0 (100.0)",
      met: "yes / yes",
    });
    expect(row(modelerTable(bench(1100, 1001, 10)), "import: main thread")?.met).toBe("yes / NO");
  });

  it("judges the import on the paired difference, agentflow − plain of the same run", () => {
    const figure = "import: blocked, agentflow − plain";
    expect(row(modelerTable(bench(1500, 1500, 10, 100)), figure)).toMatchObject({
      difference: "100.0",
      limit: "≤ 100",
      met: "yes",
    });
    expect(row(modelerTable(bench(1000, 900, 10, 100.5)), figure)?.met).toBe("NO");
  });

  it("judges an edit by its 95th percentile against 50 ms", () => {
    const figure = "edit: re-evaluation until drawn";
    expect(row(modelerTable(bench(0, 0, 50)), figure)).toMatchObject({
      agentflow: "5.0 / 50.0 (51.0)",
      limit: "p95 ≤ 50",
      met: "yes",
    });
    expect(row(modelerTable(bench(0, 0, 50.1)), figure)?.met).toBe("NO");
  });
});
