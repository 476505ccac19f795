/**
 * The one diagnostic shape every part of agentflow reports (SPEC 3): parsing, workflow rules,
 * interop and BPMN. Callers read `code`, `target`, `path` and `data`; `message` is for people.
 */

/** How much a finding matters. An error blocks promotion; a warning never does. */
export type Severity = "error" | "warning" | "info";

/** A severity as configured: `off` silences a rule. */
export type SeveritySetting = Severity | "off";

/** What a diagnostic is about. */
export type DiagnosticTarget =
  | { readonly kind: "workflow" }
  | { readonly kind: "node"; readonly nodeId: string }
  | { readonly kind: "edge"; readonly index: number; readonly from: string; readonly to: string }
  | { readonly kind: "bpmn-element"; readonly elementId: string; readonly path?: string };

/** A 1-based position in the source text, when the input was text. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

/** One finding. */
export interface Diagnostic {
  /** Stable identifier; documented at `docs/rules/<code>.md`. */
  readonly code: string;
  readonly severity: Severity;
  /** One sentence for a person; quotes the offending ids. */
  readonly message: string;
  /** What to do about it. */
  readonly remediation?: string;
  readonly target: DiagnosticTarget;
  /** JSON Pointer into the source document ("" is the whole document). */
  readonly path: string;
  /** Structured values (ids, levels, counts) so that no caller parses the message. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Line and column in the source text, filled in when the input was text. */
  readonly location?: SourceLocation;
  /**
   * Set when a waiver the organisation granted (config or policy pack, docs/policies.md) covers
   * this finding: it is still shown, with its severity, but no longer blocks.
   */
  readonly waived?: DiagnosticWaiver;
}

/** The waiver that covers a finding: why, who granted it, and its last day (`YYYY-MM-DD`). */
export interface DiagnosticWaiver {
  readonly reason: string;
  readonly grantedBy: string;
  readonly expires: string;
}

/** The whole-workflow target, shared so that no caller allocates its own. */
export const WORKFLOW_TARGET: DiagnosticTarget = Object.freeze({ kind: "workflow" });

/**
 * True when any diagnostic is an error no waiver covers, i.e. when the document must not be promoted.
 *
 * @example
 * ```ts
 * import { getTemplate, hasErrors, parseWorkflow } from "agentflow/model";
 *
 * const { diagnostics } = parseWorkflow({ ...getTemplate("research"), version: "2.1" });
 * diagnostics.map((d) => d.code); // → ["VERSION_ABBREVIATED"]
 * hasErrors(diagnostics); // → false
 * ```
 */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error" && d.waived === undefined);
}

/**
 * Counts diagnostics per severity.
 *
 * @example
 * ```ts
 * import { countBySeverity, parseWorkflowText } from "agentflow/model";
 *
 * const { diagnostics } = parseWorkflowText("kind: AgentWorkflow\nid: agnt-x\nversion: '1.0'\n");
 * countBySeverity(diagnostics); // → { error: 6, warning: 1, info: 0 }
 * ```
 */
export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  return counts;
}
