/**
 * The progress line of a long run and its total time: the one place in the CLI that reads a
 * clock ({@link CliIo.now}, injectable). The line is drawn on stderr, and only when stderr is a
 * terminal, so it never reaches CI logs, redirected files or the report on stdout, whatever the
 * output format.
 */
import type { CliIo } from "./io.js";

/** The shortest time between two draws of the progress line: at most ten a second. */
export const PROGRESS_INTERVAL_MS = 100;

function clock(io: CliIo): () => number {
  return io.now ?? (() => performance.now());
}

/** Groups thousands with commas, `4812` → `4,812`: fixed rather than the locale's, like all output. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A duration for people: `420 ms` under a second, then seconds to one decimal, `3.2 s`. */
export function formatDuration(ms: number): string {
  return ms < 999.5 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Starts a stopwatch; the function it returns gives the milliseconds since. */
export function startStopwatch(io: CliIo): () => number {
  const now = clock(io);
  const start = now();
  return () => now() - start;
}

/**
 * Ends a report's last line (its summary) with the time the run took: `… in 12 files checked`
 * becomes `… in 12 files checked in 3.2 s`.
 */
export function withTotalTime(report: string, ms: number): string {
  const body = report.endsWith("\n") ? report.slice(0, -1) : report;
  return `${body} in ${formatDuration(ms)}\n`;
}

/** The progress line of a run over a known number of files. */
export interface ProgressLine {
  /** Says that one more file is finished; draws the line when the last draw is old enough. */
  tick(): void;
  /** Erases the line, if one is shown, so that what is written next starts on a clean line. */
  clear(): void;
}

const SILENT: ProgressLine = { tick: () => undefined, clear: () => undefined };

/**
 * The line `checking 4,812 / 10,000 files…` on stderr, redrawn in place (`\r`) at most every
 * {@link PROGRESS_INTERVAL_MS}. The first draw waits one interval too, so that a quick run shows
 * nothing. When stderr is not a terminal, the line does nothing and never reads the clock.
 */
export function startProgress(io: CliIo, total: number, verb = "checking"): ProgressLine {
  if (io.stderrIsTTY !== true) return SILENT;
  const now = clock(io);
  const of = `${formatCount(total)} ${total === 1 ? "file" : "files"}…`;
  let last = now();
  let done = 0;
  /** Characters of the line on screen; 0 when none is shown. */
  let shown = 0;
  return {
    tick() {
      done += 1;
      const t = now();
      if (t - last < PROGRESS_INTERVAL_MS) return;
      last = t;
      const line = `${verb} ${formatCount(done)} / ${of}`;
      io.stderr(`\r${line}${" ".repeat(Math.max(0, shown - line.length))}`);
      shown = Math.max(shown, line.length);
    },
    clear() {
      if (shown === 0) return;
      io.stderr(`\r${" ".repeat(shown)}\r`);
      shown = 0;
    },
  };
}
