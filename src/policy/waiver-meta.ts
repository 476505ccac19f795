/**
 * The findings waivers themselves give, worded in one place as rules are (a meta per code):
 * an expired waiver, and a waiver whose subject is gone. Both are about the configuration, not
 * a document, so they are not rules; `applyWaivers` reports them.
 */
import type { RuleMeta } from "../rules/index.js";

/** A waiver whose last day has passed: it no longer applies, and says so. */
export const WAIVER_EXPIRED: RuleMeta = Object.freeze({
  code: "WAIVER_EXPIRED",
  defaultSeverity: "error",
  description: "A waiver has expired; the findings it waived block again",
  docs: "docs/rules/WAIVER_EXPIRED.md",
  messages: Object.freeze({
    default:
      'the waiver of {{rule}} for element "{{element}}" of process "{{process}}" (granted by {{grantedBy}}: {{reason}}) expired on {{expires}}; it no longer applies',
    process:
      'the waiver of {{rule}} for process "{{process}}" (granted by {{grantedBy}}: {{reason}}) expired on {{expires}}; it no longer applies',
    workflow:
      "the waiver of {{rule}} for workflow {{workflow}} (granted by {{grantedBy}}: {{reason}}) expired on {{expires}}; it no longer applies",
  }),
  remediation:
    "fix what the waiver covered, or have its owner grant a new waiver with a new end date",
});

/**
 * A waiver naming an element or a workflow version the inputs no longer have, or a workflow
 * `id@version` an importer made up, which names no document.
 */
export const WAIVER_SUBJECT_MISSING: RuleMeta = Object.freeze({
  code: "WAIVER_SUBJECT_MISSING",
  defaultSeverity: "warning",
  description: "A waiver names an element or a workflow version that no longer exists",
  docs: "docs/rules/WAIVER_SUBJECT_MISSING.md",
  messages: Object.freeze({
    default:
      'the waiver of {{rule}} names element "{{element}}", which process "{{process}}" does not have; it waives nothing',
    workflow:
      'the waiver of {{rule}} names workflow {{workflow}}, but "{{workflowId}}" is present only as {{present}}; it waives nothing',
    unnamed:
      "the waiver of {{rule}} names workflow {{workflow}}, an id@version the {{format}} importer made up (the document states none of its own), so nothing says this is the document that was reviewed; it waives nothing here",
  }),
  remediation:
    "remove the waiver, or point it at the element or workflow version it was meant for (a workflow imported under a made-up id@version cannot be waived as a workflow: convert it into a workflow document with an id and version of its own, or name it in a registry by its file name)",
});

/** Both waiver findings, by code. */
export const WAIVER_FINDINGS: Readonly<Record<string, RuleMeta>> = Object.freeze({
  WAIVER_EXPIRED,
  WAIVER_SUBJECT_MISSING,
});
