/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The canvas as the module draws on it: a scene is put there by difference (what is already
 * shown stays), and a large one can be drawn in steps that a later drawing ends.
 */
import { describe, expect, it } from "vitest";
import type { DiagramElement } from "../../src/bpmn-js/diagram.js";
import { Drawing } from "../../src/bpmn-js/drawing.js";
import type { Scene } from "../../src/bpmn-js/paint.js";
import { EMPTY_SCENE } from "../../src/bpmn-js/paint.js";

const element = (id: string): DiagramElement => ({ id, type: "bpmn:Task", businessObject: {} });

function canvas() {
  const overlays = new Map<string, string>();
  const markers = new Set<string>();
  const log: string[] = [];
  let next = 0;
  const container = document.createElement("div");
  const drawing = new Drawing(
    {
      add: (on, _type, { html }) => {
        const id = String(++next);
        overlays.set(id, `${on.id}:${html.textContent}`);
        log.push(`+${on.id}:${html.textContent}`);
        return id;
      },
      remove: (filter) => {
        for (const id of typeof filter === "string" ? [filter] : [...overlays.keys()]) {
          log.push(`-${overlays.get(id) ?? ""}`);
          overlays.delete(id);
        }
      },
    },
    {
      addMarker: (on, marker) => markers.add(`${on.id}:${marker}`),
      removeMarker: (on, marker) => markers.delete(`${on.id}:${marker}`),
      getContainer: () => container,
    },
  );
  return { drawing, overlays: () => [...overlays.values()].sort(), markers, log };
}

/** A badge with `text` on each element, and a marker on each. */
function scene(
  texts: Readonly<Record<string, string>>,
  elements: Map<string, DiagramElement>,
): Scene {
  const on = (id: string): DiagramElement => {
    const found = elements.get(id) ?? element(id);
    elements.set(id, found);
    return found;
  };
  return {
    overlays: Object.entries(texts).map(([id, text]) => ({
      element: on(id),
      slot: "badge",
      position: { top: -24, left: 0 },
      signature: text,
      html: (doc: Document) => Object.assign(doc.createElement("div"), { textContent: text }),
    })),
    markers: Object.keys(texts).map((id) => ({ element: on(id), marker: "agentflow-agent" })),
  };
}

describe("Drawing", () => {
  it("changes only what differs from what the canvas shows", () => {
    const { drawing, overlays, markers, log } = canvas();
    const elements = new Map<string, DiagramElement>();
    drawing.show(scene({ A: "L2 · gated", B: "L3 · gate missing" }, elements));
    expect(overlays()).toEqual(["A:L2 · gated", "B:L3 · gate missing"]);
    log.length = 0;
    drawing.show(scene({ A: "L2 · gated", B: "L3 · gate missing" }, elements));
    expect(log).toEqual([]);
    drawing.show(scene({ A: "L2 · gated", B: "L3 · gated", C: "L1 · gated" }, elements));
    expect(log).toEqual(["-B:L3 · gate missing", "+B:L3 · gated", "+C:L1 · gated"]);
    drawing.show(EMPTY_SCENE);
    expect(overlays()).toEqual([]);
    expect([...markers]).toEqual([]);
  });

  it("draws a large scene in steps, and stops the steps of a drawing overtaken", () => {
    const { drawing, overlays, markers } = canvas();
    const elements = new Map<string, DiagramElement>();
    const texts = Object.fromEntries(["A", "B", "C"].map((id) => [id, `L2 · ${id}`]));
    const steps = drawing.steps(scene(texts, elements), 2);
    // More than one step: the first adds nothing, so that the drawing starts in a task of its own.
    expect(steps.next().done).toBe(false);
    expect(overlays()).toEqual([]);
    expect(steps.next().done).toBe(false);
    expect(overlays()).toEqual(["A:L2 · A", "B:L2 · B"]);
    expect(steps.next().done).toBe(false);
    // Three overlays and three markers, two at a time.
    expect(overlays()).toHaveLength(3);
    expect(markers.size).toBe(1);
    expect(steps.next().done).toBe(true);
    expect(markers.size).toBe(3);

    const later = drawing.steps(scene({ D: "L1 · D", E: "L1 · E", F: "L1 · F" }, elements), 1);
    expect(later.next().done).toBe(false);
    expect(later.next().done).toBe(false);
    expect(overlays()).toContain("D:L1 · D");
    drawing.show(scene({ A: "L2 · A" }, elements));
    // The earlier drawing's remaining steps add nothing.
    expect(later.next().done).toBe(true);
    expect(overlays()).toEqual(["A:L2 · A"]);
    expect([...markers]).toEqual(["A:agentflow-agent"]);
  });
});
