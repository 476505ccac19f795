/** Output formats for checks (SPEC 8). */
export type { CheckedFile } from "./types.js";
export { formatJson } from "./json.js";
export { formatText } from "./text.js";
export type { TextFormatOptions } from "./text.js";
export type { RuleDescriptor } from "./rule-descriptor.js";
export { DOCS_BASE_URL, ruleHelpUri } from "./rule-descriptor.js";
export { formatSarif, SARIF_SCHEMA_URI } from "./sarif.js";
export type { SarifFormatOptions } from "./sarif.js";
export { formatJunit } from "./junit.js";
export type { JunitFormatOptions } from "./junit.js";
export { formatGithub } from "./github.js";
