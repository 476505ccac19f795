/**
 * `parseWorkflowText` for a caller that can wait, as the gate evaluation can: the YAML reader is
 * loaded with `import()` only when the text is YAML, so that a browser evaluating gates over JSON
 * snapshots, or over workflows its resolvers hand over as data, never fetches it.
 */
import { readWithLocatorAsync } from "../text/index.js";
import type { TextParseExtras, TextParseOptions } from "./text-result.js";
import { readOptionsOf, workflowOfText } from "./text-result.js";
import type { WorkflowParseResult } from "./value.js";

/**
 * Parses an AgentWorkflow from JSON or YAML text, with the result of `parseWorkflowText`.
 * Rejects only when the YAML reader cannot be loaded (a chunk the page could not fetch).
 */
export async function parseWorkflowTextAsync(
  text: string,
  options: TextParseOptions = {},
): Promise<WorkflowParseResult & TextParseExtras> {
  return workflowOfText(await readWithLocatorAsync(text, readOptionsOf(options)));
}
