/**
 * Which wide encoding a file read as UTF-8 was really written in: agentflow reads BPMN, JSON and
 * YAML as UTF-8 only, and a UTF-16 file (Windows tools write it) should be said to be one rather
 * than reported as a syntax error at its first character.
 */

/** What a UTF-8 reading makes of a wide encoding's byte-order mark: two invalid bytes, or a mark. */
const MARK = /^(?:\uFFFD\uFFFD|\uFEFF|\uFFFE)/;

/**
 * The wide encoding a text read as UTF-8 was written in, from its first characters: a UTF-16 or
 * UTF-32 byte-order mark (each of its bytes U+FFFD when decoded as UTF-8, or the mark itself), or,
 * without one, ASCII interleaved with NULs (`<\0?\0` is UTF-16LE). XML, JSON and YAML all
 * forbid a raw NUL, so such a text is never a UTF-8 document, and the readers would only say
 * "illegal first char" or "unexpected character".
 */
export function wideEncoding(text: string): string | undefined {
  const head = text.slice(0, 16);
  if (head.startsWith("\0\0") && MARK.test(head.slice(2))) return "UTF-32BE";
  const marked = MARK.exec(head);
  const body = marked === null ? head : head.slice(marked[0].length);
  // One code unit per byte: N for a NUL, c for anything else.
  let shape = "";
  for (let i = 0; i < Math.min(body.length, 8); i++) shape += body.charCodeAt(i) === 0 ? "N" : "c";
  if (marked !== null && shape.startsWith("NN")) return "UTF-32LE";
  if (/^(?:NNNc){2}/.test(shape)) return "UTF-32BE";
  if (/^(?:cNNN){2}/.test(shape)) return "UTF-32LE";
  if (/^(?:Nc){2}/.test(shape)) return "UTF-16BE";
  if (/^(?:cN){2}/.test(shape)) return "UTF-16LE";
  return undefined;
}
