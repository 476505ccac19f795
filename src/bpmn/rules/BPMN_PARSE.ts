import type { Diagnostic } from "../../model/index.js";
import type { BpmnRule } from "../rule.js";
import type { ParseIssue, ParseIssueKind } from "../types.js";
import { runBpmnRules } from "../rule.js";
import { btvElementSuggestion } from "../namespace-check.js";
import { defineRule } from "../../rules/index.js";

/**
 * Kinds where writing the document back would lose something: moddle dropped an element or a
 * reference, or could not read the document at all. An unknown attribute or a wrong encoding
 * declaration survives a round trip, so it is only a warning.
 */
const LOSSY: ReadonlySet<ParseIssueKind> = new Set([
  "dropped",
  "unresolved-reference",
  "unknown-root",
  "unreadable",
  "too-large",
]);

/**
 * Problems bpmn-moddle met while reading the XML. They come first because everything after
 * works on what moddle kept: a dropped element is a task, flow or gate no rule can see.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "BPMN_PARSE",
    scope: "process",
    defaultSeverity: "error",
    description: "bpmn-moddle could not read part of the document (data would be lost on rewrite)",
    docs: "docs/rules/BPMN_PARSE.md",
    messages: {
      default: "{{subject}}: {{reason}}",
      dropped: "element <{{subject}}> was dropped while reading: {{reason}}",
      "dropped-btv":
        "element <{{subject}}> was dropped while reading: btv defines no such element, so what it declares is not read: did you mean <{{suggestion}}>?",
      "unresolved-reference":
        "reference <{{subject}}> in {{reason}} points to no element and is dropped",
      "unknown-attribute": "attribute <{{subject}}> is not part of the BPMN model (kept as is)",
      encoding: "encoding <{{subject}}> is not supported; the document was read as UTF-8",
      "undeclared-prefix":
        "element <{{subject}}> uses the namespace prefix '{{reason}}', which is never declared",
      "unknown-root":
        "the root element <{{subject}}> is not <bpmn:definitions>: this is not a BPMN 2.0 document",
      unreadable: "the XML cannot be read: {{reason}}",
      "too-large": "the document is too large to read: {{reason}}",
    },
    remediation: "fix the XML at the position given, or re-export it from the modeller",
  },
  check(context) {
    for (const issue of context.parseIssues) {
      const lossy = LOSSY.has(issue.kind);
      const suggestion = issue.kind === "dropped" ? btvSpelling(issue.subject) : undefined;
      context.report({
        elementId: issue.elementId ?? "",
        path: "",
        messageId:
          suggestion !== undefined
            ? "dropped-btv"
            : issue.kind === "other"
              ? "default"
              : issue.kind,
        severity: lossy ? "error" : "warning",
        data: {
          kind: issue.kind,
          subject: issue.subject,
          reason: issue.reason,
          ...(suggestion === undefined ? {} : { suggestion }),
        },
        location: issue.location,
      });
    }
  },
});

/**
 * The btv element a dropped `btv:` element is a slip of (`btv:agenttask` → `btv:agentTask`):
 * moddle drops an unknown btv name, and with it the agent task or gate it was meant to declare.
 */
function btvSpelling(subject: string): string | undefined {
  if (!subject.startsWith("btv:")) return undefined;
  const suggestion = btvElementSuggestion(subject.slice("btv:".length));
  return suggestion === undefined ? undefined : `btv:${suggestion}`;
}

/** The diagnostics of parse issues, worded and shaped by this rule. */
export function parseIssueDiagnostics(issues: readonly ParseIssue[]): Diagnostic[] {
  return runBpmnRules([{ rule, severity: "error", options: {} }], {
    analysis: undefined,
    parseIssues: issues,
  });
}
