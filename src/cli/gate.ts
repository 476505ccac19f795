/**
 * `agentflow gate <process.bpmn> --registry <dir>`: the promotion decision for a process (SPEC
 * 7), printed as a verdict and a table of agent tasks (text) or as data (json, sarif, junit,
 * github). Exit 1 when promotion is blocked, 2 when the file cannot be read as BPMN.
 */
import type { GateDecision, GateOptions, UnknownLevelPolicy } from "../bpmn/index.js";
import { checkProcess, unknownPolicyProblem } from "../bpmn/index.js";
import type { CheckedFile } from "../report/index.js";
import {
  AGENT_TASK_COLUMNS,
  agentTaskCells,
  formatGithub,
  formatJunit,
  formatSarif,
  formatText,
} from "../report/index.js";
import { ruleDescriptors } from "./check.js";
import { readText } from "./files.js";
import type { CliIo } from "./io.js";
import { reportOnStderr, UsageError } from "./io.js";
import type { FolderRegistry } from "./registry.js";
import { loadFolderRegistry } from "./registry.js";

/** The output formats `gate` accepts. */
export const GATE_FORMATS = ["text", "json", "sarif", "junit", "github"] as const;

/** Options of `agentflow gate`, as commander parses them. */
export interface GateCliOptions {
  readonly registry?: string;
  readonly format: string;
  readonly camundaAgents?: string;
}

/** The gate options for a folder registry and a policy. */
export function gateOptions(
  registry: FolderRegistry | undefined,
  camundaAgents: UnknownLevelPolicy = "gate-required",
): GateOptions {
  if (registry === undefined) return { policy: { camundaAgents } };
  const { resolveTool, resolveDelegate } = registry.resolvers;
  return {
    policy: { camundaAgents },
    ...(resolveTool === undefined ? {} : { resolveTool }),
    ...(resolveDelegate === undefined ? {} : { resolveWorkflow: resolveDelegate }),
  };
}

/** Checks one process file; `unreadable` when moddle could not read it at all. */
export async function checkProcessFile(
  file: string,
  text: string,
  options: GateOptions,
): Promise<{
  readonly checked: CheckedFile;
  readonly decision: GateDecision;
  readonly unreadable: boolean;
}> {
  const result = await checkProcess(text, options);
  const root = result.definitions;
  const checked: CheckedFile = {
    file,
    kind: root === undefined ? "unknown" : "BpmnProcess",
    ...(root === undefined || typeof root.id !== "string" ? {} : { id: root.id }),
    diagnostics: [...result.blocking, ...result.warnings],
  };
  return { checked, decision: result, unreadable: root === undefined };
}

function table(decision: GateDecision): string[] {
  if (decision.agentTasks.length === 0) return ["no agent tasks"];
  const rows = decision.agentTasks.map((t) => agentTaskCells(t, { hashLength: 19 }));
  const head = AGENT_TASK_COLUMNS;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

function renderText(
  file: string,
  checked: readonly CheckedFile[],
  decision: GateDecision,
  color: boolean,
): string {
  const verdict = decision.allowed ? "ALLOWED" : "BLOCKED";
  const counts = `${decision.blocking.length} blocking, ${decision.warnings.length} warning(s)`;
  const lines = [`${file}: promotion ${verdict} (${counts})`];
  const registry = checked.slice(1).flatMap((f) => f.diagnostics);
  if (registry.length > 0) {
    const errors = registry.filter((d) => d.severity === "error").length;
    lines.push(
      `the registry: ${errors} error(s), ${registry.length - errors} warning(s) about its files, listed below`,
    );
  }
  lines.push("", ...table(decision), "");
  return lines.join("\n") + "\n" + formatText(checked, { color });
}

/** The registry's problems as files of the report, so that every format shows them. */
function registryFiles(registry: FolderRegistry | undefined): CheckedFile[] {
  return (registry?.problems ?? []).map(({ file, diagnostics }) => ({
    file,
    kind: "unknown",
    diagnostics,
  }));
}

/**
 * The decision as JSON data: the verdict, the findings and the agent tasks. Not the parsed
 * definitions a `ProcessCheck` also carries: the moddle tree is the input again, as deep as the
 * process nests (JSON.stringify recurses through it) and, indented, quadratic in that depth.
 */
function gateJson(
  file: string,
  decision: GateDecision,
  readable: boolean,
  registry: readonly CheckedFile[],
): Readonly<Record<string, unknown>> {
  const { allowed, blocking, warnings, agentTasks } = decision;
  const problems = registry.map(({ file, diagnostics }) => ({ file, diagnostics }));
  return { file, readable, allowed, blocking, warnings, agentTasks, registry: problems };
}

/** Runs the command; resolves to the exit code. */
export async function runGate(file: string, options: GateCliOptions, io: CliIo): Promise<number> {
  if (!(GATE_FORMATS as readonly string[]).includes(options.format)) {
    throw new UsageError(
      `unknown format '${options.format}' (expected ${GATE_FORMATS.join(", ")})`,
    );
  }
  const policy = options.camundaAgents ?? "gate-required";
  const problem = unknownPolicyProblem("--camunda-agents", policy);
  if (problem !== undefined) throw new UsageError(problem);
  const registry =
    options.registry === undefined ? undefined : await loadFolderRegistry(options.registry);
  const text = await readText(file);
  const { checked, decision, unreadable } = await checkProcessFile(
    file,
    text,
    gateOptions(registry, policy as UnknownLevelPolicy),
  );
  if (unreadable) {
    // Said on stderr for people; a machine format still gets its document, holding the error.
    reportOnStderr(io, file, checked.diagnostics);
  }
  const rules = ruleDescriptors();
  const fromRegistry = registryFiles(registry);
  const all = [checked, ...fromRegistry];
  switch (options.format) {
    case "json":
      io.stdout(
        JSON.stringify(gateJson(file, decision, !unreadable, fromRegistry), null, 2) + "\n",
      );
      break;
    case "sarif":
      io.stdout(formatSarif(all, { rules }));
      break;
    case "junit":
      io.stdout(formatJunit(all));
      break;
    case "github":
      io.stdout(formatGithub(all));
      break;
    default:
      if (!unreadable) io.stdout(renderText(file, all, decision, io.isTTY));
  }
  if (unreadable) return 2;
  return decision.allowed ? 0 : 1;
}
