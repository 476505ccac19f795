/**
 * Converting agentflow's JSON Pointers (from `bpmn:Definitions`) into bpmnlint's paths, which
 * start at the reported element: bpmn-js and the bpmnlint CLI print and highlight `id#path`, so a
 * path that repeated the way down from the root would point at nothing.
 */
import type { ModdleObject } from "../moddle.js";
import { idOf, isModdleObject } from "../moddle.js";
import type { BpmnlintPath } from "./types.js";

function decodeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * The part of `pointer` below the element `elementId`, walking the moddle tree from `root`.
 * `undefined` when the pointer does not pass through that element or ends on it (the finding is
 * about the element as a whole). Array indexes become numbers, as bpmnlint's paths have them.
 */
export function pathBelow(
  root: ModdleObject,
  pointer: string,
  elementId: string,
): BpmnlintPath | undefined {
  if (!pointer.startsWith("/") || elementId === "") return undefined;
  const segments = pointer.slice(1).split("/").map(decodeSegment);
  let current: unknown = root;
  let start: number | undefined;
  const out: (string | number)[] = [];
  for (const segment of segments) {
    if (isModdleObject(current) && idOf(current) === elementId) start = out.length;
    if (Array.isArray(current)) {
      const index = Number(segment);
      out.push(index);
      current = Number.isInteger(index) ? (current as unknown[])[index] : undefined;
    } else {
      out.push(segment);
      current =
        typeof current === "object" && current !== null
          ? (current as Readonly<Record<string, unknown>>)[segment]
          : undefined;
    }
  }
  if (start === undefined) return undefined;
  const below = out.slice(start);
  return below.length === 0 ? undefined : below;
}
