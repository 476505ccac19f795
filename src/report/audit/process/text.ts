/**
 * Names inside and under BPMN shapes: wrapped into lines that fit a width, at most a few lines,
 * the last cut with `…`. The page runs no script, so widths are estimated (`textWidth`), on the
 * generous side; a name of a million characters costs no more than the lines kept.
 */
import { escapeXml } from "../escape.js";
import { fitText, textWidth } from "../layout.js";
import type { Box } from "./types.js";

/** The words of `text` wrapped into at most `lines` lines of `width` at `size`. */
export function wrapText(text: string, size: number, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = "";
  // Only as many words as could fill the lines are looked at.
  const words = text
    .slice(0, lines * 200)
    .split(/\s+/)
    .filter((w) => w !== "");
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = line === "" ? word : `${line} ${word}`;
    if (textWidth(next, size) <= width || line === "") {
      line = next;
      continue;
    }
    if (out.length === lines - 1) {
      out.push(fitText(`${line} ${words.slice(i).join(" ")}`, size, width));
      return out;
    }
    out.push(line);
    line = word;
  }
  if (line !== "") out.push(fitText(line, size, width));
  if (out.length > lines) return out.slice(0, lines);
  return out.map((l) => fitText(l, size, width));
}

/** `lines` as one `<text>` centred at `x`, the block's middle at `y`. */
export function textBlock(
  lines: readonly string[],
  x: number,
  y: number,
  size: number,
  cls: string,
): string {
  if (lines.length === 0) return "";
  const lead = size + 2;
  const top = y - ((lines.length - 1) * lead) / 2 + size * 0.35;
  const spans = lines
    .map((l, i) => `<tspan x="${n(x)}" y="${n(top + i * lead)}">${escapeXml(l)}</tspan>`)
    .join("");
  return `<text class="${cls}" text-anchor="middle">${spans}</text>`;
}

/** A name in a box: wrapped to the box's width, as many lines as its height holds (at least 1). */
export function textInBox(text: string, box: Box, size: number, cls: string): string {
  const lines = Math.max(1, Math.min(4, Math.floor(box.height / (size + 2))));
  const wrapped = wrapText(text, size, Math.max(box.width - 8, 24), lines);
  return textBlock(wrapped, box.x + box.width / 2, box.y + box.height / 2, size, cls);
}

/** A number for SVG: one decimal at most, never `-0`. */
export function n(v: number): string {
  return String(Math.round(v * 10) / 10 + 0);
}
