/**
 * `conform` throughput and memory: a file of about a million OTLP/JSON events (runs of the
 * example credit-risk workflow, simulated and written by the OpenTelemetry JS SDK, each copy
 * with its own trace id), read in a fresh process two ways, one core each: only reading the
 * lines and `JSON.parse`-ing them (the floor any reader pays), and the whole of conform
 * (records, the OTLP reader, the checker). Reported: events/s, the ratio of the two times, and
 * each process's peak RSS beside the file's size. `node --import tsx bench/conform.ts` prints
 * the table; `benchConform()` returns the row.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AgentWorkflow } from "../src/model/index.js";
import { simulate } from "../src/simulate/index.js";
import { otlpFromSimulation } from "../test/conform/export/otlp.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WORKFLOW = join(ROOT, "examples/registry/credit-risk.agent.json");

/** One measurement. */
export interface ConformRow {
  readonly events: number;
  readonly runs: number;
  readonly fileMiB: number;
  /** Seconds to read and `JSON.parse` every line. */
  readonly parseS: number;
  /** Seconds for the whole of conform. */
  readonly conformS: number;
  readonly eventsPerS: number;
  /** conform's time over the parse floor's. */
  readonly ratio: number;
  readonly parsePeakMiB: number;
  readonly conformPeakMiB: number;
  /** Whether every run conformed (the file is of simulated runs: it must). */
  readonly ok: boolean;
}

/** Writes the file: `lines` copies of one simulated run, each with its own trace id. */
function writeRuns(path: string, lines: number): void {
  const wf = JSON.parse(readFileSync(WORKFLOW, "utf8")) as AgentWorkflow;
  const state = simulate(wf, {
    input: { applicantId: "A-1", amount: 1000 },
    fixtures: {
      "pull-report": { outputs: [{ score: 700 }] },
      "assess-risk": {
        outputs: [
          { riskBand: "low", score: 700, is_complete: false },
          { riskBand: "low", score: 710, is_complete: true },
        ],
      },
    },
  });
  if (!state.complete)
    throw new Error(`the bench's run must complete: ${state.blockedDecision?.reason ?? ""}`);
  const line = otlpFromSimulation(wf, state, {
    id: "run-template",
    startMs: 1_700_000_000_000,
  }).trim();
  const traceId = /"traceId":"([0-9a-f]{32})"/.exec(line)?.[1];
  if (traceId === undefined) throw new Error("the template line has no trace id");
  const parts = line.split(traceId);
  const chunk: string[] = [];
  writeFileSync(path, "");
  for (let i = 0; i < lines; i++) {
    chunk.push(parts.join((i + 1).toString(16).padStart(32, "0")));
    if (chunk.length === 1000 || i === lines - 1) {
      writeFileSync(path, chunk.join("\n") + "\n", { flag: "a" });
      chunk.length = 0;
    }
  }
}

/** The floor: stream the file, split lines, JSON.parse each. Prints [seconds, events]. */
const PARSE = `
import { createReadStream } from "node:fs";
const t0 = performance.now();
let partial = "", lines = 0;
for await (const chunk of createReadStream(process.argv[2], { encoding: "utf8", highWaterMark: 1 << 16 })) {
  const text = partial + chunk; let start = 0;
  for (let nl = text.indexOf("\\n"); nl >= 0; nl = text.indexOf("\\n", start)) { JSON.parse(text.slice(start, nl)); lines++; start = nl + 1; }
  partial = text.slice(start);
}
process.stdout.write(JSON.stringify({ s: (performance.now() - t0) / 1000, lines, peak: process.resourceUsage().maxRSS / 1024 }));
`;

