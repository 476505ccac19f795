/**
 * The last step every importer shares: the draft it built is handed to the model's own parser,
 * so that an import returns exactly what `parseWorkflow` accepts, and the declared autonomy level
 * is replaced by the level the imported graph justifies (SPEC 6), never by a guess.
 */
import { minCoherentLevel } from "../autonomy/index.js";
import type { Diagnostic } from "../model/index.js";
import { parseWorkflow } from "../model/index.js";
import type { ImportError, ImportResult, InteropWarning } from "./types.js";

/** The default of {@link finishImport}: only an error diagnostic stops the import. */
function isError(d: Diagnostic): boolean {
  return d.severity === "error";
}

/**
 * Parses the draft of an import and returns it at its justified `autonomyLevel`, with
 * `warnings`. The first diagnostic that `blocks` accepts (by default any error) fails the import
 * through `fail`, the importer's own error, so that a mapping bug is never returned as a workflow.
 */
export function finishImport(
  draft: Readonly<Record<string, unknown>>,
  warnings: readonly InteropWarning[],
  fail: (reason: string) => ImportError,
  blocks: (d: Diagnostic) => boolean = isError,
): ImportResult {
  const parsed = parseWorkflow(draft);
  const problem = parsed.diagnostics.find(blocks);
  if (parsed.workflow === undefined || problem !== undefined) {
    throw fail(`the mapped workflow does not parse: ${problem?.message ?? "no workflow"}`);
  }
  const workflow = parsed.workflow;
  return { workflow: { ...workflow, autonomyLevel: minCoherentLevel(workflow) }, warnings };
}
