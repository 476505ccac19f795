/**
 * The `convert --to` values, written out so that `--help` needs no importer loaded (the
 * importers and exporters load only when `convert` runs). `test/cli/convert-targets.test.ts`
 * keeps the list equal to what the format registry can export.
 */

/** The `--to` values: agentflow, mermaid, the aliases, and every format that can export. */
export const CONVERT_TARGETS: readonly string[] = [
  "agentflow",
  "mermaid",
  "langgraph",
  "oaf",
  "agentos",
  "langgraph-subset",
  "langgraph-graph",
  "langgraph-gen",
  "agent2model",
  "openagentflow",
];
