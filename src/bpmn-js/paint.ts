/// <reference lib="dom" />
/**
 * What the service draws for a decision: the badges of agent tasks, the tool marks of Camunda
 * agents, the gate markers, the changed-since-approval marks and the bypass flows, as overlays
 * and canvas markers. Apart from the service so that each file holds one job: the service
 * decides when, this file what.
 */
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";
import { approvalMarks } from "./approval-marks.js";
import { gateMark, taskBadges, toolMarks } from "./badges.js";
import { asModdle, isType, stringAttr } from "./btv-read.js";
import type { FlowEdge } from "./bypass.js";
import { bypassFlowIds } from "./bypass.js";
import type { Canvas, DiagramElement, ElementRegistry, Overlays } from "./diagram.js";
import { approvalMarkElement, gateMarkElement, taskBadgeElement, toolMarkElement } from "./draw.js";
import {
  AGENT_MARKER,
  APPROVAL_MARKER,
  BYPASS_MARKER,
  EFFECT_MARKER_PREFIX,
  GATE_MARKER,
  OVERLAY_TYPE,
} from "./events.js";

/** The diagram-js services a decision is drawn with. */
export interface PaintView {
  readonly registry: ElementRegistry;
  readonly overlays: Overlays;
  readonly canvas: Canvas;
}

function elementsOf(registry: ElementRegistry): DiagramElement[] {
  // Labels share their element's business object; the element itself carries the overlay.
  return registry.getAll().filter((element) => element.labelTarget === undefined);
}

function parentId(businessObject: unknown): string | undefined {
  const parent = asModdle(asModdle(businessObject)?.$parent);
  return parent === undefined ? undefined : stringAttr(parent, "id");
}

/**
 * Draws `decision` (and the `approval` comparison) on the canvas; `markElement` adds a canvas
 * marker and remembers it, so that the service can take every marker off again.
 */
export function paint(
  decision: GateDecision,
  approval: ApprovalChanges | undefined,
  view: PaintView,
  markElement: (element: DiagramElement, marker: string) => void,
): void {
  const { registry, overlays, canvas } = view;
  const doc = canvas.getContainer().ownerDocument;
  const agents = new Set<string>();
  for (const badge of taskBadges(decision)) {
    const element = registry.get(badge.elementId);
    if (element === undefined) continue;
    agents.add(element.id);
    markElement(element, AGENT_MARKER);
    overlays.add(element, OVERLAY_TYPE, {
      position: { top: -24, left: 0 },
      html: taskBadgeElement(doc, badge),
    });
  }
  for (const mark of toolMarks(decision)) {
    const element = registry.get(mark.elementId);
    if (element === undefined) continue;
    markElement(element, `${EFFECT_MARKER_PREFIX}${mark.effect}`);
    overlays.add(element, OVERLAY_TYPE, {
      position: { bottom: -4, left: 0 },
      html: toolMarkElement(doc, mark),
    });
  }
  // The decision's gates: marked, accepted by isGate, or chosen by the organisation's selectors.
  const gates = new Map(decision.gates.map((g) => [g.elementId, g.role ?? undefined]));
  const flows: FlowEdge[] = [];
  for (const element of elementsOf(registry)) {
    const bo = element.businessObject;
    if (isType(bo, "bpmn:SequenceFlow")) {
      const source = element.source?.id;
      const target = element.target?.id;
      if (source !== undefined && target !== undefined)
        flows.push({ id: element.id, source, target });
      continue;
    }
    const node = isType(bo, "bpmn:FlowNode") ? asModdle(bo) : undefined;
    if (node === undefined || !gates.has(element.id)) continue;
    const mark = gateMark(element.id, gates.get(element.id));
    markElement(element, GATE_MARKER);
    // An agent that is its own gate gets both: the marker goes above the badge.
    overlays.add(element, OVERLAY_TYPE, {
      position: { top: agents.has(element.id) ? -46 : -24, left: 0 },
      html: gateMarkElement(doc, mark),
    });
  }
  for (const marked of approval === undefined ? [] : approvalMarks(approval)) {
    const element = registry.get(marked.elementId);
    if (element === undefined) continue;
    markElement(element, APPROVAL_MARKER);
    overlays.add(element, OVERLAY_TYPE, {
      position: { bottom: -4, left: 0 },
      html: approvalMarkElement(doc, marked),
    });
  }
  const parentOf = (id: string): string | undefined => parentId(registry.get(id)?.businessObject);
  for (const id of bypassFlowIds(decision, flows, parentOf)) {
    const flow = registry.get(id);
    if (flow !== undefined) markElement(flow, BYPASS_MARKER);
  }
}
