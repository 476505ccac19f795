/**
 * Parsing workflows and tool contracts, from values and from JSON or YAML text: schema checks,
 * version normalisation, and diagnostics with source positions.
 */
export type { ParseResult, ToolContractParseResult, WorkflowParseResult } from "./value.js";
export {
  NOT_JSON_DATA,
  parseToolContract,
  parseWorkflow,
  VERSION_ABBREVIATED,
  VERSION_INVALID,
} from "./value.js";
export { STRUCTURE_INVALID, UNKNOWN_PROPERTY } from "./ajv-errors.js";
export type { TextParseExtras, TextParseOptions } from "./text.js";
export { parseToolContractText, parseWorkflowText, withLocations } from "./text.js";
export { parseWorkflowTextAsync } from "./text-async.js";
