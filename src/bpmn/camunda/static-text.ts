/**
 * The text a Zeebe input mapping gives when it is known before the run: a static value (no
 * leading `=`), or a FEEL expression that is one string literal (`="…"`, as Camunda Modeler
 * writes a prompt typed into a FEEL field). Anything else is evaluated at run time, and its
 * text cannot be known here.
 */

const LITERAL = /^=\s*"((?:[^"\\]|\\.)*)"\s*$/s;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  n: "\n",
  r: "\r",
  t: "\t",
  "'": "'",
};

/** The text `source` gives at run time, or `undefined` when it is an expression. */
export function staticText(source: string): string | undefined {
  if (!source.startsWith("=")) return source;
  const body = LITERAL.exec(source)?.[1];
  if (body === undefined) return undefined;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i] ?? "";
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = body[i + 1] ?? "";
    if (next === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(body.slice(i + 2, i + 6), 16));
      i += 5;
      continue;
    }
    const escaped = ESCAPES[next];
    if (escaped === undefined) return undefined; // an escape FEEL does not define: not static
    out += escaped;
    i++;
  }
  return out;
}
