import { describe, expect, it } from "vitest";
import type { ReportBenchRow } from "../../bench/report.js";
import { drawingGrowth, REPORT_BENCH_CASES, reportTable } from "../../bench/report.js";

const row = (flowNodes: number, drawing: string, drawMs: number, htmlBytes: number) =>
  ({
    task: `${String(flowNodes)} flow nodes`,
    flowNodes,
    di: drawing === "di",
    drawing,
    buildMs: 1,
    htmlMs: 2,
    markdownMs: 3,
    drawMs,
    htmlBytes,
    samples: 3,
  }) satisfies ReportBenchRow;

describe("the process report benchmark's figures", () => {
  it("measures the drawing with DI at 500 and 5,000 flow nodes", () => {
    expect(REPORT_BENCH_CASES.filter((c) => c.di).map((c) => c.size)).toEqual([500, 5_000, 50_000]);
  });

  it("gives the growth between the smallest and largest DI drawings, ignoring undrawn ones", () => {
    const rows = [
      row(5_000, "di", 40, 6_000_000),
      row(500, "di", 4, 640_000),
      row(50_000, "none", 0, 9),
    ];
    expect(drawingGrowth(rows)).toEqual({
      fromNodes: 500,
      toNodes: 5_000,
      drawRatio: 10,
      bytesRatio: 6_000_000 / 640_000,
      bytesPerNodeFrom: 1_280,
      bytesPerNodeTo: 1_200,
    });
    expect(drawingGrowth([row(500, "di", 4, 1)])).toBeUndefined();
  });

  it("formats rows for console.table with bytes per flow node", () => {
    expect(reportTable([row(500, "di", 4.25, 640_000)])).toEqual([
      {
        process: "500 flow nodes",
        drawing: "di",
        "build (ms)": "1.0",
        "html (ms)": "2.0",
        "markdown (ms)": "3.0",
        "draw (ms)": "4.3",
        "html size (kB)": 625,
        "html bytes / node": 1_280,
        samples: 3,
      },
    ]);
  });
});
