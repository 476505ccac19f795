/**
 * The text a Zeebe input mapping gives when it is known before the run: a static value (no
 * leading `=`), or a FEEL expression that is one string literal (`="…"`, as Camunda Modeler
 * writes a prompt typed into a FEEL field), read as the conditions' literals are (only the
 * escapes every FEEL engine reads alike). Anything else is evaluated at run time, and its text
 * cannot be known here.
 */
import { decodeFeelString } from "../../model/internal.js";

const LITERAL = /^=\s*("(?:[^"\\]|\\.)*")\s*$/s;

/** The text `source` gives at run time, or `undefined` when it is an expression. */
export function staticText(source: string): string | undefined {
  if (!source.startsWith("=")) return source;
  const literal = LITERAL.exec(source)?.[1];
  if (literal === undefined) return undefined;
  const decoded = decodeFeelString(literal);
  return decoded.ok ? decoded.value : undefined;
}
