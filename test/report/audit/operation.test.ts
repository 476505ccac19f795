/**
 * The Operation section as data: shares that never round to none or all, the worst runs in
 * their order, the classes with conform's own sentences, the unread records.
 */
import { describe, expect, it } from "vitest";
import type { Deviation, RunResult } from "../../../src/conform/index.js";
import { deviationMessage } from "../../../src/conform/index.js";
import {
  operationAudit,
  percentOf,
  WORST_RUNS,
  worstRuns,
} from "../../../src/report/audit/operation.js";
import { conformance } from "./operation-fixture.js";

describe("percentOf", () => {
  it("gives one decimal at most, and never rounds a part to none or to all", () => {
    expect(percentOf(0, 0)).toBe("0%");
    expect(percentOf(0, 7)).toBe("0%");
    expect(percentOf(7, 7)).toBe("100%");
    expect(percentOf(3, 4)).toBe("75%");
    expect(percentOf(1, 3)).toBe("33.3%");
    expect(percentOf(2, 3)).toBe("66.7%");
    expect(percentOf(1, 1_000_000)).toBe("0.1%");
    expect(percentOf(999_999, 1_000_000)).toBe("99.9%");
    expect(percentOf(1_999, 2_000)).toBe("99.9%");
  });
});

const deviation = (run: string): Deviation => ({
  class: "NODE_UNKNOWN",
  run,
  at: { index: 0 },
  data: { node: "x", in: "workflow w@1" },
});

function result(run: string, deviations: number, unverified: number): RunResult {
  return {
    run,
    workflow: "w@1",
    verdict: deviations > 0 ? "deviating" : unverified > 0 ? "unverified" : "conforming",
    deviations: Array.from({ length: deviations }, () => deviation(run)),
    unverified: Array.from({ length: unverified }, () => ({
      reason: "RUN_UNFINISHED" as const,
      run,
      data: {},
    })),
    events: 1,
    visited: [],
  };
}

describe("worstRuns", () => {
  it("orders by deviations, then unverified parts, keeping the checked order on ties", () => {
    const runs = [
      result("u1", 0, 1),
      result("ok", 0, 0),
      result("d1", 1, 0),
      result("d3", 3, 0),
      result("u2", 0, 2),
      result("d1b", 1, 5),
      result("d1c", 1, 0),
    ];
    expect(worstRuns(runs, 10).map((r) => r.run)).toEqual(["d3", "d1b", "d1", "d1c", "u2", "u1"]);
    expect(worstRuns(runs).map((r) => r.run)).toEqual(["d3", "d1b", "d1", "d1c", "u2"]);
    expect(WORST_RUNS).toBe(5);
    expect(worstRuns(runs, 0)).toEqual([]);
  });

  it("keeps the same five as sorting everything would, in one pass over many runs", () => {
    const runs = Array.from({ length: 2_000 }, (_, i) =>
      result(`r${String(i)}`, (i * 7919) % 13, i % 3),
    );
    const sorted = runs
      .filter((r) => r.verdict !== "conforming")
      .map((r, i) => ({ r, i }))
      .sort(
        (a, b) =>
          b.r.deviations.length - a.r.deviations.length ||
          b.r.unverified.length - a.r.unverified.length ||
          a.i - b.i,
      )
      .slice(0, 5)
      .map(({ r }) => r.run);
    expect(worstRuns(runs).map((r) => r.run)).toEqual(sorted);
  });
});

describe("operationAudit", () => {
  const report = conformance();
  const op = operationAudit({ conformance: report, basis: "the approval a.json" });

  it("counts the runs by verdict, with their shares; unverified apart from conforming", () => {
    expect(op.runs).toBe(4);
    expect(op.events).toBe(17);
    expect(op.conforming).toEqual({ count: 1, percent: "25%" });
    expect(op.deviating).toEqual({ count: 2, percent: "50%" });
    expect(op.unverified).toEqual({ count: 1, percent: "25%" });
    expect(op.ok).toBe(false);
    expect(op.basis).toBe("the approval a.json");
    expect(op.instances).toEqual({ checked: 0, deviating: 0 });
  });

  it("counts the records that could not be read, outside runs and inside them", () => {
    expect(op.unread.count).toBe(1);
    expect(op.unread.inRuns).toBe(0);
    expect(op.unread.first.map((u) => u.reason)).toEqual(["not JSON"]);
  });

  it("lists the classes most frequent first, each with conform's sentence for its first", () => {
    expect(op.classes.map((c) => [c.class, c.count])).toEqual([
      ["IDENTITY_MISMATCH", 2],
      ["NODE_UNKNOWN", 1],
      ["TRANSITION_UNKNOWN", 1],
      ["TOOL_INPUT_INVALID", 1],
    ]);
    const three = report.runs.find((r) => r.run === "three");
    const first = three?.deviations.find((d) => d.class === "IDENTITY_MISMATCH");
    expect(first).toBeDefined();
    if (first !== undefined) expect(op.classes[0]?.meaning).toBe(deviationMessage(first));
    expect(op.classes[0]?.meaning).toContain("gpt-5");
  });

  it("keeps the worst runs, most deviations first, then the unverified", () => {
    expect(op.worst.map((r) => [r.run, r.verdict])).toEqual([
      ["three", "deviating"],
      ["one", "deviating"],
      ["open", "unverified"],
    ]);
  });

  it("says so when every run conforms", () => {
    const clean = operationAudit({
      conformance: {
        runs: [],
        instances: [],
        unmapped: { count: 0, first: [] },
        summary: {
          runs: 3,
          conforming: 3,
          deviating: 0,
          unverified: 0,
          events: 12,
          deviationsByClass: {},
          ok: true,
        },
      },
      basis: "b",
    });
    expect(clean.conforming).toEqual({ count: 3, percent: "100%" });
    expect(clean.worst).toEqual([]);
    expect(clean.classes).toEqual([]);
    expect(clean.ok).toBe(true);
  });
});
