/**
 * The `agentflow` command. User mistakes end with one line on stderr and exit code 2; problems
 * found in documents are reported on stdout with exit code 1; a clean run exits 0.
 */
import { Command, CommanderError } from "commander";
import type { CheckOptions } from "./check.js";
import { CONVERT_TARGETS } from "./convert-targets.js";
import { addApprovalCommands } from "./main-approval.js";
import { addConformCommand } from "./main-conform.js";
import type { GateCliOptions } from "./gate.js";
import type { ReportCliOptions } from "./report.js";
import type { CliIo } from "./io.js";
import { processIo, stdoutFailed, UsageError } from "./io.js";
import type { PolicyTestOptions } from "./policy-test.js";
import type { RulesCliOptions } from "./rules.js";
import type { BatchCliOptions } from "./settings.js";
import type { SimulateCliOptions } from "./simulate.js";
import { packageVersion } from "./version.js";

// Each subcommand's modules (and the schemas they compile) load only when it runs: `--version`,
// `--help` and a mistyped option should not pay for the validator, BPMN and every importer.

/** What `check --help` and `gate --help` add below the options. */
const BATCH_HELP = `
Paths may be files, folders (walked in sorted order) or glob patterns; quote a pattern
('agents/**/*.json') so that agentflow expands it. node_modules and .git are never read.

Settings come from agentflow.config.json, found in the working directory or a folder above
it (up to the repository root), or named with -c; --no-config ignores it. Its fields
(schemas/agentflow-config.schema.json): preset, rules (code: "off" | "warn" | "error"),
registry (a folder or a list, relative to the file), ignores (globs), policy.camundaAgents,
toolEffects, gates, plugins (loading one runs its code), extends (shared configs by path or
package, plugin configs), policies, waivers. Flags win. --print-config <file> prints a file's
settings as JSON. check --stdin --stdin-filename <path> (or check - …) checks stdin as that
file (without it: <stdin>, kind sniffed); --cache reuses each result whose inputs are unchanged.

Exit codes: 0 no errors; 1 errors, a blocked promotion (gate: the worst of all processes)
or more warnings than --max-warnings; 2 a usage mistake, a bad config or an unreadable
file; 3 an internal error.
`;

/** What `agentflow --help` adds below the commands. */
const PROGRAM_HELP = `
check and gate take files, folders and quoted glob patterns, read agentflow.config.json
(or -c <file>; --no-config), and print text, json, sarif, junit, github or gitlab, to
stdout or to -o <file>. Exit codes: 0 clean, 1 errors or a blocked promotion, 2 a usage
mistake or unreadable input, 3 an internal error. 'agentflow check --help' says more.
'agentflow policy test' runs a policy pack's test cases; 'agentflow rules' lists the rules a
run uses, the config's plugins' and packs' included (docs/policies.md). 'agentflow approve'
signs what the gate allowed, 'agentflow verify' checks it at deploy (docs/approval.md).
`;

/** What `--today` is for. */
const TODAY_HELP =
  "the day waivers are judged on, YYYY-MM-DD, to reproduce a past verdict (default: the UTC date now)";

/** The options `check` and `gate` share (see `settings.ts`); the config file sets defaults. */
function addBatchOptions(command: Command): Command {
  return command
    .option(
      "-f, --format <format>",
      "output format: text, json, sarif, junit, github or gitlab",
      "text",
    )
    .option("-o, --output-file <file>", "write the report here; a one-line summary goes to stderr")
    .option("-c, --config <file>", "the config file (default: agentflow.config.json, looked up)")
    .option("--no-config", "ignore agentflow.config.json")
    .option("-p, --preset <preset>", "rule preset: recommended (default), strict or all")
    .option("-r, --registry <dir>", "folder of workflows and tool contracts to resolve references")
    .option(
      "--camunda-agents <policy>",
      "Camunda AI agents (unknown level): gate-required (default), gate-optional or ignore",
    )
    .option(
      "--ignore-pattern <pattern>",
      "pass over files and folders matching this glob (repeatable)",
      collectMore,
    )
    .option("--max-warnings <n>", "exit 1 when there are more warnings than this")
    .option("--quiet", "report errors only")
    .option("--color", "colour the text report (default: on a terminal; FORCE_COLOR, NO_COLOR)")
    .option("--no-color", "never colour")
    .option("--sarif-category <id>", "SARIF automationDetails.id, the code scanning category")
    .option(
      "--concurrency <n>",
      "worker threads for many files: auto, off or a number (default off)",
    )
    .option("--today <date>", TODAY_HELP)
    .option("--cache", "reuse each file's result while every input that decides it is unchanged")
    .option("--cache-location <path>", "the cache file, or a folder for it (.agentflowcache)")
    .option(
      "--print-config <file>",
      "print the settings that apply to the file as JSON (config, rules, ignored…); check nothing",
    )
    .addHelpText("after", BATCH_HELP);
}

