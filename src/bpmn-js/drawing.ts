/// <reference lib="dom" />
/**
 * What is on the canvas, and how a new scene gets there: by difference. An overlay whose element,
 * slot and signature are unchanged stays as it is, a marker already set stays set; only what an
 * evaluation changed is removed or added. On a diagram of 2,000 flow nodes, taking every overlay
 * and marker off and putting them back after each edit cost most of an edit's time (each overlay
 * is DOM the browser lays out again, each marker a class that restyles its shape); most edits
 * change none of them (docs/modeler.md, "At fleet size").
 */
import type { Canvas, DiagramElement, Overlays } from "./diagram.js";
import { OVERLAY_TYPE } from "./events.js";
import type { Scene, SceneOverlay } from "./paint.js";

/**
 * How many overlays and markers one task adds: a first drawing of a large diagram (hundreds of
 * badges) is spread over tasks, each short enough that the page stays responsive; an edit's
 * change is far smaller, and drawn at once.
 */
export const DRAW_STEP = 40;

/** Resolves in a later task, so that the browser may handle input and render in between. */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });

interface Drawn {
  readonly id: string;
  readonly signature: string;
}

/** The overlays and markers the module has put on one canvas. */
export class Drawing {
  readonly #overlays: Overlays;
  readonly #canvas: Canvas;
  /** Per element, its overlays by slot. Elements as objects: an element's id can change. */
  #drawn = new Map<DiagramElement, Map<string, Drawn>>();
  #marked = new Map<DiagramElement, Set<string>>();
  /** Counts drawings, so that the steps of an overtaken one stop. */
  #generation = 0;

  /** Draws on `overlays` and `canvas`. */
  constructor(overlays: Overlays, canvas: Canvas) {
    this.#overlays = overlays;
    this.#canvas = canvas;
  }

  /** Makes the canvas show `scene` at once, changing only what differs from what it shows. */
  show(scene: Scene): void {
    const steps = this.steps(scene, Infinity);
    while (steps.next().done !== true);
  }

  /**
   * Makes the canvas show `scene` in steps: each `next()` adds at most `size` overlays and
   * markers (the first also takes off what is no longer wanted, and adds nothing when more than
   * one step is needed), so that a first drawing of hundreds of badges can be spread over tasks.
   * A later `show`, `steps` or `clear` ends it.
   */
  *steps(scene: Scene, size: number): Generator<void, void, undefined> {
    const generation = ++this.#generation;
    const wanted = new Map<DiagramElement, Map<string, SceneOverlay>>();
    for (const overlay of scene.overlays) {
      const slots = wanted.get(overlay.element) ?? new Map<string, SceneOverlay>();
      slots.set(overlay.slot, overlay);
      wanted.set(overlay.element, slots);
    }
    for (const [element, slots] of this.#drawn) {
      const want = wanted.get(element);
      for (const [slot, drawn] of slots) {
        if (want?.get(slot)?.signature === drawn.signature) continue;
        this.#overlays.remove(drawn.id);
        slots.delete(slot);
      }
      if (slots.size === 0) this.#drawn.delete(element);
    }
    const markers = this.#unmark(scene);
    let done = 0;
    if (
      scene.overlays.length + scene.markers.length > size &&
      this.#missing(wanted, markers) > size
    ) {
      // A drawing of more than one step starts in a task of its own, not in the evaluation's.
      yield;
      if (generation !== this.#generation) return;
    }
    let doc: Document | undefined;
    for (const [element, want] of wanted) {
      for (const [slot, overlay] of want) {
        const slots = this.#drawn.get(element) ?? new Map<string, Drawn>();
        if (slots.has(slot)) continue;
        if (done++ >= size) {
          done = 1;
          yield;
          if (generation !== this.#generation) return;
        }
        doc ??= this.#canvas.getContainer().ownerDocument;
        const html = overlay.html(doc);
        const id = this.#overlays.add(element, OVERLAY_TYPE, { position: overlay.position, html });
        slots.set(slot, { id, signature: overlay.signature });
        this.#drawn.set(element, slots);
      }
    }
    for (const [element, want] of markers) {
      for (const marker of want) {
        const set = this.#marked.get(element) ?? new Set<string>();
        if (set.has(marker)) continue;
        if (done++ >= size) {
          done = 1;
          yield;
          if (generation !== this.#generation) return;
        }
        this.#canvas.addMarker(element, marker);
        set.add(marker);
        this.#marked.set(element, set);
      }
    }
  }

  /** How many of the overlays and markers wanted are not on the canvas yet. */
  #missing(
    overlays: ReadonlyMap<DiagramElement, ReadonlyMap<string, SceneOverlay>>,
    markers: ReadonlyMap<DiagramElement, ReadonlySet<string>>,
  ): number {
    let count = 0;
    for (const [element, slots] of overlays) {
      for (const slot of slots.keys()) if (this.#drawn.get(element)?.has(slot) !== true) count++;
    }
    for (const [element, set] of markers) {
      for (const marker of set) if (this.#marked.get(element)?.has(marker) !== true) count++;
    }
    return count;
  }

  /** Takes off the markers `scene` no longer has; returns the markers it has, by element. */
  #unmark(scene: Scene): Map<DiagramElement, Set<string>> {
    const wanted = new Map<DiagramElement, Set<string>>();
    for (const { element, marker } of scene.markers) {
      const set = wanted.get(element) ?? new Set<string>();
      set.add(marker);
      wanted.set(element, set);
    }
    for (const [element, markers] of this.#marked) {
      const want = wanted.get(element);
      for (const marker of markers) {
        if (want?.has(marker) === true) continue;
        // A removed element (still here after an undo or redo) is skipped by the canvas itself.
        this.#canvas.removeMarker(element, marker);
        markers.delete(marker);
      }
      if (markers.size === 0) this.#marked.delete(element);
    }
    return wanted;
  }

  /**
   * Forgets what was on `element`: diagram-js removes a removed element's overlays and its
   * graphics (with their markers) itself, and an undo brings the element back with neither.
   */
  forget(element: DiagramElement): void {
    this.#drawn.delete(element);
    this.#marked.delete(element);
  }

  /** Takes every overlay and marker off. */
  clear(): void {
    this.#generation++;
    this.#overlays.remove({ type: OVERLAY_TYPE });
    for (const [element, markers] of this.#marked) {
      for (const marker of markers) this.#canvas.removeMarker(element, marker);
    }
    this.#drawn = new Map();
    this.#marked = new Map();
  }
}
