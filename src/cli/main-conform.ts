/**
 * The `conform` command of `agentflow` (docs/conform.md): recorded runs checked against the
 * approved model. Registered apart from the others so that the program's file stays readable;
 * like them, it loads its modules only when it runs.
 */
import type { Command } from "commander";
import type { ConformCliOptions } from "./conform.js";
import type { CliIo } from "./io.js";

/** What `conform --help` adds below the options. */
const CONFORM_HELP = `
conform reads recorded runs — OpenTelemetry GenAI spans (OTLP JSON, as the collector's file
exporter writes them), Zeebe's exported records, Camunda's agent instance history, LangGraph's
stream events and checkpoints (JSON lines, or one JSON document; - for stdin) — and replays each
on the approved workflow and process: per run, conforming, or every deviation with the event
that shows it. Exit 1 on any deviation, and on anything that could not be checked (a record not
read, a decision not decidable on what was recorded): conform fails closed. Exit 2 when the
approved model cannot be built (an approval whose inputs changed) or a file cannot be read.
`;

/** Adds `conform` to `program`; `collectMore` accumulates a repeatable option. */
export function addConformCommand(
  program: Command,
  io: CliIo,
  setExit: (code: number) => void,
  collectMore: (value: string, previous: string[] | undefined) => string[],
): void {
  program
    .command("conform")
    .description(
      "check recorded runs against what was approved: exit 1 with each deviation and the event that shows it",
    )
    .argument("<runs...>", "run files (JSON lines or one JSON document); - reads stdin")
    .option(
      "--approval <approval.json>",
      "the approval to check against (its inputs must be unchanged)",
    )
    .option("-r, --registry <dir>", "or: every workflow of this registry counts as approved")
    .option(
      "--process <bpmn>",
      "with --registry: a process whose instances are checked (repeatable)",
      collectMore,
    )
    .option("--workflow <id@version>", "the workflow of runs that name none")
    .option(
      "--prompts <dir>",
      "the approved prompts' texts: <id>@<version>.txt is prm:<id>@<version> (compared by sha256)",
    )
    .option(
      "--source <source>",
      "the runs' format: otlp, zeebe, camunda-agent-history or langgraph (default: recognised)",
    )
    .option(
      "-c, --config <file>",
      "the config file (default: agentflow.config.json at the repository root)",
    )
    .option("--no-config", "ignore agentflow.config.json")
    .option("--root <dir>", "the repository root the approval names files from (default: found)")
    .option("-f, --format <format>", "output format: text, json or sarif", "text")
    .option("-o, --output-file <file>", "write the report here; a one-line summary goes to stderr")
    .addHelpText("after", CONFORM_HELP)
    .action(async (runs: string[], options: ConformCliOptions) => {
      const { runConform } = await import("./conform.js");
      setExit(await runConform(runs, options, io));
    });
}
