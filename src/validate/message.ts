/**
 * Fills `{{name}}` placeholders of a rule's message template from its report data. A linear
 * scan (no regex) so a hostile value cannot slow it down; unknown placeholders stay visible.
 */

function show(value: unknown): string {
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  return value === undefined ? "?" : JSON.stringify(value);
}

/** Interpolates `template` with `data`. */
export function interpolate(template: string, data: Readonly<Record<string, unknown>>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) break;
    const name = template.slice(open + 2, close).trim();
    out += template.slice(i, open) + (Object.hasOwn(data, name) ? show(data[name]) : `{{${name}}}`);
    i = close + 2;
  }
  return out + template.slice(i);
}
