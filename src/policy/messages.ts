/**
 * The wording of a pack rule's findings, in one place: the pack's `message` (or a default naming
 * the subject), and the fixed sentences for an assumed, an undecided and a failed `require`.
 * Each is a template over the finding's data (the subject's facts, `ruleId`, `pack` and the
 * values each case adds), so a report names ids and data only.
 */
import type { PolicySubject } from "./facts.js";
import type { PackRuleSpec } from "./types.js";

/** How a finding names its subject. */
const SUBJECT_LABEL: Readonly<Record<PolicySubject, string>> = {
  agentTask: 'agent task "{{element.id}}"',
  workflow: 'workflow "{{id}}@{{version}}"',
  tool: "{{tool}}",
  process: 'process "{{id}}"',
};

/** The data a finding carries besides the facts, by message (for the placeholder check). */
export const EXTRA_DATA: readonly string[] = ["ruleId", "pack"];

/** What a `tool` rule's finding carries besides: how it names the tool ({@link toolWords}). */
export const TOOL_DATA = "tool";

/**
 * How a finding names a tool (its data's `tool`): by its ref, or as the tool of unknown identity
 * (facts.ts `UNKNOWN_TOOL`), whose ref is null.
 */
export function toolWords(ref: unknown): string {
  return typeof ref === "string" ? `tool "${ref}"` : "a tool of unknown identity";
}

/** The message ids of a pack rule, for `report({ messageId })`. */
export type PackMessageId =
  | "default"
  | "assumed"
  | "undecided"
  | "requireMin"
  | "requireDistinctRoles"
  | "requireRoles"
  | "requireUndecided";

/** The templates of a pack rule's messages. */
export function packMessages(
  rule: PackRuleSpec,
): Record<PackMessageId, string> & { default: string } {
  const label = SUBJECT_LABEL[rule.for];
  const base = rule.message ?? `${label} breaks policy rule {{ruleId}} of {{pack}}`;
  const every = "every path from it to an end must pass";
  return {
    default: base,
    assumed: `${base} (assuming {{assumption}}, since the facts are unknown)`,
    undecided: `${label}: policy rule {{ruleId}} of {{pack}} cannot be decided ({{reason}}), so it counts as broken`,
    requireMin: `${base}: ${every} at least {{required}} approval gate(s), but this one passes {{gatesOnPath}}: {{bypassPath}}`,
    // A gate's role lists everyone who may approve it: the rule is that no two lists overlap.
    requireDistinctRoles: `${base}: ${every} at least {{required}} gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes {{rolesText}}: {{bypassPath}}`,
    requireRoles: `${base}: ${every} a gate of each role in [{{required}}], but this one passes no gate of role "{{missingRole}}": {{bypassPath}}`,
    requireUndecided: `${base}: whether every path from it to an end meets the gate requirement cannot be decided ({{reason}}), so it counts as failing`,
  };
}
