/**
 * Converting agentflow's JSON Pointers (from `bpmn:Definitions`) into bpmnlint's paths, which
 * start at the reported element: bpmn-js and the bpmnlint CLI print and highlight `id#path`, so a
 * path that repeated the way down from the root would point at nothing.
 */
import type { ModdleObject } from "../moddle.js";
import { idOf, isModdleObject } from "../moddle.js";
import type { BpmnlintPath } from "./types.js";

const INDEX = /^(?:0|[1-9][0-9]*)$/;

function decodeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * The part of `pointer` below the element `elementId`, walking the moddle tree from `root`.
 * `undefined` when the pointer does not pass through that element or ends on it (the finding is
 * about the element as a whole). Array indexes become numbers, as in bpmnlint's own paths.
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
    // Moddle property names are identifiers, so an all-digit segment is always an array index.
    const step = INDEX.test(segment) ? Number(segment) : segment;
    out.push(step);
    current =
      typeof current === "object" && current !== null
        ? (current as Readonly<Record<string | number, unknown>>)[step]
        : undefined;
  }
  if (start === undefined) return undefined;
  const below = out.slice(start);
  return below.length === 0 ? undefined : below;
}
