import type { CheckedFile } from "./types.js";

/**
 * The `json` format: the checked files with their diagnostics, as stable pretty-printed JSON.
 *
 * @example
 * ```ts
 * import { formatJson, type CheckedFile } from "agentflow/report";
 *
 * const files: CheckedFile[] = [
 *   {
 *     file: "agents/triage.agent.yaml",
 *     kind: "AgentWorkflow",
 *     diagnostics: [
 *       {
 *         code: "BUDGET_MISSING",
 *         severity: "warning",
 *         message: 'workflow "agnt-triage" runs at autonomy 2 but states no budget',
 *         target: { kind: "workflow" },
 *         path: "",
 *         data: { level: 2 },
 *         location: { line: 1, column: 1 },
 *       },
 *     ],
 *   },
 * ];
 * const json = formatJson(files); // pretty-printed, ends with a newline
 * JSON.parse(json); // → files
 * ```
 */
export function formatJson(files: readonly CheckedFile[]): string {
  return JSON.stringify(files, null, 2) + "\n";
}
