/**
 * The rule index page (`docs/rules/README.md`), generated from the registry so it can never list
 * a rule that does not exist or miss one that does (`npm run docs:rules` writes it; a test checks
 * it is current).
 */
import { RULES } from "./rules/index.js";
import { AUTONOMY_RULES } from "./rules/autonomy.js";
import { CONDITION_RULES } from "./rules/conditions.js";
import { DELEGATION_RULES } from "./rules/delegation.js";
import { LOOP_RULES } from "./rules/loops.js";
import { REFERENCE_RULES } from "./rules/references.js";
import { STRUCTURE_RULES } from "./rules/structure.js";
import type { Rule } from "./types.js";

const GROUPS: readonly (readonly [string, readonly Rule[]])[] = [
  ["Structure", STRUCTURE_RULES],
  ["Loops and stops", LOOP_RULES],
  ["Conditions", CONDITION_RULES],
  ["References and contracts", REFERENCE_RULES],
  ["Delegation", DELEGATION_RULES],
  ["Budget and autonomy", AUTONOMY_RULES],
];

/** The Markdown of the rule index. */
export function ruleIndexMarkdown(): string {
  const lines = [
    "# Rules",
    "",
    `agentflow checks a workflow with ${RULES.length} rules. An **error** blocks promotion; a`,
    "**warning** never does. Presets: `recommended` (the severities below), `strict` (every",
    "warning becomes an error), `all`. Each page says what the rule finds, why it matters, and",
    "shows a failing and a passing example that the test suite runs.",
    "",
    "Parsing reports its own codes (`SYNTAX_ERROR`, `DUPLICATE_KEY`, `STRUCTURE_INVALID`,",
    "`UNKNOWN_PROPERTY`, `VERSION_INVALID`, `VERSION_ABBREVIATED`): see",
    "[the model](../model.md#parsing-and-its-diagnostics). A rule that fails internally is",
    "reported as `RULE_CRASHED` (an error: a check that did not run must not pass).",
  ];
  for (const [title, rules] of GROUPS) {
    lines.push("", `## ${title}`, "", "| rule | severity | finds |", "|---|---|---|");
    for (const { meta } of rules) {
      lines.push(
        `| [${meta.code}](${meta.code}.md) | ${meta.defaultSeverity} | ${meta.description} |`,
      );
    }
  }
  return lines.join("\n") + "\n";
}
