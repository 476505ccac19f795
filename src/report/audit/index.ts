/**
 * Audit reports (SPEC 8): the report as data, and its Markdown and HTML renderings.
 */
export type * from "./types.js";
export type { DerivedFact, DerivedToolRow } from "../derived-agent.js";
export type { AuditOptions } from "./build.js";
export type { AuditPolicyOptions } from "./rule-results.js";
export { auditProcessReport, auditWorkflowReport } from "./build.js";
export { oversightChecklist } from "./checklist.js";
export { END_NODE, workflowGraph } from "./graph.js";
export {
  DRAWING_LIMIT,
  drawingVerdict,
  EXPLORE_RUNS,
  EXPLORE_WORK,
  exploreRunBound,
  FINDINGS_LIMIT,
  MERMAID_LABEL_LIMIT,
  notDrawnNote,
  REPORT_STEPS,
} from "./limits.js";
export { renderAuditMarkdown } from "./markdown.js";
export { markdownCode, markdownText } from "./markdown-escape.js";
export { renderAuditHtml } from "./html.js";
export type { EdgePath, NodeBox, Point, WorkflowLayout } from "./layout.js";
export { layoutGraph } from "./layout.js";
export type { AgentMark, BypassMark, GateMark, ProcessMarks } from "./process/index.js";
export { PROCESS_DI_LIMIT, processDrawing, processMermaid } from "./process/index.js";
