/**
 * agentflow inside bpmn-js (`agentflow/bpmn-js`): a module that shows, while a process is drawn,
 * which tasks run agents and at what autonomy level, whether each reaches an approval gate,
 * which flows bypass it, and, given an approval, which agent tasks are no longer as approved.
 * Add it with `additionalModules: [Agentflow]` and configure it with the modeller's `agentflow`
 * option; `docs/modeler.md` shows how. The pure parts (badges, bypass flows, option checks)
 * are exported for hosts that draw their own.
 *
 * @packageDocumentation
 */
import { AgentflowService } from "./service.js";

/**
 * The `btv` moddle extension for `moddleExtensions: { btv: BTV_PACKAGE }`, the same object
 * agentflow/bpmn exports. Imported from here, a bundler that splits chunks by file (esbuild) keeps
 * the gate engine out of the page's first load; agentflow/bpmn's entry reaches all of it.
 */
export { BTV_PACKAGE } from "../bpmn/moddle.js";

export type { BadgeFinding, BadgeGate, GateMark, TaskBadge, ToolMark } from "./badges.js";
export { BADGE_GATES, badgeGate, gateMark, taskBadges, toolMarks } from "./badges.js";
export type { FlowEdge } from "./bypass.js";
export { bypassFlowIds, bypassPaths } from "./bypass.js";
export type { AgentflowConfig } from "./config.js";
export { configProblems } from "./config.js";
export { DEFAULT_DEBOUNCE } from "./options.js";
export { refProblem } from "./ref-check.js";
export type {
  BpmnJs,
  Canvas,
  DiagramElement,
  ElementRegistry,
  EventBus,
  OverlayPosition,
  Overlays,
} from "./diagram.js";
export type { ApprovalChanges } from "./approval-marks.js";
export type {
  AgentflowChangedEvent,
  AgentflowErrorEvent,
  AgentflowStaleEvent,
  AgentflowToggleEvent,
} from "./events.js";
export {
  AGENT_MARKER,
  APPROVAL_MARKER,
  BYPASS_MARKER,
  GATE_MARKER,
  OVERLAY_TYPE,
} from "./events.js";
export { AgentflowService } from "./service.js";

/** The bpmn-js module: `new Modeler({ additionalModules: [Agentflow] })`. */
const Agentflow: {
  readonly __init__: readonly string[];
  readonly agentflow: readonly ["type", typeof AgentflowService];
} = {
  __init__: ["agentflow"],
  agentflow: ["type", AgentflowService],
};

export default Agentflow;
