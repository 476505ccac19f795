/**
 * The `BPMN_PARSE` findings of the diagram's import, joined to a decision as `checkProcess` joins
 * them to its own: first, at the severity `rules.BPMN_PARSE` caps them to, and never waived. In the
 * engine's chunk; the reading itself (`import-reread.ts`) is a chunk further, fetched only for an
 * import bpmn-moddle warned about.
 */
import type { GateDecision } from "../bpmn/index.js";
import { decide } from "../bpmn/decision.js";
import type { CompiledGateOptions } from "../bpmn/gate-options.js";
import type { Diagnostic } from "../model/index.js";
import { splitSetting } from "../rules/settings.js";

/**
 * `decision` with `parsed` (the reader's `BPMN_PARSE` diagnostics) before its findings, as
 * `checkProcess` words the verdict on the same XML: the reader gives each issue its own severity
 * (a dropped element or reference an error, an unknown attribute a warning); `rules.BPMN_PARSE`
 * turns them off or caps them at its severity.
 */
export function withParseFindings(
  decision: GateDecision,
  parsed: readonly Diagnostic[],
  options: Pick<CompiledGateOptions, "rules">,
): GateDecision {
  if (parsed.length === 0) return decision;
  const given = options.rules?.BPMN_PARSE;
  const setting = given === undefined ? undefined : splitSetting(given)[0];
  if (setting === "off") return decision;
  const kept =
    setting === undefined || setting === "error"
      ? parsed
      : parsed.map((d) => ({ ...d, severity: setting }));
  return decide(
    [...kept, ...decision.blocking, ...decision.warnings],
    decision.agentTasks,
    decision.ruleSet,
    decision.gates,
  );
}