/** The whole of conform, in-process, on the source (run with tsx). Prints its figures. */
const CONFORM = `
import { readFileSync } from "node:fs";
import { createConformanceChecker, createRecordSplitter, readerOf } from "${pathToFileURL(join(ROOT, "src/conform/index.ts")).href}";
import { createReadStream } from "node:fs";
const wf = JSON.parse(readFileSync(process.argv[3], "utf8"));
const contract = JSON.parse(readFileSync(process.argv[4], "utf8"));
const checker = createConformanceChecker({ workflows: [{ ref: wf.id + "@" + wf.version, workflow: wf, tools: new Map([[wf.nodes.find((n) => n.type === "tool").config.usesTool, contract]]) }], processes: [] });
let events = 0;
const push = checker.push;
const counted = { push: (e) => { events++; push(e); } };
const t0 = performance.now();
const split = createRecordSplitter(process.argv[2]);
const reader = readerOf("otlp").create();
const take = (items) => { for (const item of items) { if ("invalid" in item) throw new Error(item.invalid); for (const e of reader.push(item)) counted.push(e); } };
for await (const chunk of createReadStream(process.argv[2], { encoding: "utf8", highWaterMark: 1 << 16 })) take(split.push(chunk));
take(split.end());
for (const e of reader.end()) counted.push(e);
const report = checker.end();
process.stdout.write(JSON.stringify({ s: (performance.now() - t0) / 1000, events, runs: report.summary.runs, ok: report.summary.ok, peak: process.resourceUsage().maxRSS / 1024 }));
`;

interface Child {
  readonly s: number;
  readonly peak: number;
  readonly events?: number;
  readonly lines?: number;
  readonly runs?: number;
  readonly ok?: boolean;
}

function child(args: readonly string[], script: string, dir: string, name: string): Child {
  const file = join(dir, name);
  writeFileSync(file, script);
  const result = spawnSync(process.execPath, [file, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Child;
}

/** Measures conform on a file of about `targetEvents` events. */
export function benchConform(targetEvents = 1_000_000): ConformRow {
  const dir = mkdtempSync(join(tmpdir(), "agentflow-conform-bench-"));
  try {
    const probe = join(dir, "probe.jsonl");
    writeRuns(probe, 1);
    const contractFile = join(ROOT, "examples/registry/credit-bureau-report.tool.json");
    const script = join(dir, "conform.mts");
    writeFileSync(script, CONFORM);
    const conformOn = (file: string): Child => {
      const result = spawnSync(
        process.execPath,
        ["--import", "tsx", script, file, WORKFLOW, contractFile],
        {
          cwd: ROOT,
          encoding: "utf8",
          maxBuffer: 1 << 20,
        },
      );
      if (result.status !== 0) throw new Error(`conform failed: ${result.stderr}`);
      return JSON.parse(result.stdout) as Child;
    };
    const eventsPerRun = conformOn(probe).events ?? 1;
    const runs = Math.ceil(targetEvents / eventsPerRun);
    const file = join(dir, "runs.jsonl");
    writeRuns(file, runs);
    const parse = child([file], PARSE, dir, "parse.mjs");
    const conform = conformOn(file);
    const events = conform.events ?? 0;
    return {
      events,
      runs: conform.runs ?? 0,
      fileMiB: statSync(file).size / 2 ** 20,
      parseS: parse.s,
      conformS: conform.s,
      eventsPerS: events / conform.s,
      ratio: conform.s / parse.s,
      parsePeakMiB: parse.peak,
      conformPeakMiB: conform.peak,
      ok: conform.ok === true,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row as a printable table. */
export function conformTable(row: ConformRow): Record<string, string>[] {
  return [
    {
      events: row.events.toLocaleString("en"),
      runs: row.runs.toLocaleString("en"),
      "file (MiB)": row.fileMiB.toFixed(0),
      "JSON.parse only (s)": row.parseS.toFixed(2),
      "conform (s)": row.conformS.toFixed(2),
      "events/s": Math.round(row.eventsPerS).toLocaleString("en"),
      "× JSON.parse": row.ratio.toFixed(2),
      "peak RSS parse / conform (MiB)": `${row.parsePeakMiB.toFixed(0)} / ${row.conformPeakMiB.toFixed(0)}`,
      "all conform": String(row.ok),
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.table(conformTable(benchConform(Number(process.argv[2] ?? 1_000_000))));
}
