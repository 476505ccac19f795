/**
 * `agentflow convert <file> --to <format> [-o out]`: read any importable workflow and write it
 * as agentflow JSON, another format, or a Mermaid flowchart. Every construct the target cannot
 * hold is said on stderr (one line each); nothing is dropped silently.
 */
import { stringify as stringifyYaml } from "yaml";
import type { Format, InteropWarning } from "../interop/index.js";
import { exportMermaid, FORMATS } from "../interop/index.js";
import type { CliIo } from "./io.js";
import { writeOutput } from "./output.js";
import { UsageError } from "./io.js";
import { printImportWarnings } from "./imported.js";
import { loadWorkflow } from "./load.js";

/** Target names the command accepts, with the formats they name. */
const ALIASES: Readonly<Record<string, string>> = {
  langgraph: "langgraph-subset",
  oaf: "openagentflow",
};

/** The `--to` values: agentflow, mermaid, and every format that can export. */
export function convertTargets(): string[] {
  const exportable = FORMATS.filter((f) => f.export !== undefined).map((f) => f.id);
  return ["agentflow", "mermaid", ...Object.keys(ALIASES), ...exportable];
}

function exporter(to: string): Format | undefined {
  const id = Object.hasOwn(ALIASES, to) ? ALIASES[to] : to;
  return FORMATS.find((f) => f.id === id && f.export !== undefined);
}

/** Runs the command; returns the exit code (0, or 2 for a usage mistake). */
export async function runConvert(
  file: string,
  options: { readonly to: string; readonly output?: string; readonly force?: boolean },
  io: CliIo,
): Promise<number> {
  const target =
    options.to === "agentflow" || options.to === "mermaid" ? undefined : exporter(options.to);
  if (options.to !== "agentflow" && options.to !== "mermaid" && target === undefined) {
    throw new UsageError(
      `cannot convert to '${options.to}' (expected ${convertTargets().join(", ")})`,
    );
  }
  const { workflow, imported } = await loadWorkflow(file);
  printImportWarnings(io, file, imported);
  let text: string;
  let warnings: readonly InteropWarning[] = [];
  if (options.to === "agentflow") text = JSON.stringify(workflow, null, 2) + "\n";
  else if (options.to === "mermaid") text = exportMermaid(workflow);
  else {
    const result = target?.export?.(workflow);
    if (result === undefined) throw new UsageError(`'${options.to}' has no export`);
    // A YAML-native target (agent2model, langgraph-gen) is written as YAML when -o asks for it.
    text = /\.ya?ml$/i.test(options.output ?? "")
      ? stringifyYaml(result.document)
      : JSON.stringify(result.document, null, 2) + "\n";
    warnings = result.warnings;
  }
  for (const w of warnings)
    io.stderr(`agentflow: warning: ${w.path || "/"}: ${w.message} (${w.code})\n`);
  if (options.output === undefined) io.stdout(text);
  else await writeOutput(options.output, text, { input: file, force: options.force === true });
  return 0;
}
