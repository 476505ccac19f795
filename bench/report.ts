/**
 * The process report benchmark (issue 21): the audit report of generated processes
 * (`bpmn-generate.ts`) of 5,000 flow nodes with BPMN DI, drawn as the file lays it out, and of
 * 50,000 without DI, past the layout bound (`DRAWING_LIMIT`), so not drawn; with 5,000 without
 * DI and 50,000 with DI (past `PROCESS_DI_LIMIT`) for comparison. Times building the report
 * (parse, gate check, the one agent workflow's review), rendering the HTML and the Markdown, and
 * the drawing alone (layout from DI and SVG), and the drawing's growth with DI from 500 to 5,000
 * flow nodes (time and HTML bytes per flow node), which docs/report.md calls linear.
 * `node --expose-gc --import tsx bench/report.ts` prints the table; `benchReport()` returns the
 * rows for a combined report and `reportTable()` formats them for `console.table`.
 */
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import type { AuditReport } from "../src/report/audit/index.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../src/report/audit/index.js";
import { layoutFromDi, processMarks, renderProcessSvg } from "../src/report/audit/process/index.js";
import { benchAgentWorkflow } from "./bpmn.js";
import { BENCH_AGENT_REF, generateBpmnProcess } from "./bpmn-generate.js";

/** One process's measurements (mean milliseconds per run). */
export interface ReportBenchRow {
  readonly task: string;
  readonly flowNodes: number;
  readonly di: boolean;
  /** How the report drew it: `di`, `dagre` or `none` (not drawn). */
  readonly drawing: string;
  readonly buildMs: number;
  readonly htmlMs: number;
  readonly markdownMs: number;
  /** Layout from DI and SVG of the process picture alone (0 when not drawn). */
  readonly drawMs: number;
  readonly htmlBytes: number;
  readonly samples: number;
}

/** The processes measured: flow nodes, and whether the file keeps its DI. */
export const REPORT_BENCH_CASES: readonly { readonly size: number; readonly di: boolean }[] = [
  { size: 500, di: true },
  { size: 5_000, di: true },
  { size: 5_000, di: false },
  { size: 50_000, di: false },
  { size: 50_000, di: true },
];

function withoutDi(xml: string): string {
  const start = xml.indexOf("  <bpmndi:BPMNDiagram");
  const end = xml.indexOf("</bpmndi:BPMNDiagram>");
  return start < 0 || end < 0 ? xml : xml.slice(0, start) + xml.slice(end + 22);
}

/** Runs the benchmark and returns one row per process (`cases`: all of {@link REPORT_BENCH_CASES}). */
export async function benchReport(
  cases: readonly { readonly size: number; readonly di: boolean }[] = REPORT_BENCH_CASES,
): Promise<ReportBenchRow[]> {
  const agent = benchAgentWorkflow();
  const rows: ReportBenchRow[] = [];
  for (const { size, di } of cases) {
    const generated = generateBpmnProcess(size);
    const text = di ? generated.xml : withoutDi(generated.xml);
    const options = {
      file: `generated-${String(size)}.bpmn`,
      text,
      tools: { agentflow: "bench" },
      resolveWorkflow: (ref: string) => (ref === BENCH_AGENT_REF ? agent : undefined),
    };
    const report: AuditReport = await auditProcessReport(options);
    const audit = report.process;
    const first = audit?.diagrams[0];
    if (audit === undefined || first === undefined) throw new Error("no process read");
    const name = `${size.toLocaleString("en-US")} flow nodes, ${di ? "with" : "without"} DI`;
    const bench = new Bench({ time: 500, iterations: 3, warmupIterations: 1 });
    bench.add("build", async () => {
      await auditProcessReport(options);
    });
    bench.add("html", () => renderAuditHtml(report));
    bench.add("markdown", () => renderAuditMarkdown(report));
    const marks = processMarks(audit);
    if (first.drawing.mode === "di") {
      bench.add("draw", () =>
        renderProcessSvg(layoutFromDi(first.diagram), marks, { idPrefix: "p", title: "bench" }),
      );
    }
    globalThis.gc?.();
    await bench.run();
    const mean = (task: string): number => {
      const result = bench.tasks.find((t) => t.name === task)?.result;
      return result?.state === "completed" ? result.latency.mean : 0;
    };
    const samples = bench.tasks.reduce((min, t) => {
      const r = t.result;
      return Math.min(min, r.state === "completed" ? r.latency.samplesCount : 0);
    }, Infinity);
    rows.push({
      task: name,
      flowNodes: generated.flowNodes,
      di,
      drawing: first.drawing.mode,
      buildMs: mean("build"),
      htmlMs: mean("html"),
      markdownMs: mean("markdown"),
      drawMs: mean("draw"),
      htmlBytes: Buffer.byteLength(renderAuditHtml(report)),
      samples,
    });
  }
  return rows;
}

