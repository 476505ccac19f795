/** Every property of the suites in this folder, for `scripts/fuzz.ts`. */
import { BPMN_PROPERTIES } from "./bpmn.js";
import { BPMN_SEMANTICS_PROPERTIES } from "./bpmn-semantics.js";
import { CLI_PROPERTIES } from "./cli.js";
import { CONDITION_PROPERTIES } from "./conditions.js";
import { INTEROP_PROPERTIES } from "./interop.js";
import { PARSER_PROPERTIES } from "./parsers.js";
import { REPORT_PROPERTIES } from "./report.js";
import type { PropertyDef } from "./settings.js";
import { WORKFLOW_PROPERTIES } from "./workflows.js";

/** Every property, grouped by entry point family. */
export const ALL_PROPERTIES: readonly PropertyDef[] = [
  ...PARSER_PROPERTIES,
  ...WORKFLOW_PROPERTIES,
  ...INTEROP_PROPERTIES,
  ...BPMN_PROPERTIES,
  ...BPMN_SEMANTICS_PROPERTIES,
  ...REPORT_PROPERTIES,
  ...CLI_PROPERTIES,
  ...CONDITION_PROPERTIES,
];
