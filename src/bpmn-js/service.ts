/// <reference lib="dom" />
/**
 * The `agentflow` service: evaluates the gates on the modeller's own definitions after import
 * and after every change (debounced), keeps the latest {@link GateDecision}, fires
 * `agentflow.changed` with it, and draws the badges, gate markers and bypass flows.
 */
import type { GateDecision, GateOptions } from "../bpmn/index.js";
import { evaluateGates } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval.js";
import { ApprovalState, approvalMarks } from "./approval.js";
import type { AgentflowChangedEvent, AgentflowErrorEvent, AgentflowToggleEvent } from "./events.js";
import {
  AGENT_MARKER,
  APPROVAL_MARKER,
  BYPASS_MARKER,
  EFFECT_MARKER_PREFIX,
  GATE_MARKER,
  OVERLAY_TYPE,
} from "./events.js";
import { gateMark, taskBadges, toolMarks } from "./badges.js";
import { asModdle, isType, stringAttr } from "./btv-read.js";
import type { FlowEdge } from "./bypass.js";
import { bypassFlowIds } from "./bypass.js";
import type { AgentflowConfig } from "./config.js";
import { configProblems, DEFAULT_DEBOUNCE } from "./config.js";
import { compiledPolicies } from "./policies.js";
import type {
  BpmnJs,
  Canvas,
  DiagramElement,
  ElementRegistry,
  EventBus,
  Overlays,
} from "./diagram.js";
import { approvalMarkElement, gateMarkElement, taskBadgeElement, toolMarkElement } from "./draw.js";

function elementsOf(registry: ElementRegistry): DiagramElement[] {
  // Labels share their element's business object; the element itself carries the overlay.
  return registry.getAll().filter((element) => element.labelTarget === undefined);
}

function parentId(businessObject: unknown): string | undefined {
  const parent = asModdle(asModdle(businessObject)?.$parent);
  return parent === undefined ? undefined : stringAttr(parent, "id");
}

/** The module's service, registered as `agentflow`. */
export class AgentflowService {
  /** What diagram-js injects, in constructor order. */
  static readonly $inject = [
    "config.agentflow",
    "eventBus",
    "bpmnjs",
    "elementRegistry",
    "overlays",
    "canvas",
  ];

  readonly #options: GateOptions;
  readonly #debounce: number;
  readonly #eventBus: EventBus;
  readonly #bpmnjs: BpmnJs;
  readonly #registry: ElementRegistry;
  readonly #overlays: Overlays;
  readonly #canvas: Canvas;
  #active: boolean;
  #decision: GateDecision | undefined;
  readonly #approval: ApprovalState;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts evaluations, so that an older async one that finishes late is dropped. */
  #run = 0;
  /**
   * The elements marked, as objects rather than ids: an element's id can change (the panel, or
   * `modeling.updateProperties`), and the canvas finds the marker by the element's current id.
   */
  #marked: { readonly element: DiagramElement; readonly marker: string }[] = [];

  /** Built by diagram-js; throws a `TypeError` naming every wrong option. */
  constructor(
    config: AgentflowConfig | undefined,
    eventBus: EventBus,
    bpmnjs: BpmnJs,
    elementRegistry: ElementRegistry,
    overlays: Overlays,
    canvas: Canvas,
  ) {
    const problems = configProblems(config);
    if (problems.length > 0) throw new TypeError(problems.join("; "));
    const { debounce, active, approval, ...options } = config ?? {};
    // Compiled once here: every evaluation after an edit reuses the packs.
    this.#options =
      options.policies === undefined
        ? options
        : { ...options, policies: compiledPolicies(options.policies) };
    this.#debounce = debounce ?? DEFAULT_DEBOUNCE;
    this.#active = active ?? true;
    this.#eventBus = eventBus;
    this.#bpmnjs = bpmnjs;
    this.#registry = elementRegistry;
    this.#overlays = overlays;
    this.#canvas = canvas;
    // A malformed one is said at the first evaluation: the host listens once the modeller is built.
    this.#approval = new ApprovalState(approval);
    eventBus.on("import.done", () => {
      this.#schedule(0);
    });
    eventBus.on("commandStack.changed", () => {
      // A run still waiting on an async resolver evaluated the diagram as it was: drop it now,
      // not when the debounced run starts, or it could be drawn in between.
      this.#run++;
      this.#schedule(this.#debounce);
    });
    eventBus.on("diagram.clear", () => {
      this.#cancel();
      this.#run++;
      this.#clear();
      this.#decision = undefined;
      this.#approval.forget();
    });
    eventBus.on("diagram.destroy", () => {
      this.#cancel();
      this.#run++;
    });
  }

  /** The decision for the diagram as last evaluated; `undefined` before the first evaluation. */
  getDecision(): GateDecision | undefined {
    return this.#decision;
  }

  /**
   * What the `approval` says of the diagram as last evaluated: the agent tasks not as approved,
   * and those it lists that are gone; `undefined` without a usable approval or a decision.
   */
  getApprovalChanges(): ApprovalChanges | undefined {
    return this.#approval.changes;
  }