/** The commands that take the batch options. */
type Batch = "check" | "gate";

/** The paths `check` or `gate` was given; none is a usage mistake (unless printing a config). */
function pathsGiven(paths: readonly string[]): readonly string[] {
  if (paths.length === 0) {
    throw new UsageError("name the files, folders or glob patterns to check (or --print-config)");
  }
  return paths;
}

/** Accumulates a repeatable option that has no default (so that help shows none). */
function collectMore(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * `--registry` names one folder: given again, the first would be dropped without a word, so the
 * repetition is a usage error (several folders are a list in the config's `registry`). Set on
 * every command that takes it, once all are built.
 */
function oneRegistry(value: string, previous: string | undefined): string {
  if (previous !== undefined) {
    throw new UsageError(
      `--registry is given twice ('${previous}', then '${value}'); it names one folder (list several as registry in agentflow.config.json)`,
    );
  }
  return value;
}

/** Accumulates a repeatable option. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const printConfig = async (paths: string[], options: BatchCliOptions, command: Batch) => {
    const { runPrintConfig } = await import("./print-config.js");
    setExit(await runPrintConfig(paths, options, command, io));
  };
  const program = new Command("agentflow")
    .description("Governance checks for AI-agent workflows embedded in BPMN processes")
    .version(packageVersion(), "-v, --version")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .showHelpAfterError("(run 'agentflow --help' for usage)")
    .addHelpText("after", PROGRAM_HELP);
  addBatchOptions(
    program
      .command("check")
      .description(
        "check agent workflows, tool contracts (.json, .yaml, .yml) and BPMN processes (.bpmn, .bpmn20.xml); folders are walked, globs expanded",
      )
      .argument("[paths...]", "files, folders or glob patterns (quote them: 'agents/**/*.json')")
      .option(
        "--no-suppress",
        "also report the traps and loops a route to a missing node id makes (reported once by default)",
      )
      .option("--stdin", "check one document read from stdin (also: - as the path)")
      .option(
        "--stdin-filename <path>",
        "with --stdin: check it as this file (kind, ignores, name)",
      ),
  ).action(async (paths: string[], options: CheckOptions) => {
    if (options.printConfig !== undefined) return printConfig(paths, options, "check");
    const { readsStdin, runCheckStdin } = await import("./stdin.js");
    if (readsStdin(paths, options)) {
      setExit(await runCheckStdin(paths, options, io));
      return;
    }
    if (options.stdinFilename !== undefined) throw new UsageError("--stdin-filename needs --stdin");
    const { runCheck } = await import("./check.js");
    setExit(await runCheck(pathsGiven(paths), options, io));
  });
  addBatchOptions(
    program
      .command("gate")
      .description(
        "the promotion decision for each BPMN process: exit 1 when one is blocked (the worst decision wins)",
      )
      .argument("[processes...]", "process files (.bpmn, .bpmn20.xml), folders or glob patterns"),
  ).action(async (paths: string[], options: GateCliOptions) => {
    if (options.printConfig !== undefined) return printConfig(paths, options, "gate");
    const { runGate } = await import("./gate.js");
    setExit(await runGate(pathsGiven(paths), options, io));
  });
  program
    .command("report")
    .description(
      "write the audit report of a process or a workflow (Markdown or self-contained HTML)",
    )
    .argument("<file>", "a process (.bpmn, .bpmn20.xml), or a workflow in any importable format")
    .requiredOption("-o, --output <file>", "report.html or report.md")
    .option("-r, --registry <dir>", "folder of agent workflows and tool contracts")
    .option("--fixtures <file>", "fixtures for the workflow's simulation (workflow reports)")
    .option("-c, --config <file>", "the config file (default: agentflow.config.json, looked up)")
    .option("--no-config", "ignore agentflow.config.json")
    .option("-p, --preset <preset>", "rule preset: recommended (default), strict or all")
    .option(
      "--camunda-agents <policy>",
      "Camunda AI agents (unknown level): gate-required (default), gate-optional or ignore",
    )
    .option("--today <date>", TODAY_HELP)
    .option("--approval <file>", "show this approval: its signers, what drifted since it")
    .option("--trusted-keys <paths...>", "check the approval's signatures with these public keys")
    .option("--root <dir>", "the repository root the approval names files from (default: found)")
    .option(
      "--runs <files...>",
      "recorded runs for the Operation section, checked as conform checks them (- reads stdin)",
    )
    .option("--workflow <id@version>", "with --runs: the workflow of runs that name none")
    .option(
      "--source <source>",
      "with --runs: otlp, zeebe, camunda-agent-history or langgraph (default: recognised)",
    )
    .action(async (file: string, options: ReportCliOptions) => {
      const { runReport } = await import("./report.js");
      setExit(await runReport(file, options, io));
    });
  program
    .command("simulate")
    .description("run a workflow on fixtures, deterministically, and print the trail")
    .argument("<workflow>", "an agentflow workflow or any importable format")
    .option("--fixtures <file>", "JSON/YAML: { nodeId: { outputs: [...], fails: n } }")
    .option(
      "--decide <id=routes>",
      "routes for a decision per visit, e.g. dec-3=onFalse,onTrue",
      collect,
      [],
    )
    .option("--explore", "force every route of every decision and report coverage, ends and blocks")
    .option("--max-steps <n>", "bound the run (default 10000, at most 100000)")
    .option(
      "--strict-params",
      "stop at a tool whose params hold a template that cannot be resolved (default: pass its text on, with a warning)",
    )
    .option("-f, --format <format>", "output format: text or json", "text")
    .action(async (file: string, options: SimulateCliOptions) => {
      const { runSimulate } = await import("./simulate.js");
      setExit(await runSimulate(file, options, io));
    });
  program
    .command("convert")
    .description("convert a workflow to agentflow JSON, another format, or a Mermaid flowchart")
    .argument("<file>", "an agentflow workflow or any importable format")
    .requiredOption("-t, --to <format>", `target: ${CONVERT_TARGETS.join(", ")}`)
    .option("-o, --output <file>", "write here instead of stdout")
    .option("--force", "let -o overwrite the input file")
    .action(async (file: string, options: { to: string; output?: string; force?: boolean }) => {
      const { runConvert } = await import("./convert.js");
      setExit(await runConvert(file, options, io));
    });
  program
    .command("rules")
    .description(
      "list the rules a run uses (agentflow's, and the config's plugins' and packs'); -o writes their pages",
    )
    .option("-c, --config <file>", "the config file (default: agentflow.config.json, looked up)")
    .option("--no-config", "ignore agentflow.config.json")
    .option("-f, --format <format>", "output format: text or json", "text")
    .option("-o, --output-dir <dir>", "write the plugins' and packs' rule pages (Markdown) here")
    .action(async (options: RulesCliOptions) => {
      const { runRules } = await import("./rules.js");
      setExit(await runRules(options, io));
    });
  program
    .command("policy")
    .description("the organisation's policy packs")
    .command("test")
    .description(
      "run the test cases of policy packs (*.policytest.yaml, .yml, .json) and report rule coverage",
    )
    .argument("[dir]", "a folder of policy tests (walked) or one test file (default: .)")
    .option("-f, --format <format>", "output format: text or json", "text")
    .action(async (dir: string | undefined, options: PolicyTestOptions) => {
      const { policyTestCommand } = await import("./policy-test.js");
      setExit(await policyTestCommand(dir, options, io));
    });
  addApprovalCommands(program, io, setExit, collectMore);
  addConformCommand(program, io, setExit, collectMore);
  program
    .command("templates")
    .description("list the templates, or print one as JSON")
    .argument("[id]", "template id, e.g. research")
    .action(async (id: string | undefined) => {
      const { runTemplates } = await import("./templates.js");
      setExit(runTemplates(id, io));
    });
  const commands = [...program.commands];
  for (const command of commands) {
    commands.push(...command.commands);
    for (const option of command.options) {
      if (option.long === "--registry") option.argParser(oneRegistry);
    }
  }
  return program;
}

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    // A report that could not be written to stdout (not a closed pipe: that is quiet) fails.
    return io === processIo && stdoutFailed() ? Math.max(exitCode, 2) : exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are how commander stops after printing; they are not failures.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UsageError) {
      io.stderr(`agentflow: ${error.message}\n`);
      return 2;
    }
    const detail = error instanceof Error ? error.message : String(error);
    io.stderr(
      `agentflow: internal error: ${detail}\n(please report this; it is a bug in agentflow)\n`,
    );
    return 3;
  }
}