/** The rows as `console.table` shows them: times in ms, the page in kB and bytes per flow node. */
export function reportTable(rows: readonly ReportBenchRow[]): Record<string, string | number>[] {
  return rows.map((r) => ({
    process: r.task,
    drawing: r.drawing,
    "build (ms)": r.buildMs.toFixed(1),
    "html (ms)": r.htmlMs.toFixed(1),
    "markdown (ms)": r.markdownMs.toFixed(1),
    "draw (ms)": r.drawMs.toFixed(1),
    "html size (kB)": Math.round(r.htmlBytes / 1024),
    "html bytes / node": Math.round(r.htmlBytes / r.flowNodes),
    samples: r.samples,
  }));
}

/** How the drawing with DI grows from the smallest to the largest drawn process measured. */
export interface DrawingGrowth {
  readonly fromNodes: number;
  readonly toNodes: number;
  /** Draw time of the larger ÷ the smaller: about the node ratio when linear. */
  readonly drawRatio: number;
  /** HTML bytes of the larger ÷ the smaller. */
  readonly bytesRatio: number;
  readonly bytesPerNodeFrom: number;
  readonly bytesPerNodeTo: number;
}

/** The growth of the DI drawing between the smallest and largest rows drawn from DI, if two. */
export function drawingGrowth(rows: readonly ReportBenchRow[]): DrawingGrowth | undefined {
  const drawn = rows.filter((r) => r.drawing === "di").sort((a, b) => a.flowNodes - b.flowNodes);
  const from = drawn[0];
  const to = drawn[drawn.length - 1];
  if (from === undefined || to === undefined || from === to) return undefined;
  return {
    fromNodes: from.flowNodes,
    toNodes: to.flowNodes,
    drawRatio: to.drawMs / from.drawMs,
    bytesRatio: to.htmlBytes / from.htmlBytes,
    bytesPerNodeFrom: from.htmlBytes / from.flowNodes,
    bytesPerNodeTo: to.htmlBytes / to.flowNodes,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchReport(
    process.argv.includes("--di-only")
      ? REPORT_BENCH_CASES.filter((c) => c.di && c.size <= 5_000)
      : REPORT_BENCH_CASES,
  );
  console.table(reportTable(rows));
  const growth = drawingGrowth(rows);
  if (growth !== undefined) {
    console.log(
      `drawing with DI, ${growth.toNodes.toLocaleString("en-US")} ÷ ${growth.fromNodes.toLocaleString("en-US")} flow nodes: draw ${growth.drawRatio.toFixed(2)}×, html bytes ${growth.bytesRatio.toFixed(2)}× (${Math.round(growth.bytesPerNodeFrom)} → ${Math.round(growth.bytesPerNodeTo)} bytes per flow node)`,
    );
  }
  const base = rows.find((r) => r.flowNodes === 5_000 && r.di);
  const big = rows.find((r) => r.flowNodes === 50_000 && !r.di);
  if (base !== undefined && big !== undefined) {
    console.log(
      `html render, 50,000 without DI ÷ 5,000 with DI: ${(big.htmlMs / base.htmlMs).toFixed(2)}×; build: ${(big.buildMs / base.buildMs).toFixed(2)}× (10× the flow nodes)`,
    );
  }
}
