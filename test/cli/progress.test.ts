/**
 * The progress line of `agentflow check` on a terminal, with a fake terminal and a fake clock:
 * drawn on stderr at most every 100 ms, in place, erased before the report and before any other
 * message; never without a terminal. The total time ends the summary only when stdout is a
 * terminal, so captured output stays the same from run to run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import {
  formatCount,
  formatDuration,
  PROGRESS_INTERVAL_MS,
  startProgress,
  withTotalTime,
} from "../../src/cli/progress.js";
import { tempDir } from "../temp.js";

interface Terminal {
  readonly io: CliIo;
  /** Every write in order, tagged with its stream. */
  readonly writes: [stream: "out" | "err", text: string][];
  /** Moves the fake clock on. */
  advance(ms: number): void;
}

function terminal(options: { stdout?: boolean; stderr?: boolean; step?: number } = {}): Terminal {
  const writes: Terminal["writes"] = [];
  let time = 1_000;
  return {
    io: {
      stdout: (t) => writes.push(["out", t]),
      stderr: (t) => writes.push(["err", t]),
      isTTY: false,
      stdoutIsTTY: options.stdout ?? false,
      stderrIsTTY: options.stderr ?? true,
      now: () => (time += options.step ?? 0),
    },
    writes,
    advance: (ms) => (time += ms),
  };
}

const stderrOf = (t: Terminal): string[] => t.writes.filter(([s]) => s === "err").map(([, x]) => x);
const stdoutOf = (t: Terminal): string =>
  t.writes
    .filter(([s]) => s === "out")
    .map(([, x]) => x)
    .join("");

function folder(count: number, extra: Record<string, string> = {}): string {
  const dir = tempDir("agentflow-progress-");
  for (let i = 0; i < count; i += 1) {
    writeFileSync(
      join(dir, `t${String(i).padStart(3, "0")}.tool.json`),
      JSON.stringify({
        kind: "ToolContract",
        id: `tool:t${i}`,
        version: "1.0.0",
        name: `Tool ${i}`,
        inputSchema: { q: "text" },
        outputSchema: { a: "text" },
        effect: "read",
        authorization: "automatic",
      }),
    );
  }
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("the progress line", () => {
  it("waits one interval, then redraws in place at most every 100 ms", () => {
    const t = terminal();
    const line = startProgress(t.io, 10_000);
    line.tick();
    t.advance(PROGRESS_INTERVAL_MS - 1);
    line.tick();
    expect(t.writes).toEqual([]);
    t.advance(1);
    line.tick();
    t.advance(50);
    line.tick();
    line.tick();
    t.advance(50);
    line.tick();
    expect(stderrOf(t)).toEqual(["\rchecking 3 / 10,000 files…", "\rchecking 6 / 10,000 files…"]);
    line.clear();
    line.clear();
    const blank = " ".repeat("checking 6 / 10,000 files…".length);
    expect(stderrOf(t).slice(2)).toEqual([`\r${blank}\r`]);
  });

  it("says file for one file, and clears nothing when nothing was drawn", () => {
    const t = terminal();
    const line = startProgress(t.io, 1);
    line.clear();
    t.advance(500);
    line.tick();
    expect(stderrOf(t)).toEqual(["\rchecking 1 / 1 file…"]);
  });

  it("does nothing, and never reads the clock, when stderr is not a terminal", () => {
    const io: CliIo = {
      stdout: () => undefined,
      stderr: () => expect.fail("no progress without a terminal"),
      isTTY: false,
      now: () => expect.fail("no clock without a terminal"),
    };
    const line = startProgress(io, 5);
    for (let i = 0; i < 5; i += 1) line.tick();
    line.clear();
  });

  it("formats counts and durations the same everywhere", () => {
    expect([0, 7, 999, 1_000, 4_812, 10_000, 1_234_567].map(formatCount)).toEqual([
      "0",
      "7",
      "999",
      "1,000",
      "4,812",
      "10,000",
      "1,234,567",
    ]);
    expect([0.4, 420, 999.4, 999.6, 3_240, 61_000].map(formatDuration)).toEqual([
      "0 ms",
      "420 ms",
      "999 ms",
      "1.0 s",
      "3.2 s",
      "61.0 s",
    ]);
    expect(withTotalTime("a\n\n✔ 2 files checked, no problems\n", 3_240)).toBe(
      "a\n\n✔ 2 files checked, no problems in 3.2 s\n",
    );
  });
});

describe("agentflow check on a terminal", () => {
  it("draws progress on stderr, erases it before the report, and prints the same report", async () => {
    const dir = folder(30);
    const plain = terminal({ stderr: false });
    expect(await main(["check", dir], plain.io)).toBe(0);
    // Every clock read moves time on 40 ms: the line is drawn every few files.
    const tty = terminal({ step: 40 });
    expect(await main(["check", dir], tty.io)).toBe(0);
    expect(stdoutOf(tty)).toBe(stdoutOf(plain));
    expect(stdoutOf(tty)).toMatch(
      /\n✔ 30 files checked, no problems\nconfig: [^\n]+\nrule set: [^\n]+\n$/,
    );
    const lines = stderrOf(tty);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^\rchecking \d+ \/ 30 files…$/);
    expect(lines.at(-1)).toMatch(/^\r +\r$/);
    // The report comes after the line is erased.
    expect(tty.writes.at(-1)?.[0]).toBe("out");
    expect(tty.writes.at(-2)).toEqual(["err", lines.at(-1)]);
  });

  it("erases the line before a file's syntax error, then draws it again", async () => {
    const dir = folder(20, { "t010-bad.json": "{ nope" });
    const tty = terminal({ step: 60 });
    expect(await main(["check", dir], tty.io)).toBe(2);
    const lines = stderrOf(tty);
    const error = lines.findIndex((l) => l.startsWith("agentflow: "));
    expect(lines[error]).toMatch(/t010-bad\.json:1:\d+: /);
    expect(lines[error - 1]).toMatch(/^\r +\r$/);
    expect(lines[error + 1]).toMatch(/^\rchecking \d+ \/ 21 files…$/);
  });

  it("draws progress with machine formats too: stdout stays pure data", async () => {
    const dir = folder(10);
    const tty = terminal({ step: 100 });
    expect(await main(["check", "--format", "json", dir], tty.io)).toBe(0);
    expect(stderrOf(tty).length).toBeGreaterThan(0);
    expect(JSON.parse(stdoutOf(tty))).toHaveLength(10);
  });

  it("ends the text summary with the total time only when stdout is a terminal", async () => {
    const dir = folder(3);
    // Not drawing progress, the run reads the clock twice: at its start and for the summary.
    const tty = terminal({ stdout: true, stderr: false, step: 1_600 });
    expect(await main(["check", dir], tty.io)).toBe(0);
    expect(stdoutOf(tty)).toMatch(
      /\n✔ 3 files checked, no problems in 1\.6 s\nconfig: [^\n]+\nrule set: [^\n]+\n$/,
    );
    const json = terminal({ stdout: true, stderr: false, step: 1_600 });
    expect(await main(["check", "--format", "json", dir], json.io)).toBe(0);
    expect(stdoutOf(json)).not.toContain(" s\n");
    const piped = terminal({ stdout: false, stderr: false, step: 1_600 });
    expect(await main(["check", dir], piped.io)).toBe(0);
    expect(stdoutOf(piped)).toMatch(
      /\n✔ 3 files checked, no problems\nconfig: [^\n]+\nrule set: [^\n]+\n$/,
    );
  });
});
