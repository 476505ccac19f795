/**
 * What the conformance tests check runs of: the research template (llm-1 → tool-2 → dec-3, which
 * ends when `is_complete` holds and else retries llm-1) and the contract of its search tool.
 */
import type { AgentWorkflow, ToolContract } from "../../src/model/index.js";
import { getTemplate } from "../../src/model/index.js";

const template = getTemplate("research");
if (template === undefined) throw new Error("no research template");

/** The research template. */
export const research: AgentWorkflow = template;

/** The contract of the research template's search tool (`tool:browser-search@1.2.0`). */
export const search = (
  effect: ToolContract["effect"],
  authorization: ToolContract["authorization"],
): ToolContract => ({
  kind: "ToolContract",
  id: "tool:browser-search",
  version: "1.2.0",
  name: "Search",
  inputSchema: { query: "text" },
  outputSchema: {},
  effect,
  authorization,
});
