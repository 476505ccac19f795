/**
 * `agentflow simulate`: run a workflow on fixtures (or explore every decision route) and print
 * the trail one record per line, or the result as JSON. Exit 1 when the run blocks.
 */
import type { Diagnostic } from "../model/index.js";
import type { DecideTable, ExploreReport, Fixtures, SimulationState } from "../simulate/index.js";
import {
  explore,
  finalOutput,
  lintSimulationOptions,
  MAX_STEPS_LIMIT,
  runUsage,
  simulate,
} from "../simulate/index.js";
import { jsonText } from "../simulate/internal.js";
import type { CliIo } from "./io.js";
import { UsageError, wholeNumber } from "./io.js";
import { optionsChecked } from "./fixtures-errors.js";
import { printImportWarnings } from "./imported.js";
import { loadObject, loadWorkflow } from "./load.js";
import { visibleText } from "../model/index.js";

/** Options of `agentflow simulate`, as commander parses them. */
export interface SimulateCliOptions {
  readonly fixtures?: string;
  readonly decide?: readonly string[];
  readonly explore?: boolean;
  readonly format: string;
  readonly maxSteps?: string;
  /** `--strict-params`: stop at a tool whose params hold an unresolvable template. */
  readonly strictParams?: boolean;
}

/** Parses `--decide dec-3=onFalse,onTrue` (repeatable) into a decide table. */
export function parseDecide(values: readonly string[]): DecideTable {
  const table: Record<string, string[]> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq <= 0 || eq === value.length - 1) {
      throw new UsageError(`--decide expects decisionId=route[,route...], got '${value}'`);
    }
    const id = value.slice(0, eq);
    // Own entries only: a decision id such as `constructor` must not find Object.prototype's.
    const previous = Object.hasOwn(table, id) ? (table[id] ?? []) : [];
    const routes = value
      .slice(eq + 1)
      .split(",")
      .map((r) => r.trim())
      .filter((r) => r !== "");
    Object.defineProperty(table, id, {
      value: [...previous, ...routes],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return table;
}

function trailText(state: SimulationState): string {
  const lines = state.trail.map((r) => {
    const node = r.nodeId ?? "";
    return `${String(r.step).padStart(4)}  ${r.type.padEnd(16)}  ${node.padEnd(18)}  ${r.message}`;
  });
  const blocked = state.blockedDecision;
  const { steps, moves } = runUsage(state);
  const spent = `${String(steps)} steps (${String(moves)} moves)`;
  lines.push(
    blocked === null
      ? `✔ complete in ${spent}; output ${jsonText(finalOutput(state)) ?? "undefined"}`
      : `✖ blocked at ${blocked.nodeId} (${blocked.cell}) after ${spent}: ${blocked.reason}`,
  );
  // A run that reaches the end is complete; what is wrong with its output is said beside it.
  const end = state.trail.at(-1);
  if (state.complete && end?.type === "end")
    for (const f of end.findings ?? []) lines.push(findingLine(f, ""));
  return shownLines(lines);
}

/** `⚠ final output /answer: <message> (FINAL_OUTPUT_SCHEMA)`, indented by `indent`. */
function findingLine(f: Diagnostic, indent: string): string {
  const at = typeof f.data.pointer === "string" ? f.data.pointer : "";
  return `${indent}⚠ final output ${at === "" ? "(whole)" : at}: ${f.message} (${f.code})`;
}

/**
 * The lines as a terminal shows them: node ids, messages and outputs come from the workflow and
 * its fixtures, so invisible characters in them are shown escaped (a newline would forge a line).
 */
function shownLines(lines: readonly string[]): string {
  return lines.map(visibleText).join("\n") + "\n";
}

/**
 * The JSON text of a result, indented. An output may nest deeper than `JSON.stringify` can go
 * (the simulator keeps it without recursion): such a result is written on one line instead.
 */
function indented(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) + "\n";
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return (jsonText(value) ?? "null") + "\n";
}

function exploreText(report: ExploreReport): string {
  const lines = [
    `${report.runs.length} run(s) explored${report.truncated ? " (truncated)" : ""}`,
    "",
    "Route coverage:",
  ];
  for (const c of report.coverage) {
    const why = c.reason === undefined ? "" : ` — ${c.reason}`;
    lines.push(`  ${c.nodeId} ${c.route} → ${c.next}: ${c.status} (${c.runs} run(s))${why}`);
  }
  lines.push("", `Ends (${report.ends.length}):`);
  for (const e of report.ends) {
    lines.push(
      `  at ${e.nodeId}: ${jsonText(e.output) ?? "undefined"} (runs ${e.runs.join(", ")})`,
    );
    for (const f of e.findings ?? []) lines.push(findingLine(f, "    "));
  }
  lines.push("", `Blocks (${report.blocks.length}):`);
  for (const b of report.blocks)
    lines.push(`  at ${b.nodeId} (${b.cell}): ${b.reason} (runs ${b.runs.join(", ")})`);
  return shownLines(lines);
}

function maxStepsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = wholeNumber(value);
  if (n === undefined || n < 1 || n > MAX_STEPS_LIMIT)
    throw new UsageError(
      `--max-steps needs a whole number from 1 to ${String(MAX_STEPS_LIMIT)}, got '${value}'`,
    );
  return n;
}

/** Runs the command; returns the exit code (0 complete / no block found, 1 blocked). */
export async function runSimulate(
  file: string,
  options: SimulateCliOptions,
  io: CliIo,
): Promise<number> {
  if (options.format !== "text" && options.format !== "json") {
    throw new UsageError(`unknown format '${options.format}' (expected text, json)`);
  }
  if (options.explore === true && (options.decide ?? []).length > 0) {
    throw new UsageError(
      "--explore forces every route itself; it cannot be combined with --decide",
    );
  }
  const { workflow, imported } = await loadWorkflow(file);
  printImportWarnings(io, file, imported);
  const fixtures = (
    options.fixtures === undefined ? {} : await loadObject(options.fixtures, "fixtures")
  ) as Fixtures;
  const decide = parseDecide(options.decide ?? []);
  const maxSteps = maxStepsOf(options.maxSteps);
  const base = {
    fixtures,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(options.strictParams === true ? { strictParams: true } : {}),
  };
  return optionsChecked(options.fixtures, () => {
    for (const problem of lintSimulationOptions(workflow, { fixtures, decide })) {
      io.stderr(`agentflow: warning: ${problem.path}: ${problem.message}\n`);
    }
    if (options.explore === true) {
      const report = explore(workflow, base);
      io.stdout(options.format === "json" ? indented(report) : exploreText(report));
      return report.blocks.length > 0 ? 1 : 0;
    }
    const state = simulate(workflow, { ...base, decide });
    // A template passed through unresolved is a run that went on where a strict one stops.
    for (const r of state.trail) {
      for (const u of r.unresolvedTemplates ?? []) {
        io.stderr(
          visibleText(
            `agentflow: warning: step ${String(r.step)}, tool "${r.nodeId ?? ""}": ${u.template} is unresolved (${u.reason}); its text was passed on (--strict-params stops here)`,
          ) + "\n",
        );
      }
    }
    io.stdout(options.format === "json" ? indented(state) : trailText(state));
    return state.complete ? 0 : 1;
  });
}
