/**
 * What the module puts on the canvas and fires, by name: the overlay type, the canvas markers
 * (style them in CSS; `style.css` does), and the payloads of its events.
 */
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";

/** The overlay type of everything the module draws (`overlays.remove({ type })` clears it). */
export const OVERLAY_TYPE = "agentflow";

/** The canvas marker on the sequence flows of a bypass path. */
export const BYPASS_MARKER = "agentflow-bypass";

/** The canvas marker on every agent task, and on every approval gate. */
export const AGENT_MARKER = "agentflow-agent";
/** See {@link AGENT_MARKER}. */
export const GATE_MARKER = "agentflow-gate";

/** The canvas marker on an agent task not as the `approval` option approved it. */
export const APPROVAL_MARKER = "agentflow-changed-since-approval";

/**
 * The canvas marker on a tool of a Camunda agent, by effect: `agentflow-effect-<effect>`, with
 * `agentflow-effect-unknown` for a tool nothing maps (it needs a gate, and a mapping).
 */
export const EFFECT_MARKER_PREFIX = "agentflow-effect-";

/** What `agentflow.changed` carries. */
export interface AgentflowChangedEvent {
  readonly decision: GateDecision;
  /** With an `approval` that could be read: the agent tasks not as approved. */
  readonly approval?: ApprovalChanges;
}

/**
 * What `agentflow.error` carries: an evaluation that threw (a host's predicate, a pack, waiver or
 * plugin that cannot be used, a chunk that cannot be fetched; then no decision holds and nothing
 * is drawn), or an `approval` that cannot be read (an `ApprovalFormatError`).
 */
export interface AgentflowErrorEvent {
  readonly error: unknown;
}

/**
 * What `agentflow.stale` carries: why the decision last given out (by `agentflow.changed`, or
 * `getDecision()`) no longer holds for the diagram on screen (`getDecision()` is `undefined` from
 * then on, until the next `agentflow.changed`). `edited`: the diagram changed, and its evaluation is pending; `cleared`:
 * the diagram was cleared, or another imported; `failed`: its evaluation failed
 * (`agentflow.error` follows, with the error).
 */
export interface AgentflowStaleEvent {
  readonly reason: "edited" | "cleared" | "failed";
}

/** What `agentflow.toggle` carries. */
export interface AgentflowToggleEvent {
  readonly active: boolean;
}
