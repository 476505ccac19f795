/**
 * The rule index page (`docs/rules/README.md`), generated from the registries so it can never list
 * a rule that does not exist or miss one that does (`npm run docs:rules` writes it; a test checks
 * it is current): the workflow rules by group, then the BPMN rules. It lives here, above both
 * registries, so that `validate/` never reads `bpmn/`.
 */
import { BPMN_RULES } from "../bpmn/index.js";
import { RULE_GROUPS, RULES } from "../validate/index.js";

/** What the index lists of a rule, workflow or BPMN. */
interface IndexedMeta {
  readonly code: string;
  readonly defaultSeverity: string;
  readonly description: string;
}

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
    "Parsing reports its own codes (`SYNTAX_ERROR`, `DUPLICATE_KEY`, `NOT_JSON_DATA`,",
    "`STRUCTURE_INVALID`, `UNKNOWN_PROPERTY`, `VERSION_INVALID`, `VERSION_ABBREVIATED`): see",
    "[the model](../model.md#parsing-and-its-diagnostics). A rule that fails internally is",
    "reported as `RULE_CRASHED` (an error: a check that did not run must not pass).",
    "",
    `A BPMN process is checked with ${BPMN_RULES.length} more rules, listed last: see`,
    "[BPMN governance](../bpmn.md). Their examples are BPMN processes, checked with",
    "`checkProcess` and the page's registry.",
  ];
  const table = (title: string, rules: readonly { readonly meta: IndexedMeta }[]): void => {
    lines.push("", `## ${title}`, "", "| rule | severity | finds |", "|---|---|---|");
    for (const { meta } of rules) {
      lines.push(
        `| [${meta.code}](${meta.code}.md) | ${meta.defaultSeverity} | ${meta.description} |`,
      );
    }
  };
  for (const { title, rules } of RULE_GROUPS) table(title, rules);
  table("BPMN", BPMN_RULES);
  return lines.join("\n") + "\n";
}