  /**
   * Replaces the approval (`undefined` removes it) and redraws: fires `agentflow.changed` with the
   * new comparison, or `agentflow.error` when it cannot be read (then nothing is marked).
   */
  setApproval(approval: unknown): void {
    this.#approval.set(approval);
    if (this.#decision !== undefined) this.#publish(this.#decision);
    else this.#sayErrors(this.#approval.takeErrors());
  }

  /** Whether the overlays are shown. */
  isActive(): boolean {
    return this.#active;
  }

  /**
   * Shows (`true`) or hides (`false`) every badge, marker and bypass flow, or flips them. The
   * gates are still evaluated while hidden, so `getDecision()` stays current.
   */
  toggle(on = !this.#active): void {
    this.#active = on;
    this.#clear();
    if (on && this.#decision !== undefined) this.#draw(this.#decision);
    this.#eventBus.fire("agentflow.toggle", { active: on } satisfies AgentflowToggleEvent);
  }

  /**
   * Evaluates the gates now (dropping a pending debounced run), draws the result and fires
   * `agentflow.changed`. Resolves with the decision, or `undefined` when there is no diagram, the
   * evaluation threw (then `agentflow.error` fires), or a later evaluation overtook this one.
   */
  async evaluate(): Promise<GateDecision | undefined> {
    this.#cancel();
    const run = ++this.#run;
    const definitions = asModdle(this.#bpmnjs.getDefinitions());
    if (definitions === undefined) return undefined;
    let decision: GateDecision;
    try {
      decision = await evaluateGates(definitions, this.#options);
    } catch (error) {
      if (run === this.#run) {
        this.#eventBus.fire("agentflow.error", { error } satisfies AgentflowErrorEvent);
      }
      return undefined;
    }
    if (run !== this.#run) return undefined;
    this.#publish(decision);
    return decision;
  }

  /** Keeps the decision, compares it with the approval, draws both, fires `agentflow.changed`. */
  #publish(decision: GateDecision): void {
    this.#decision = decision;
    this.#sayErrors(this.#approval.update(this.#bpmnjs.getDefinitions(), decision));
    this.#clear();
    if (this.#active) this.#draw(decision);
    const approval = this.#approval.changes;
    this.#eventBus.fire("agentflow.changed", {
      decision,
      ...(approval === undefined ? {} : { approval }),
    } satisfies AgentflowChangedEvent);
  }

  #sayErrors(errors: readonly unknown[]): void {
    for (const error of errors) {
      this.#eventBus.fire("agentflow.error", { error } satisfies AgentflowErrorEvent);
    }
  }

  #schedule(delay: number): void {
    this.#cancel();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.evaluate();
    }, delay);
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #mark(element: DiagramElement, marker: string): void {
    this.#canvas.addMarker(element, marker);
    this.#marked.push({ element, marker });
  }

  #clear(): void {
    this.#overlays.remove({ type: OVERLAY_TYPE });
    for (const { element, marker } of this.#marked) {
      // A removed element (still here after an undo or redo) is skipped by the canvas itself.
      this.#canvas.removeMarker(element, marker);
    }
    this.#marked = [];
  }

  #draw(decision: GateDecision): void {
    const doc = this.#canvas.getContainer().ownerDocument;
    const agents = new Set<string>();
    for (const badge of taskBadges(decision)) {
      const element = this.#registry.get(badge.elementId);
      if (element === undefined) continue;
      agents.add(element.id);
      this.#mark(element, AGENT_MARKER);
      this.#overlays.add(element, OVERLAY_TYPE, {
        position: { top: -24, left: 0 },
        html: taskBadgeElement(doc, badge),
      });
    }
    for (const mark of toolMarks(decision)) {
      const element = this.#registry.get(mark.elementId);
      if (element === undefined) continue;
      this.#mark(element, `${EFFECT_MARKER_PREFIX}${mark.effect}`);
      this.#overlays.add(element, OVERLAY_TYPE, {
        position: { bottom: -4, left: 0 },
        html: toolMarkElement(doc, mark),
      });
    }
    // The decision's gates: marked, accepted by isGate, or chosen by the organisation's selectors.
    const gates = new Map(decision.gates.map((g) => [g.elementId, g.role ?? undefined]));
    const flows: FlowEdge[] = [];
    for (const element of elementsOf(this.#registry)) {
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
      this.#mark(element, GATE_MARKER);
      // An agent that is its own gate gets both: the marker goes above the badge.
      this.#overlays.add(element, OVERLAY_TYPE, {
        position: { top: agents.has(element.id) ? -46 : -24, left: 0 },
        html: gateMarkElement(doc, mark),
      });
    }
    const changes = this.#approval.changes;
    for (const mark of changes === undefined ? [] : approvalMarks(changes)) {
      const element = this.#registry.get(mark.elementId);
      if (element === undefined) continue;
      this.#mark(element, APPROVAL_MARKER);
      this.#overlays.add(element, OVERLAY_TYPE, {
        position: { bottom: -4, left: 0 },
        html: approvalMarkElement(doc, mark),
      });
    }
    const parentOf = (id: string): string | undefined =>
      parentId(this.#registry.get(id)?.businessObject);
    for (const id of bypassFlowIds(decision, flows, parentOf)) {
      const flow = this.#registry.get(id);
      if (flow !== undefined) this.#mark(flow, BYPASS_MARKER);
    }
  }
}
