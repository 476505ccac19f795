/**
 * The process picture of a process review (docs/report.md): whether and how each diagram is drawn,
 * its layout (from BPMN DI, or with dagre), the SVG with the review's marks, and the Mermaid
 * flowchart of the Markdown report.
 */
export { drawingNote, PROCESS_DI_LIMIT, processDrawing } from "./verdict.js";
export type { AgentMark, BypassMark, GateMark, ProcessMarks } from "./marks.js";
export { badgeText, GATE_MARK_TEXT, GATE_MARKS, gateMark, processMarks } from "./marks.js";
export type {
  Box,
  LayoutSource,
  PlacedFlow,
  PlacedNode,
  PlacedPool,
  ProcessLayout,
  XY,
} from "./types.js";
export { layoutFromDi } from "./layout-di.js";
export { layoutWithDagre } from "./layout-dagre.js";
export type { ProcessSvgOptions } from "./svg.js";
export { PROCESS_CSS, processLegendHtml, renderProcessSvg } from "./svg.js";
export { processMermaid } from "./mermaid.js";
