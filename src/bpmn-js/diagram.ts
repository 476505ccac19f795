/**
 * The few diagram-js and bpmn-js services the module calls, typed as far as it uses them.
 * Written here rather than imported from diagram-js so that agentflow's declarations name no
 * optional peer: a host without bpmn-js can still import `agentflow/bpmn-js`'s pure functions.
 */

/** A diagram-js element: a shape or a connection, with its BPMN business object. */
export interface DiagramElement {
  readonly id: string;
  readonly type: string;
  readonly businessObject: unknown;
  readonly parent?: DiagramElement | undefined;
  readonly source?: DiagramElement | undefined;
  readonly target?: DiagramElement | undefined;
  /** Set on shapes: the connections leaving it. */
  readonly outgoing?: readonly DiagramElement[] | undefined;
  /** Set on labels: the element the label belongs to. */
  readonly labelTarget?: DiagramElement | undefined;
  /** Set on connections. */
  readonly waypoints?: unknown;
}

/** diagram-js's `eventBus`. */
export interface EventBus {
  on(events: string | readonly string[], callback: (event: unknown) => unknown): void;
  off(events: string | readonly string[], callback: (event: unknown) => unknown): void;
  fire(type: string, data?: object): unknown;
}

/** diagram-js's `elementRegistry`. */
export interface ElementRegistry {
  get(id: string): DiagramElement | undefined;
  getAll(): DiagramElement[];
}

/** Where an overlay sits, relative to its element's box. */
export interface OverlayPosition {
  readonly top?: number;
  readonly left?: number;
  readonly bottom?: number;
  readonly right?: number;
}

/** diagram-js's `overlays`. */
export interface Overlays {
  add(
    element: DiagramElement,
    type: string,
    overlay: { readonly position: OverlayPosition; readonly html: HTMLElement },
  ): string;
  /** Removes the overlay of an id (what `add` returned), or every overlay of a type. */
  remove(filter: string | { readonly type: string }): void;
}

/** diagram-js's `canvas`, for markers. */
export interface Canvas {
  addMarker(element: DiagramElement, marker: string): void;
  removeMarker(element: DiagramElement, marker: string): void;
  getContainer(): HTMLElement;
}

/** bpmn-js itself, as the `bpmnjs` service. */
export interface BpmnJs {
  getDefinitions(): unknown;
}
