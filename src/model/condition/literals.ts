/**
 * Reading FEEL string literals. Only the escapes every engine reads the same way are accepted;
 * for the others (`\'`, `\U…`, a `\u` not followed by exactly four hex digits) feelin and the DMN
 * grammar disagree, and a simulator that picked one reading could give a wrong answer.
 */

/** The outcome of {@link decodeFeelString}; `offset` is relative to the literal's opening quote. */
export type StringDecodeResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly offset: number; readonly message: string };

const isHex = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Decodes the source of a string literal, quotes included (`"a\"b"` → `a"b`). One forward pass.
 */
export function decodeFeelString(source: string): StringDecodeResult {
  const end = source.length - 1;
  if (source.length < 2 || source.charCodeAt(0) !== 34 || source.charCodeAt(end) !== 34) {
    return { ok: false, offset: 0, message: "the string literal is not closed" };
  }
  let out = "";
  let i = 1;
  while (i < end) {
    const c = source.charCodeAt(i);
    if (c !== 92) {
      const stop = source.indexOf("\\", i);
      const until = stop < 0 || stop > end ? end : stop;
      out += source.slice(i, until);
      i = until;
      continue;
    }
    const escape = source.charAt(i + 1);
    const simple = Object.hasOwn(SIMPLE_ESCAPES, escape) ? SIMPLE_ESCAPES[escape] : undefined;
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (escape === "u") {
      let digits = 0;
      while (digits < 5 && i + 2 + digits < end && isHex(source.charCodeAt(i + 2 + digits))) {
        digits += 1;
      }
      if (digits !== 4) {
        return {
          ok: false,
          offset: i,
          message:
            digits < 4
              ? "\\u must be followed by exactly four hex digits"
              : "\\u followed by more than four hex digits is read differently by FEEL engines",
        };
      }
      out += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
      i += 6;
    } else {
      return {
        ok: false,
        offset: i,
        message: `the escape \\${escape} is read differently by FEEL engines; use \\", \\\\, \\n, \\r, \\t or \\uXXXX`,
      };
    }
  }
  return { ok: true, value: out };
}
