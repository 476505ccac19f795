/**
 * Small geometry shared by both layouts: centres, where a line towards a point leaves a shape's
 * outline (a circle for events, a diamond for gateways, a box for the rest), and rounding to one
 * decimal so the same input gives the same bytes.
 */
import type { DiagramNode } from "../../../bpmn/index.js";
import { outlineOf } from "./shape-size.js";
import type { Box, XY } from "./types.js";

/** `n` to one decimal, never `-0`. */
export function round(n: number): number {
  return Math.round(n * 10) / 10 + 0;
}

/** The centre of a box. */
export function centre(b: Box): XY {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Where the segment from the centre of `b` towards `toward` crosses the shape's outline. */
export function clipTo(node: DiagramNode, b: Box, toward: XY): XY {
  const c = centre(b);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const hw = b.width / 2;
  const hh = b.height / 2;
  let t: number;
  const outline = outlineOf(node);
  if (outline === "event") t = Math.min(hw, hh) / Math.hypot(dx, dy);
  // A diamond of no width or height is its centre (0 / 0 would put NaN into the drawing).
  else if (outline === "gateway") {
    t = hw === 0 || hh === 0 ? 0 : 1 / (Math.abs(dx) / hw + Math.abs(dy) / hh);
  } else {
    t = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  }
  return { x: round(c.x + dx * t), y: round(c.y + dy * t) };
}

/** A straight line between two shapes, from outline to outline. */
export function straight(
  from: { node: DiagramNode; box: Box },
  to: { node: DiagramNode; box: Box },
): XY[] {
  return [clipTo(from.node, from.box, centre(to.box)), clipTo(to.node, to.box, centre(from.box))];
}
