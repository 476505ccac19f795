/**
 * What the CI formats say about the organisation's policy: the plugins and policy packs whose
 * rules judged (SARIF `tool.extensions`, JUnit properties), and how a waived finding is worded
 * wherever it is shown — still there, marked, never dropped.
 */
import { visibleText } from "../model/index.js";
import type { DiagnosticWaiver } from "../model/index.js";
import type { RuleDescriptor } from "./rule-descriptor.js";

/** A plugin or a policy pack that judged, with its rules. */
export interface ToolExtension {
  readonly kind: "plugin" | "policy";
  /** The name its rules are prefixed with (`<name>/<CODE>`). */
  readonly name: string;
  readonly version: string;
  /** `sha256:` of its content, as the rule set's digest pins it. */
  readonly sha256: string;
  /** Its rules, with their codes as reported (`<name>/<CODE>`). */
  readonly rules: readonly RuleDescriptor[];
}

/**
 * The words every format uses for a waiver. Its reason and who granted it are the config's text:
 * shown with invisible characters escaped (`visibleText`), so that a `\r` or an escape sequence in
 * a reason cannot erase or forge a line of the report; `waived` in JSON and SARIF keeps them as
 * written.
 *
 * @example
 * ```ts
 * import { waiverText } from "agentflow/report";
 *
 * waiverText({ reason: "pilot", grantedBy: "cro", expires: "2027-03-31" });
 * // → "waived until 2027-03-31 (cro): pilot"
 * ```
 */
export function waiverText(waiver: DiagnosticWaiver): string {
  return visibleText(`waived until ${waiver.expires} (${waiver.grantedBy}): ${waiver.reason}`);
}
