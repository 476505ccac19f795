/**
 * Output formats for checks, and the audit report (SPEC 8).
 *
 * @packageDocumentation
 */
export type { CheckedFile } from "./types.js";
export { formatJson } from "./json.js";
export { formatText } from "./text.js";
export type { TextFormatOptions } from "./text.js";
export type { RuleDescriptor } from "./rule-descriptor.js";
export { DOCS_BASE_URL, ruleHelpUri } from "../rules/index.js";
export { fileUriOf, formatSarif, SARIF_SCHEMA_URI } from "./sarif.js";
export type { SarifFormatOptions } from "./sarif.js";
export { formatJunit } from "./junit.js";
export type { JunitFormatOptions } from "./junit.js";
export { formatGithub } from "./github.js";
export { formatGitlab } from "./gitlab.js";
export type { GitlabFormatOptions, GitlabIssue } from "./gitlab.js";
export type { ToolExtension } from "./extension.js";
export { waiverText } from "./extension.js";
export { AGENT_TASK_COLUMNS, agentTaskCells } from "./agent-tasks.js";
export * from "./audit/index.js";
