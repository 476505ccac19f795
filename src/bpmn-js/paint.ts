/// <reference lib="dom" />
/**
 * What the service draws for a decision, as a scene: the badges of agent tasks, the tool marks of
 * Camunda agents, the gate markers, the changed-since-approval marks and the bypass flows, each an
 * overlay or a canvas marker on an element, every overlay with a signature of what it shows.
 * `drawing.ts` puts a scene on the canvas by difference with the one already there, so that an
 * edit redraws only what its evaluation changed. Apart from the service so that each file holds
 * one job: the service decides when, this file what, `drawing.ts` how.
 */
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";
import { approvalMarks } from "./approval-marks.js";
import { gateMark, taskBadges, toolMarks } from "./badges.js";
import { asModdle, isType, stringAttr } from "./btv-read.js";
import type { FlowEdge } from "./bypass.js";
import { bypassFlowIds, bypassPaths } from "./bypass.js";
import type { DiagramElement, ElementRegistry, OverlayPosition } from "./diagram.js";
import { approvalMarkElement, gateMarkElement, taskBadgeElement, toolMarkElement } from "./draw.js";
import {
  AGENT_MARKER,
  APPROVAL_MARKER,
  BYPASS_MARKER,
  EFFECT_MARKER_PREFIX,
  GATE_MARKER,
} from "./events.js";

/** One overlay of a scene: at most one per element and slot. */
export interface SceneOverlay {
  readonly element: DiagramElement;
  /** Which of the element's overlays this is: `badge`, `tool`, `gate` or `approval`. */
  readonly slot: string;
  readonly position: OverlayPosition;
  /** What the overlay shows, as text: an overlay whose signature did not change is kept. */
  readonly signature: string;
  /** Builds its DOM, only when it is (re)drawn. */
  readonly html: (doc: Document) => HTMLElement;
}

/** One canvas marker of a scene. */
export interface SceneMarker {
  readonly element: DiagramElement;
  readonly marker: string;
}

/** Everything drawn for one decision. */
export interface Scene {
  readonly overlays: readonly SceneOverlay[];
  readonly markers: readonly SceneMarker[];
}

/** The scene of nothing: what a hidden or cleared view shows. */
export const EMPTY_SCENE: Scene = Object.freeze({ overlays: [], markers: [] });

function parentId(businessObject: unknown): string | undefined {
  const parent = asModdle(asModdle(businessObject)?.$parent);
  return parent === undefined ? undefined : stringAttr(parent, "id");
}

/**
 * The sequence flows leaving the nodes of the bypass paths and their containers: the only flows
 * `bypassFlowIds` can match a step to, found from the nodes rather than by reading every element
 * of the diagram after every edit.
 */
function pathFlows(
  decision: GateDecision,
  registry: ElementRegistry,
  parentOf: (id: string) => string | undefined,
): FlowEdge[] {
  const flows: FlowEdge[] = [];
  const seen = new Set<string>();
  for (const path of bypassPaths(decision)) {
    for (const step of path) {
      for (
        let id: string | undefined = step;
        id !== undefined && !seen.has(id);
        id = parentOf(id)
      ) {
        seen.add(id);
        for (const flow of registry.get(id)?.outgoing ?? []) {
          const target = flow.target?.id;
          if (target !== undefined && isType(flow.businessObject, "bpmn:SequenceFlow"))
            flows.push({ id: flow.id, source: id, target });
        }
      }
    }
  }
  return flows;
}

/** What `decision` (and the `approval` comparison) puts on the elements of `registry`. */
export function sceneOf(
  decision: GateDecision,
  approval: ApprovalChanges | undefined,
  registry: ElementRegistry,
): Scene {
  const overlays: SceneOverlay[] = [];
  const markers: SceneMarker[] = [];
  const overlay = <T>(
    element: DiagramElement,
    slot: string,
    position: OverlayPosition,
    data: T,
    build: (doc: Document, data: T) => HTMLElement,
  ): void => {
    const signature = JSON.stringify([position, data]);
    overlays.push({ element, slot, position, signature, html: (doc) => build(doc, data) });
  };
  const agents = new Set<string>();
  for (const badge of taskBadges(decision)) {
    const element = registry.get(badge.elementId);
    if (element === undefined) continue;
    agents.add(element.id);
    markers.push({ element, marker: AGENT_MARKER });
    overlay(element, "badge", { top: -24, left: 0 }, badge, taskBadgeElement);
  }
  for (const mark of toolMarks(decision)) {
    const element = registry.get(mark.elementId);
    if (element === undefined) continue;
    markers.push({ element, marker: `${EFFECT_MARKER_PREFIX}${mark.effect}` });
    overlay(element, "tool", { bottom: -4, left: 0 }, mark, toolMarkElement);
  }
  // The decision's gates: marked, accepted by isGate, or chosen by the organisation's selectors.
  for (const gate of decision.gates) {
    const element = registry.get(gate.elementId);
    if (element === undefined || !isType(element.businessObject, "bpmn:FlowNode")) continue;
    markers.push({ element, marker: GATE_MARKER });
    // An agent that is its own gate gets both: the marker goes above the badge.
    const position = { top: agents.has(element.id) ? -46 : -24, left: 0 };
    const mark = gateMark(element.id, gate.role ?? undefined);
    overlay(element, "gate", position, mark, gateMarkElement);
  }
  for (const marked of approval === undefined ? [] : approvalMarks(approval)) {
    const element = registry.get(marked.elementId);
    if (element === undefined) continue;
    markers.push({ element, marker: APPROVAL_MARKER });
    overlay(element, "approval", { bottom: -4, left: 0 }, marked, approvalMarkElement);
  }
  const parentOf = (id: string): string | undefined => parentId(registry.get(id)?.businessObject);
  for (const id of bypassFlowIds(decision, pathFlows(decision, registry, parentOf), parentOf)) {
    const flow = registry.get(id);
    if (flow !== undefined) markers.push({ element: flow, marker: BYPASS_MARKER });
  }
  return { overlays, markers };
}
