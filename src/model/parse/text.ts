/**
 * Parsing from text (JSON or YAML): syntax errors and duplicate keys become diagnostics with
 * line and column, and every structural diagnostic gets the position of the value it names.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { TextFormat } from "../text/index.js";
import { readWithLocator, textLocator } from "../text/index.js";
import type { TextParseExtras, TextParseOptions } from "./text-result.js";
import {
  placeDiagnostics,
  readOptionsOf,
  toolContractOfText,
  workflowOfText,
} from "./text-result.js";
import type { ToolContractParseResult, WorkflowParseResult } from "./value.js";

export type { TextParseExtras, TextParseOptions } from "./text-result.js";

/**
 * Adds source positions to diagnostics that lack one, in one pass over the text.
 *
 * @example
 * ```ts
 * import { parseWorkflow, withLocations } from "agentflow/model";
 * import { parse } from "yaml";
 *
 * const text = "kind: AgentWorkflow\nid: agnt-x\nversion: '2'\n";
 * const { diagnostics } = parseWorkflow(parse(text));
 * const located = withLocations(text, "yaml", diagnostics);
 * located.find((d) => d.path === "/version")?.location; // → { line: 3, column: 10 }
 * ```
 */
export function withLocations(
  text: string,
  format: TextFormat,
  diagnostics: readonly Diagnostic[],
): Diagnostic[] {
  return placeDiagnostics(diagnostics, textLocator(text, format));
}

/**
 * Parses an AgentWorkflow from JSON or YAML text. A duplicate key is an error (the reviewed
 * document would otherwise differ from what another parser reads). Never throws.
 *
 * @example
 * ```ts
 * import { parseWorkflowText } from "agentflow/model";
 *
 * const text = '{ "kind": "AgentWorkflow", "id": 7 }';
 * const { workflow, diagnostics, format } = parseWorkflowText(text);
 * format; // → "json"
 * workflow; // → undefined
 * diagnostics.find((d) => d.path === "/id")?.location; // → { line: 1, column: 34 }
 * ```
 */
export function parseWorkflowText(
  text: string,
  options: TextParseOptions = {},
): WorkflowParseResult & TextParseExtras {
  return workflowOfText(readWithLocator(text, readOptionsOf(options)));
}

/**
 * Parses a ToolContract from JSON or YAML text, like {@link parseWorkflowText}.
 *
 * @example
 * ```ts
 * import { parseToolContractText } from "agentflow/model";
 *
 * const text = `
 * kind: ToolContract
 * id: tool:send-email
 * version: 1.0.0
 * name: Send email
 * inputSchema: { to: text, body: text }
 * outputSchema: { sent: bool }
 * effect: notify
 * authorization: automatic
 * `;
 * const { contract, diagnostics, format } = parseToolContractText(text);
 * format; // → "yaml"
 * contract?.id; // → "tool:send-email"
 * diagnostics; // → []
 * ```
 */
export function parseToolContractText(
  text: string,
  options: TextParseOptions = {},
): ToolContractParseResult & TextParseExtras {
  return toolContractOfText(readWithLocator(text, readOptionsOf(options)));
}
