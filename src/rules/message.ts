/**
 * Fills `{{name}}` placeholders of a rule's message template from its report data; a dotted
 * name (`{{element.name}}`) reads into nested data, as policy packs write them. A linear
 * scan (no regex) so a hostile value cannot slow it down; unknown placeholders stay visible.
 * Strings are shown with invisible characters escaped (`visibleText`), so a message never hides
 * a bidi override or a newline from its reader; `data` keeps the exact values. The template's own
 * text is escaped too: a policy pack's or a plugin's message is the organisation's text, and a
 * `\r` or an escape sequence in it would let a finding erase or forge lines of a terminal report.
 */
import { visibleText } from "../model/index.js";

function show(value: unknown): string {
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "string") return visibleText(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  return value === undefined ? "?" : visibleText(JSON.stringify(value));
}

/**
 * A template split once: text at even indexes (escaped, as the message shows it), placeholder
 * names (trimmed, as written) at odd ones.
 */
function split(template: string): readonly string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) break;
    parts.push(visibleText(template.slice(i, open)), template.slice(open + 2, close).trim());
    i = close + 2;
  }
  parts.push(visibleText(template.slice(i)));
  return parts;
}

/**
 * Split templates by text: a rule may report 200,000 findings with the same few templates.
 * Bounded, as custom rules could build templates on the fly.
 */
const splitCache = new Map<string, readonly string[]>();
const SPLIT_CACHE_LIMIT = 1024;

/** No value at a placeholder's name: it stays visible, as `{{name}}`. */
const MISSING: unique symbol = Symbol("missing");

/** The value at a dotted name (own properties only), or {@link MISSING}. */
function dotted(data: Readonly<Record<string, unknown>>, name: string): unknown {
  if (!name.includes(".")) return MISSING;
  let value: unknown = data;
  for (const key of name.split(".")) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return MISSING;
    value = (value as Readonly<Record<string, unknown>>)[key];
  }
  return value;
}

/**
 * Interpolates `template` with `data`. `shown` turns the value at each placeholder into what the
 * message shows of it (the modeller shows an element id as the element's name); `data` is read
 * as it is, so a dotted placeholder finds its value where the rule put it.
 */
export function interpolate(
  template: string,
  data: Readonly<Record<string, unknown>>,
  shown?: (value: unknown) => unknown,
): string {
  let parts = splitCache.get(template);
  if (parts === undefined) {
    parts = split(template);
    if (splitCache.size >= SPLIT_CACHE_LIMIT) splitCache.clear();
    splitCache.set(template, parts);
  }
  if (parts.length === 1) return parts[0] ?? "";
  // Joined, not concatenated: `+=` builds a tree of string pieces, and a message lives as long as
  // the result; 50,000 findings held twice the memory in those trees.
  // At its final length: an array grown by push makes room for 17, garbage at once.
  const pieces = new Array<string>(parts.length);
  pieces[0] = parts[0] ?? "";
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k] ?? "";
    const value = Object.hasOwn(data, name) ? data[name] : dotted(data, name);
    pieces[k] =
      value === MISSING
        ? `{{${visibleText(name)}}}`
        : show(shown === undefined ? value : shown(value));
    pieces[k + 1] = parts[k + 1] ?? "";
  }
  return pieces.join("");
}
